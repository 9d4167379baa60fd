# makemore part 1: the bigram counts model on the wamerican word list.
import torch

words = open('/usr/share/dict/words', 'r').read().splitlines()
words = [w.lower() for w in words if w.isalpha() and all(ord(c) < 128 for c in w)]
words = words[:2000]
print(len(words), words[:5])
print(min(len(w) for w in words), max(len(w) for w in words))

chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
print(V, itos[1], itos[V - 1])

N = torch.zeros((V, V), dtype=torch.int64)
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N.sum().item(), N[0].sum().item(), N[stoi['a'], stoi['b']].item())

P = (N + 1).float()
P /= P.sum(1, keepdim=True)
print(P.shape, round(P[0].sum().item(), 4))

log_likelihood = 0.0
n = 0
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        prob = P[stoi[ch1], stoi[ch2]]
        log_likelihood += torch.log(prob)
        n += 1
nll = -log_likelihood
print(f'{nll.item() / n:.4f}', n)

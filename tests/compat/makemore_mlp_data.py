# makemore part 2: building the context windows (dataset) from the word list.
import torch

words = open('/usr/share/dict/words').read().splitlines()
words = [w.lower() for w in words if w.isalpha() and all(ord(c) < 128 for c in w)][:500]
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


n1 = int(0.8 * len(words))
n2 = int(0.9 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])
for x, y in zip(Xtr[:6], Ytr[:6]):
    print(''.join(itos[ix.item()] for ix in x), '-->', itos[y.item()])
C = torch.arange(27 * 2, dtype=torch.float32).view(27, 2) / 100
emb = C[Xtr]
print(emb.shape, emb.view(-1, 6).shape)
print(f"{emb[0].sum().item():.2f}")

# %% [markdown]
# # makemore, part 1: a bigram character model
# Counts of character pairs, drawn as a table; sampling from the counts; the
# same model as a one-layer network trained by gradient descent.
# `words.txt` is a stand-in for the course's `names.txt`: the lower-case words
# of Debian's word list (wamerican).

# %%
import torch
import matplotlib.pyplot as plt
%matplotlib inline

# %%
words = [w.strip() for w in open('/usr/share/dict/american-english')]
words = [w for w in words if w.isascii() and w.isalpha() and w.islower()]
words = words[::40]
len(words)

# %%
words[:10]

# %%
min(len(w) for w in words), max(len(w) for w in words)

# %%
b = {}
for w in words:
    chs = ['<S>'] + list(w) + ['<E>']
    for ch1, ch2 in zip(chs, chs[1:]):
        bigram = (ch1, ch2)
        b[bigram] = b.get(bigram, 0) + 1
sorted(b.items(), key=lambda kv: -kv[1])[:12]

# %%
N = torch.zeros((27, 27), dtype=torch.int32)
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
N[0, :10]

# %%
plt.figure(figsize=(16, 16))
plt.imshow(N, cmap='Blues')
for i in range(27):
    for j in range(27):
        chstr = itos[i] + itos[j]
        plt.text(j, i, chstr, ha="center", va="bottom", color='gray')
        plt.text(j, i, N[i, j].item(), ha="center", va="top", color='gray')
plt.axis('off');

# %%
p = N[0].float()
p = p / p.sum()
p

# %%
g = torch.Generator().manual_seed(2147483647)
ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
itos[ix]

# %%
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
P.shape, P[0].sum()

# %%
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print(''.join(out))

# %%
log_likelihood = 0.0
n = 0
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        prob = P[stoi[ch1], stoi[ch2]]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
print(f'{log_likelihood=}')
nll = -log_likelihood
print(f'{nll=}')
print(f'{nll/n}')

# %%
xs, ys = [], []
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print('number of examples: ', num)

# %%
import torch.nn.functional as F
xenc = F.one_hot(xs, num_classes=27).float()
xenc.shape, xenc.dtype

# %%
plt.imshow(xenc[:20])

# %% tags=["close"]
# The losses print all the digits of a float32: nndb sums float32 in double
# accumulators, PyTorch in float32 (its cascade), so the last digits differ.
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
for k in range(20):
    xenc = F.one_hot(xs, num_classes=27).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    if k % 5 == 0:
        print(k, loss.item())
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad

# %%
loss

# %%
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        xenc = F.one_hot(torch.tensor([ix]), num_classes=27).float()
        logits = xenc @ W
        counts = logits.exp()
        p = counts / counts.sum(1, keepdims=True)
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print(''.join(out))

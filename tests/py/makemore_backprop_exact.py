# makemore part 4 ("becoming a backprop ninja"), exercise 1: every gradient
# derived by hand and compared with autograd's using == (cmp prints exact,
# approximate and the largest difference). nndb must print the same
# exact/approximate verdicts as PyTorch on every line: True down to b2, then
# False from hpreact on, since PyTorch's tanh backward computes 1 - y*y with a
# fused multiply-add and the hand-written (1.0 - h**2) does not. The largest
# differences go to stderr: the forward sums round differently (nndb sums
# float32 in double), so their values are not PyTorch's.
import sys

import torch
import torch.nn.functional as F

vocab_size, block_size, n_embd, n_hidden, n = 27, 3, 10, 64, 32
torch.manual_seed(42)  # bngain and bnbias come from the global generator
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5 / 3) / ((n_embd * block_size) ** 0.5)
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
b2 = torch.randn(vocab_size, generator=g) * 0.1
bngain = torch.randn((1, n_hidden)) * 0.1 + 1.0
bnbias = torch.randn((1, n_hidden)) * 0.1
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True
# a batch as the lecture draws it from names.txt, here from the generator
Xb = torch.randint(0, vocab_size, (n, block_size), generator=g)
Yb = torch.randint(0, vocab_size, (n,), generator=g)

emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff ** 2
bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5) ** -0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum ** -1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits,
          h, hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani, embcat, emb]:
    t.retain_grad()
loss.backward()
print("loss", round(loss.item(), 4))


def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f"{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s}")
    print(f"{s:15s} | maxdiff: {maxdiff}", file=sys.stderr)


dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
cmp("logprobs", dlogprobs, logprobs)
dprobs = (1.0 / probs) * dlogprobs
cmp("probs", dprobs, probs)
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
cmp("counts_sum_inv", dcounts_sum_inv, counts_sum_inv)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum ** -2) * dcounts_sum_inv
cmp("counts_sum", dcounts_sum, counts_sum)
dcounts += torch.ones_like(counts) * dcounts_sum
cmp("counts", dcounts, counts)
dnorm_logits = counts * dcounts
cmp("norm_logits", dnorm_logits, norm_logits)
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
cmp("logit_maxes", dlogit_maxes, logit_maxes)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
cmp("logits", dlogits, logits)
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
cmp("h", dh, h)
cmp("W2", dW2, W2)
cmp("b2", db2, b2)
dhpreact = (1.0 - h ** 2) * dh
cmp("hpreact", dhpreact, hpreact)
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
cmp("bngain", dbngain, bngain)
cmp("bnraw", dbnraw, bnraw)
cmp("bnbias", dbnbias, bnbias)
dbndiff = bnvar_inv * dbnraw
dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
cmp("bnvar_inv", dbnvar_inv, bnvar_inv)
dbnvar = (-0.5 * (bnvar + 1e-5) ** -1.5) * dbnvar_inv
cmp("bnvar", dbnvar, bnvar)
dbndiff2 = (1.0 / (n - 1)) * torch.ones_like(bndiff2) * dbnvar
cmp("bndiff2", dbndiff2, bndiff2)
dbndiff += (2 * bndiff) * dbndiff2
cmp("bndiff", dbndiff, bndiff)
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
cmp("bnmeani", dbnmeani, bnmeani)
dhprebn += 1.0 / n * (torch.ones_like(hprebn) * dbnmeani)
cmp("hprebn", dhprebn, hprebn)
dembcat = dhprebn @ W1.T
dW1 = embcat.T @ dhprebn
db1 = dhprebn.sum(0)
cmp("embcat", dembcat, embcat)
cmp("W1", dW1, W1)
cmp("b1", db1, b1)
demb = dembcat.view(emb.shape)
cmp("emb", demb, emb)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        ix = Xb[k, j]
        dC[ix] += demb[k, j]
cmp("C", dC, C)

# exercise 2: the cross-entropy backward in one line, against F.cross_entropy
loss_fast = F.cross_entropy(logits, Yb)
print("loss_fast close", abs((loss_fast - loss).item()) < 1e-6)
dlogits = F.softmax(logits, 1)
dlogits[range(n), Yb] -= 1
dlogits /= n
cmp("logits (fast)", dlogits, logits)
# exercise 3: batchnorm's backward in one line
hpreact_fast = bngain * (hprebn - hprebn.mean(0, keepdim=True)) / torch.sqrt(
    hprebn.var(0, keepdim=True, unbiased=True) + 1e-5) + bnbias
print("hpreact_fast close", (hpreact_fast - hpreact).abs().max().item() < 1e-5)
dhprebn = bngain * bnvar_inv / n * (n * dhpreact - dhpreact.sum(0) - n / (n - 1) * bnraw * (
    dhpreact * bnraw).sum(0))
cmp("hprebn (fast)", dhprebn, hprebn)

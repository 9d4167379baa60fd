# The tensor API a learner reaches for: one_hot inputs, gather for the
# log-likelihood, topk/sort for the best predictions, scatter, cumsum for
# masks, einsum for attention scores, GroupNorm, and their errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1337)
xs = torch.tensor([0, 5, 13, 13, 1])
ys = torch.tensor([5, 13, 13, 1, 0])
xenc = F.one_hot(xs, num_classes=27).float()
print(xenc.shape, xenc.dtype, xenc.sum(1))
W = torch.randn((27, 27), requires_grad=True)
logits = xenc @ W
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
loss = -probs[torch.arange(5), ys].log().mean()
loss2 = -probs.gather(1, ys.unsqueeze(1)).log().mean()
print(f"{loss.item():.4f} {loss2.item():.4f}", torch.allclose(loss, loss2))
loss2.backward()
print(W.grad.shape, f"{W.grad.abs().sum().item():.4f}")

# the best next characters
top = probs.topk(3, dim=1)
print(top.indices)
vals, idx = torch.sort(probs[0], descending=True)
print(idx[:5], f"{vals[:5].sum().item():.4f}", torch.argsort(probs[0], descending=True)[:5])
print(type(top).__name__, type(vals).__name__)

# scatter a mask, cumsum positions, index_select rows
mask = torch.zeros(3, 6).scatter_(1, torch.tensor([[1], [4], [0]]), 1.0)
print(mask, mask.cumsum(dim=1))
pos = (torch.tensor([[3, 0, 5], [0, 0, 2]]) != 0).long().cumsum(1)
print(pos, torch.tensor([1, 2, 3]).cumprod(0))
print(torch.index_select(W.detach()[:4, :4], 0, torch.tensor([3, 0])).shape)
print(torch.tril(torch.ones(4, 4)), torch.ones(3, 3).triu(diagonal=1))
print(torch.bincount(ys), torch.histc(torch.tensor([1.0, 2.0, 2.5, 4.0]), bins=3, min=1, max=4))
print(torch.nonzero(xenc[:2]), xs.flip(0), xs.repeat(2), xs.repeat_interleave(2))

# attention scores with einsum, as in a from-scratch transformer
B, H, T, D = 2, 2, 4, 8
q, k, v = torch.randn(B, H, T, D), torch.randn(B, H, T, D), torch.randn(B, H, T, D)
att = torch.einsum('bhqd,bhkd->bhqk', q, k) / D ** 0.5
ref = q @ k.transpose(-2, -1) / D ** 0.5
print(torch.allclose(att, ref, atol=1e-6), att.shape)
att = att.masked_fill(torch.tril(torch.ones(T, T)) == 0, float('-inf')).softmax(-1)
out = torch.einsum('bhqk,bhkd->bhqd', att, v)
print(out.shape, torch.allclose(out, att @ v, atol=1e-6))
print(torch.einsum('ij,jk->ik', torch.eye(2), torch.ones(2, 3)), torch.einsum('i,i->', torch.ones(3), torch.arange(3.)))

# GroupNorm as a module
gn = nn.GroupNorm(2, 4)
print(gn, [n for n, _ in gn.named_parameters()])
y = gn(torch.randn(3, 4, 5))
print(y.shape, abs(y[0, :2].mean().item()) < 1e-5, y.grad_fn.name())
print(torch.nan_to_num(torch.log(torch.tensor([0.0, 1.0, -1.0]))))
print(torch.sin(torch.tensor([0.0, 1.0])), torch.cos(torch.tensor(0.5)), torch.log2(torch.tensor(8.0)), torch.log10(torch.tensor(1000.0)))

for bad in [lambda: F.one_hot(torch.tensor([1.0, 2.0])),
            lambda: F.one_hot(torch.tensor([3]), num_classes=2),
            lambda: torch.gather(W, 1, torch.tensor([[30]])),
            lambda: torch.topk(torch.ones(3), 4),
            lambda: torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(2, 3)),
            lambda: torch.cumsum(torch.ones(2), dim=1),
            lambda: nn.GroupNorm(3, 4)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__ + ':', e)

# Batched products under 400 multiply-adds per entry (K M N < 400): PyTorch
# 1.13's bmm sums them in a plain loop over k (a product, then a sum, each
# rounded) instead of calling sgemm, and so does nndb; at 400 and above both
# call the BLAS. Forward and gradients, float32 and float64, transposed
# operands, torch.matmul's 3-D and broadcast batches, baddbmm: the bytes
# must be PyTorch's (sha256).
import hashlib

import torch

torch.manual_seed(0)


def h(*ts):
    d = hashlib.sha256()
    for t in ts:
        d.update(t.detach().contiguous().numpy().tobytes())
    return d.hexdigest()[:16]


for (b, n, k, m) in [(50, 1, 49, 1), (4, 3, 5, 7), (2, 7, 7, 8), (3, 8, 8, 7), (2, 1, 400, 1),
                     (2, 1, 399, 1), (6, 4, 4, 4), (1, 9, 6, 7)]:
    for dt in (torch.float32, torch.float64):
        x = torch.randn(b, n, k, dtype=dt, requires_grad=True)
        y = torch.randn(b, k, m, dtype=dt, requires_grad=True)
        out = torch.bmm(x, y)
        (out * torch.linspace(-1, 1, out.numel(), dtype=dt).view_as(out)).sum().backward()
        print((b, n, k, m), str(dt)[6:], "bmm", h(out), "grads", h(x.grad, y.grad))

# transposed operands
a = torch.randn(3, 6, 5).transpose(1, 2)
c = torch.randn(3, 7, 6).transpose(1, 2)
print("bmm transposed", h(torch.bmm(a, c)))
# torch.matmul: 3-D by 3-D, and broadcast batches (PyTorch expands and calls bmm)
p = torch.randn(4, 3, 5)
q = torch.randn(4, 5, 2)
print("matmul 3-D", h(p @ q))
r = torch.randn(2, 1, 3, 4)
s = torch.randn(5, 4, 2)
print("matmul broadcast", h(torch.matmul(r, s)))
# two matrices: mm (the BLAS), however small
p2 = torch.randn(10, 2, requires_grad=True)
q2 = torch.randn(2, 1, requires_grad=True)
(torch.matmul(p2, q2) ** 2).sum().backward()
print("matmul 2-D @ 2-D", h(torch.matmul(p2, q2)), "grads", h(p2.grad, q2.grad))
# an operand of at most 2 dims: PyTorch folds the batch into one mm (BLAS
# bits, not the loop's)
m2 = torch.randn(4, 5)
m3 = torch.randn(3, 5, 6)
print("matmul 2-D @ 3-D", h(m2 @ m3))
x3 = torch.randn(3, 4, 5, requires_grad=True)
w2 = torch.randn(5, 6, requires_grad=True)
(x3 @ w2).sum().backward()
print("matmul 3-D @ 2-D", h(x3 @ w2), "grads", h(x3.grad, w2.grad))
# a matrix by a batch: PyTorch folds the batch's transposed matrices into
# rows (one mm) and transposes the blocks back; forward and gradients, small
# and 64 x 64 (where OpenBLAS's tiles differ from per-entry products)
for (mm_, kk, nn_, bb) in [(4, 5, 6, 3), (64, 64, 64, 8), (7, 33, 9, 2)]:
    ma = torch.randn(mm_, kk, requires_grad=True)
    mb = torch.randn(bb, kk, nn_, requires_grad=True)
    mo = ma @ mb
    mo.backward(torch.randn(bb, mm_, nn_))
    print("matrix @ batch", (mm_, kk, nn_, bb), mo.stride(), h(mo), "grads", h(ma.grad, mb.grad))
# ... except a 3-D batch whose last two dims are transposed in an otherwise
# contiguous layout: PyTorch's should_fold sends that to bmm (a loop when
# small), on either side
tb = torch.randn(3, 6, 5).transpose(1, 2)
print("matrix @ transposed batch", h(torch.randn(4, 5) @ tb), h(torch.randn(40, 5) @ tb))
ta = torch.randn(3, 5, 4).transpose(1, 2)
print("transposed batch @ matrix", h(ta @ torch.randn(5, 6)), h(ta @ torch.randn(5, 60)))
# 4-D @ 3-D: both 3 dims or more, a bmm over the broadcast batch
print("matmul 4-D @ 3-D", h(torch.randn(2, 3, 4, 5) @ torch.randn(3, 5, 6)))
# the attention idiom of d2l: queries [b, 1, d] against keys [b, d, n]
queries = torch.randn(10, 1, 8)
keys = torch.randn(10, 8, 12)
w = torch.softmax(torch.bmm(queries, keys) / 8 ** 0.5, dim=-1)
print("attention weights", h(w), f"{w.sum().item():.6f}")
# baddbmm with beta 0: the product alone, the input (NaN included) not read
base = torch.randn(3, 4, 5)
base[0, 0, 0] = float("nan")
u = torch.randn(3, 4, 6)
v = torch.randn(3, 6, 5)
print("baddbmm beta 0", h(torch.baddbmm(base, u, v, beta=0)))

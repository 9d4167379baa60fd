# A GPT's attention products at two threads (torch.set_num_threads(2) and
# OpenBLAS at two), forward and backward, q, k, v read in place from the
# qkv projection's output as nanoGPT's manual attention does. PyTorch 1.13's
# bmm calls OpenBLAS's sgemm once per head, and OpenBLAS at two threads
# splits a head of 256 x 256 x 64 between them and sums in another order
# than at one (attention_products_bits.py has the one-thread side): nndb
# must print these two-thread bits (engine/ops/ops_matmul.c computes each
# head in OpenBLAS's two threads' order on one of its pool's threads).
# PyTorch does not pass torch.set_num_threads on to OpenBLAS, so both sides
# set OpenBLAS's threads themselves. Each result is printed as the float64
# sum of its elements and of their absolute values.
import ctypes
import math

import torch
import torch.nn.functional as F

ctypes.CDLL("libopenblas.so.0").openblas_set_num_threads(2)
torch.set_num_threads(2)


def digest(name, t):
    d = t.detach().double()
    print(name, tuple(t.shape), repr(d.sum().item()), repr(d.abs().sum().item()))


def attention(B, T, H, hd, seed):
    torch.manual_seed(seed)
    C = H * hd
    qkv = torch.randn(B, T, 3 * C).requires_grad_()
    q, k, v = qkv.split(C, dim=2)
    q = q.view(B, T, H, hd).transpose(1, 2)
    k = k.view(B, T, H, hd).transpose(1, 2)
    v = v.view(B, T, H, hd).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
    mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
    att = att.masked_fill(mask == 0, float("-inf"))
    att = F.softmax(att, dim=-1)
    y = att @ v
    digest(f"B{B} T{T} scores", att)
    digest(f"B{B} T{T} y", y)
    y.backward(torch.randn(B, H, T, hd))
    digest(f"B{B} T{T} dqkv", qkv.grad)  # dq, dk, dv: dS k, q^T dS, att^T dy
    # the products by themselves, every transpose
    a = torch.randn(B, H, T, T)
    q, k, v = q.detach(), k.detach(), v.detach()
    digest(f"B{B} T{T} a v", a @ v)
    digest(f"B{B} T{T} a^T v", a.transpose(-2, -1) @ v)
    digest(f"B{B} T{T} q k^T", q @ k.transpose(-2, -1))
    digest(f"B{B} T{T} v^T a", v.transpose(-2, -1) @ a)
    digest(f"B{B} T{T} q^T a", q.transpose(-2, -1) @ a)
    digest(f"B{B} T{T} a k", a @ k)


attention(4, 256, 12, 64, 0)
attention(8, 128, 8, 64, 1)
attention(2, 100, 4, 40, 2)
# float64 goes to OpenBLAS head by head on its two threads
torch.manual_seed(3)
a, b = torch.randn(2, 3, 96, 700, dtype=torch.float64), torch.randn(2, 3, 700, 40, dtype=torch.float64)
digest("f64 a b", a @ b)
digest("f64 b^T a^T", b.transpose(-2, -1) @ a.transpose(-2, -1))

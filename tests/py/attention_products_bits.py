# A GPT's attention products at the shapes of the scale benchmarks (B4 T256
# H12 hd64, B8 T128 H8 hd64, and B2 T100 H4 hd40), q, k, v read in place
# from the qkv projection's output as nanoGPT's manual attention does,
# forward and backward, at one thread and at two: each must have PyTorch's
# bits. PyTorch 1.13's bmm calls OpenBLAS's sgemm once per head; at two
# threads OpenBLAS splits a 256 x 256 x 64 head between them and sums in
# another order than at one. nndb computes these products itself
# (engine/nn_small_gemm.c), at two threads each head in OpenBLAS's two
# threads' order on one of its pool's threads (engine/ops/ops_matmul.c).
# PyTorch's torch.set_num_threads does not reach OpenBLAS, so both sides
# set OpenBLAS's threads themselves. Each result is printed as the float64
# sum of its float32 elements and of their absolute values, which a change
# of one bit in one element shows.
import ctypes
import math

import torch
import torch.nn.functional as F

openblas = ctypes.CDLL("libopenblas.so.0")


def digest(name, t):
    d = t.detach().double()
    print(name, tuple(t.shape), repr(d.sum().item()), repr(d.abs().sum().item()))


def attention(B, T, H, hd, seed):
    torch.manual_seed(seed)
    C = H * hd
    x = torch.randn(B, T, C)
    w = (torch.randn(3 * C, C) * 0.02).requires_grad_()
    qkv = x @ w.t()
    qkv.retain_grad()
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


for threads in (1, 2):
    openblas.openblas_set_num_threads(threads)
    torch.set_num_threads(threads)
    print("threads", threads)
    attention(4, 256, 12, 64, 0)
    attention(8, 128, 8, 64, 1)
    attention(2, 100, 4, 40, 2)
    # float64 goes to OpenBLAS head by head on its threads
    torch.manual_seed(3)
    a = torch.randn(2, 3, 96, 700, dtype=torch.float64)
    b = torch.randn(2, 3, 700, 40, dtype=torch.float64)
    digest("f64 a b", a @ b)
    digest("f64 b^T a^T", b.transpose(-2, -1) @ a.transpose(-2, -1))

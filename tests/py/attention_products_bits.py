# A GPT's attention products at the shapes of the scale benchmarks (B4 T256
# H12 hd64 and B8 T128 H8 hd64), q, k, v read in place from the qkv
# projection's output as nanoGPT's manual attention does: forward and
# backward must have PyTorch's bits (both call OpenBLAS's sgemm per head;
# nndb computes these products itself, engine/nn_small_gemm.c). Each result
# is printed as the float64 sum of its float32 elements and of their
# absolute values, which a change of one bit in one element shows.
# PyTorch's torch.set_num_threads does not reach OpenBLAS, whose split of a
# product among threads changes the bits: both sides run it at one thread.
import math
import os

os.environ["OPENBLAS_NUM_THREADS"] = "1"
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

torch.set_num_threads(1)


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
    g = torch.randn(B, H, T, hd)
    y.backward(g)
    digest(f"B{B} T{T} dqkv", qkv.grad)  # dq, dk, dv: dS k, dS^T q, att^T dy
    # the products by themselves, every transpose (dS k, dS^T q, att^T dy)
    a = torch.randn(B, H, T, T)
    digest(f"B{B} T{T} a v", a @ v.detach())
    digest(f"B{B} T{T} a^T v", a.transpose(-2, -1) @ v.detach())
    digest(f"B{B} T{T} q k^T", q.detach() @ k.detach().transpose(-2, -1))
    digest(f"B{B} T{T} v^T a", v.detach().transpose(-2, -1) @ a)


attention(4, 256, 12, 64, 0)
attention(8, 128, 8, 64, 1)
attention(2, 100, 4, 40, 2)

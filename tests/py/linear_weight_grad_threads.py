"""A Linear layer with many outputs (an LM head) has PyTorch's weight
gradient at one and two BLAS threads: dW = dy^T x has a row per output
feature, and nndb hands a product of more than 16384 such rows to OpenBLAS
in blocks of rows at one thread (to keep OpenBLAS's packing buffer small)
but whole at two, where OpenBLAS's split of the rows between its threads
decides its order of sums. PyTorch 1.13 does not pass torch.set_num_threads
on to OpenBLAS, so both sides here set OpenBLAS's threads themselves.
Compared line for line with PyTorch."""
import ctypes
import hashlib

import torch

blas = ctypes.CDLL("libopenblas.so.0")


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


for threads in (1, 2):
    torch.set_num_threads(threads)
    blas.openblas_set_num_threads(threads)
    g = torch.Generator().manual_seed(5)
    for rows, fin, fout in [(64, 96, 20000), (256, 64, 17000), (32, 768, 50257)]:
        x = torch.randn(rows, fin, generator=g)
        w = (torch.randn(fout, fin, generator=g) * 0.02).requires_grad_()
        y = torch.nn.functional.linear(x, w)
        y.backward(torch.randn(rows, fout, generator=g))
        print(threads, rows, fin, fout, h(y), h(w.grad), f"{w.grad.abs().sum().item():.6f}")

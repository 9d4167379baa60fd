"""Batch norm in float32 gives PyTorch 1.13's bits: training outputs, the
updated running mean and variance (momentum rounded to float first, as ATen
does), and evaluation outputs, for [N, C, ...] inputs (per-channel sums in
double, y = x * alpha + beta fused) and [N, C] inputs (ATen's per-thread
float row sums, at 1 and 2 threads). Hashes of the results."""
import hashlib

import torch
import torch.nn as nn
import torch.nn.functional as F


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:10]


for threads in (1, 2):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    for shape in [(8, 3, 16, 16), (4, 16, 7, 7), (2, 4, 33), (64, 8, 28, 28), (3, 2, 5, 5, 2),
                  (32, 5), (128, 64), (7, 3), (1000, 10), (2, 200)]:
        x = torch.randn(*shape) * 2 + 0.3
        w, b = torch.randn(shape[1]), torch.randn(shape[1])
        rm, rv = torch.randn(shape[1]) * 0.1, torch.rand(shape[1]) + 0.5
        y = F.batch_norm(x, rm, rv, w, b, training=True)
        y2 = F.batch_norm(x * 0.5, rm, rv, None, None, training=True, momentum=0.01)
        ye = F.batch_norm(x, rm, rv, w, b, training=False)
        print(threads, shape, h(y), h(y2), h(ye), h(rm), h(rv))
    bn = nn.BatchNorm1d(6)
    for _ in range(3):
        bn(torch.randn(16, 6))
    bn.eval()
    print(threads, "BatchNorm1d", h(bn.running_mean), h(bn.running_var), h(bn(torch.randn(4, 6))))
    conv = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4))
    print(threads, "BatchNorm2d", h(conv[1](torch.randn(8, 4, 10, 10))), h(conv[1].running_var))

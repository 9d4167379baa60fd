"""The ops of bench/python/conv.py's CNN blocks one at a time, the same file
under `nndb python` and /usr/bin/python3:
    conv_ops.py THREADS REPS [dwsep|resnet]
prints per op the mean over REPS calls (after two untimed ones) of the CPU
time of all threads, the CPU time of the calling thread, the share the
other threads did, and the wall time. At 2 threads an op whose work is
split has "others" near 50%; on an idle machine its wall time is then
about half its CPU time. Shapes: the depthwise-separable block's
([32, 64, 32, 32] in, pointwise to 128 channels) or the ResNet block's
([32, 64, 32, 32], 3x3, 64 channels). PyTorch's OpenMP threads spin while
they wait, so its CPU time at 2 threads counts waiting as work."""
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
block = sys.argv[3] if len(sys.argv) > 3 else "dwsep"
torch.set_num_threads(threads)
torch.manual_seed(0)


def grad(y, xs, g):
    return lambda: torch.autograd.grad(y, xs, g, retain_graph=True)


x = torch.randn(32, 64, 32, 32, requires_grad=True)
g64 = torch.randn(32, 64, 32, 32)
if block == "dwsep":
    dw = nn.Conv2d(64, 64, 3, padding=1, groups=64, bias=False)
    pw = nn.Conv2d(64, 128, 1, bias=False)
    bn = nn.BatchNorm2d(128)
    r = torch.randn(32, 128, 32, 32, requires_grad=True)
    g = torch.randn(32, 128, 32, 32)
    ones = torch.ones(()).expand(32, 128, 32, 32)
    y_dw, y_pw, y_bn, y_r = dw(x), pw(x), bn(r), F.relu(r)
    work = [("depthwise 3x3 fwd", lambda: dw(x)),
            ("depthwise 3x3 bwd", grad(y_dw, (x, dw.weight), g64)),
            ("pointwise 1x1 fwd", lambda: pw(x)),
            ("pointwise 1x1 bwd", grad(y_pw, (x, pw.weight), g)),
            ("batch_norm fwd", lambda: bn(r)),
            ("batch_norm bwd", grad(y_bn, (r, bn.weight, bn.bias), g)),
            ("relu fwd", lambda: F.relu(r)),
            ("relu bwd (from .sum())", grad(y_r, (r,), ones)),
            ("sum", lambda: r.sum())]
else:
    conv = nn.Conv2d(64, 64, 3, padding=1, bias=False)
    bn = nn.BatchNorm2d(64)
    ones = torch.ones(()).expand(32, 64, 32, 32)
    y_c, y_bn, y_r = conv(x), bn(x), F.relu(x)
    work = [("conv 3x3 fwd", lambda: conv(x)),
            ("conv 3x3 bwd", grad(y_c, (x, conv.weight), g64)),
            ("batch_norm fwd", lambda: bn(x)),
            ("batch_norm bwd", grad(y_bn, (x, bn.weight, bn.bias), g64)),
            ("relu fwd", lambda: F.relu(x)),
            ("relu bwd (from .sum())", grad(y_r, (x,), ones)),
            ("add", lambda: x + g64),
            ("sum", lambda: x.sum())]
print(f"{'op':24s} {'cpu ms':>8s} {'main ms':>8s} {'others':>7s} {'wall ms':>8s}")
for name, fn in work:
    for _ in range(2):
        fn()
    c0, t0, w0 = time.process_time(), time.thread_time(), time.perf_counter()
    for _ in range(reps):
        fn()
    c = (time.process_time() - c0) / reps
    t = (time.thread_time() - t0) / reps
    w = (time.perf_counter() - w0) / reps
    print(f"{name:24s} {c * 1e3:8.2f} {t * 1e3:8.2f} {100 * (c - t) / c:6.0f}% {w * 1e3:8.2f}",
          flush=True)

"""Elementwise ops on a transposed [512, 4096] float32 input (2M elements,
8 MiB), the case whose output keeps the input's layout and is computed
over flat memory (docs/language-tensors.md, "Layout of elementwise
results"). The same file runs under nndb and under PyTorch; the contiguous
cases are the yardstick. Prints `name microseconds` lines: the median of
ROUNDS rounds, each the CPU time (process_time) of as many calls as fill
about 50 ms, divided by the calls. Interleave processes of the builds
compared (the machine is shared):

    for i in 1 2 3; do for b in OLD NEW; do $b python layout_ops.py 1; done;
                       /usr/bin/python3 layout_ops.py 1; done
"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
ROUNDS = 7
torch.manual_seed(0)
x = torch.randn(512, 4096)
y = torch.randn(512, 4096)
xt = torch.randn(4096, 512).t()
yt = torch.randn(4096, 512).t()

CASES = [
    ("gelu", lambda: F.gelu(x)),
    ("gelu_t", lambda: F.gelu(xt)),
    ("exp", lambda: x.exp()),
    ("exp_t", lambda: xt.exp()),
    ("add", lambda: x + y),
    ("add_t", lambda: xt + yt),
    ("mul_scalar_t", lambda: xt * 2.0),
    ("sigmoid_t", lambda: torch.sigmoid(xt)),
]


def per_call(f):
    f()
    n, t0 = 0, time.process_time()
    while True:
        f()
        n += 1
        dt = time.process_time() - t0
        if dt > 0.05:
            return dt / n


for name, f in CASES:
    print(name, round(statistics.median(per_call(f) for _ in range(ROUNDS)) * 1e6, 1))

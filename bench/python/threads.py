"""The size threshold of the engine's threads (NN_PAR_MIN_ELEMWISE,
engine/nn_thread.h): elementwise ops and reductions at 2 threads, each
size run split across both threads and on one, in the same process:

    nndb python bench/python/threads.py [SIZE ...]

Prints, per op and size, the best wall time of 5 rounds of calls (2M
elements' worth a round, at least 5 calls) with the split forced
(torch._C._par_min_elemwise(1)) and with it off, and split over serial.
The ops: add (the cheapest elementwise op), exp, tanh-GELU (a dear one),
sum over dim 0 of [n/256, 256] (a column reduction, as a bias gradient)
and the same tensor's sum over its rows, softmax over rows of 768 (256
when n is not a multiple of 768), layer norm's forward and backward there.
The threshold is where add's ratio falls below 1: a tensor of n elements
splits when n >= 2 x the threshold. On a loaded machine, run it at real-time priority (chrt -f 50)
so that wall time is the op's.
"""
import sys
import time

import torch
import torch.nn.functional as F


def best(fn, reps):
    out = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        out.append((time.perf_counter() - t0) / reps)
    return min(out)


torch.set_num_threads(2)
default = torch._C._par_min_elemwise()
sizes = [int(v) for v in sys.argv[1:]] or [4096, 8192, 16384, 32768, 65536, 131072,
                                           262144, 1048576]
for n in sizes:
    a, b = torch.randn(n), torch.randn(n)
    m = a.view(-1, 256)
    rows = a.view(-1, 768) if n % 768 == 0 else a.view(-1, 256)
    x = rows.clone().requires_grad_(True)
    gy = torch.randn(rows.shape)
    reps = max(5, 2000000 // n)
    for name, fn in (("add", lambda: a + b), ("gelu", lambda: F.gelu(a, approximate="tanh")),
                     ("exp", lambda: a.exp()), ("sum0", lambda: m.sum(0)),
                     ("sum1", lambda: m.sum(1)), ("softmax", lambda: F.softmax(rows, -1)),
                     ("ln_fb", lambda: F.layer_norm(x, x.shape[-1:]).backward(gy))):
        torch._C._par_min_elemwise(1 << 40)
        t1 = best(fn, reps)
        torch._C._par_min_elemwise(1)
        t2 = best(fn, reps)
        print(f"{name:5s} n={n:8d}  serial {t1 * 1e6:9.1f} us  split {t2 * 1e6:9.1f} us  "
              f"split/serial {t2 / t1:.2f}", flush=True)
torch._C._par_min_elemwise(default)

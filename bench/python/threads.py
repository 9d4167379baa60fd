"""Elementwise ops at 1 and 2 engine threads, for the size threshold of
nn_iter_run_parallel (engine/nn_ops_impl.h, NN_PAR_MIN_ELEMWISE):

    nndb python bench/python/threads.py

Prints, per op and size, the best wall time of 200 calls (or fewer on big
sizes) at 1 and at 2 threads and their ratio.
"""
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


for n in (8192, 32768, 65536, 131072, 262144, 1048576, 4194304):
    a, b = torch.randn(n), torch.randn(n)
    reps = max(5, 2000000 // n)
    for name, fn in (("add", lambda: a + b), ("gelu", lambda: F.gelu(a, approximate="tanh")),
                     ("exp", lambda: a.exp())):
        torch.set_num_threads(1)
        t1 = best(fn, reps)
        torch.set_num_threads(2)
        t2 = best(fn, reps)
        print(f"{name:5s} n={n:8d}  1t {t1 * 1e6:9.1f} us  2t {t2 * 1e6:9.1f} us  2t/1t {t2 / t1:.2f}",
              flush=True)

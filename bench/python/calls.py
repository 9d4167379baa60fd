"""Per-call cost of tensor methods and operators from Python, the same file
under `nndb python` (nndb's torch) and /usr/bin/python3 (PyTorch). Prints
one "NAME NS_PER_CALL" line per case (best of 5 rounds)."""
import time

import torch

N = 200_000
a = torch.ones(1)
b = torch.ones(1)
x = torch.ones(4, 4)


def best(fn):
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) / N * 1e9


def loop_empty():
    for _ in range(N):
        pass


def loop_dim():
    for _ in range(N):
        x.dim()


def loop_shape():
    for _ in range(N):
        x.shape


def loop_add():
    for _ in range(N):
        a + b


def loop_add_scalar():
    for _ in range(N):
        a * 2.0


def loop_torch_add():
    for _ in range(N):
        torch.add(a, b)


def loop_sum_dim():
    for _ in range(N):
        x.sum(dim=0)


base = best(loop_empty)
for name, fn in [("dim", loop_dim), ("shape", loop_shape), ("add", loop_add),
                 ("mul_scalar", loop_add_scalar), ("torch_add", loop_torch_add),
                 ("sum_dim_kw", loop_sum_dim)]:
    print(name, f"{best(fn) - base:.1f}")

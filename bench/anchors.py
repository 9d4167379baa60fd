"""Anchor side of the benchmarks: the same work in NumPy or PyTorch CPU.

    anchors.py matmul N THREADS REPS
    anchors.py mlp IN HIDDEN OUT BATCH THREADS STEPS
    anchors.py random randn|rand N REPS

Prints one line in the format the nndb programs use (bench/bench_*.c):
    RESULT seconds=<median> gflops=<..>                       (matmul)
    RESULT ms=<median ms/step> maxrss_kib=<..> loss_first=.. loss_last=..  (mlp)
    RESULT seconds=<median> ms=<..>                            (random)
The thread count is fixed through the environment before NumPy or torch is
imported (BLAS reads it once), and again with torch.set_num_threads.
"""
import os
import resource
import statistics
import sys
import time


def set_threads(n):
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)


def bench_matmul(n, threads, reps):
    set_threads(threads)
    import numpy as np

    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    times = []
    for r in range(reps + 1):  # the first product is untimed warm-up
        t0 = time.perf_counter()
        c = a @ b
        dt = time.perf_counter() - t0
        del c
        if r:
            times.append(dt)
    med = statistics.median(times)
    print(f"RESULT seconds={med:.9g} gflops={2.0 * n ** 3 / med / 1e9:.6g}")


def bench_mlp(n_in, hidden, n_out, batch, threads, steps):
    set_threads(threads)
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(n_in, hidden), torch.nn.Tanh(),
        torch.nn.Linear(hidden, hidden), torch.nn.Tanh(),
        torch.nn.Linear(hidden, n_out))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    # bench/bench_anomaly.py: the same step under PyTorch's anomaly mode
    torch.autograd.set_detect_anomaly(os.environ.get("NNDB_BENCH_ANOMALY") == "1")
    x = torch.randn(batch, n_in)
    y = torch.randint(0, n_out, (batch,))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()

    first = step()
    step()
    step()
    times = []
    last = first
    for _ in range(steps):
        t0 = time.perf_counter()
        last = step()
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"RESULT ms={med * 1e3:.6g} maxrss_kib={rss} loss_first={first:.6f} loss_last={last:.6f}")


def bench_random(kind, n, reps):
    set_threads(1)
    import torch

    torch.set_num_threads(1)
    fn = torch.randn if kind == "randn" else torch.rand
    times = []
    for r in range(reps + 1):  # the first call is untimed warm-up
        t0 = time.perf_counter()
        x = fn(n)
        dt = time.perf_counter() - t0
        del x
        if r:
            times.append(dt)
    med = statistics.median(times)
    print(f"RESULT seconds={med:.9g} ms={med * 1e3:.6g}")


def main(argv):
    if len(argv) >= 2 and argv[1] == "matmul" and len(argv) == 5:
        bench_matmul(*map(int, argv[2:]))
    elif len(argv) == 5 and argv[1] == "random":
        bench_random(argv[2], int(argv[3]), int(argv[4]))
    elif len(argv) >= 2 and argv[1] == "mlp" and len(argv) == 8:
        bench_mlp(*map(int, argv[2:]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

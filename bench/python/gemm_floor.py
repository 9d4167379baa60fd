"""The GEMM floor of a GPT step: exactly the matrix products of one step of
bench/python/gpt_scale.py (forward, and for training the backward's two
products per forward product), called as cblas_sgemm of the system OpenBLAS
through ctypes, nothing else. No step can be faster than this on the same
BLAS and threads, so a step's time over it says what the rest costs.

    gemm_floor.py train|forward L H C V B T THREADS STEPS [--own-blocks] [--engine [--alternate [--brief]]]

Prints "step_ms", "cpu_ms" (medians over STEPS after one untimed pass),
"gflop" (the step's products, 2 m n k each) and "threads_used": the CPU
time of all the process's threads over that of its busiest one during the
timed steps (about 2.0 when OpenBLAS really splits the products across two
threads, 1.0 at one). The products are made as nndb's nn_blas_sgemm makes
them: a C of at most 256K elements, or any C at one thread, is cleared with
memset and multiplied with beta 1 (OpenBLAS's beta-0 pass is slower).

By default every product reads and writes the same three buffers, so the
attention's B*H small products per layer find their operands and output in
cache. --own-blocks gives each of those batched products its own blocks
of A, B and C (one contiguous [count, ...] array per product, as a step
lays out q, k, v, the scores and their gradients): the memory traffic a
real step cannot avoid. The Linear products keep the shared buffers (at
the forward B1 T128 a weight and output of its own per product measured
the same as the shared ones; at B4 T256 their activations reuse L3 in the
floor where a step's do not, which --own-blocks does not model either).

--engine makes the same products with `import torch` instead of ctypes,
each as the step calls it: torch.mm(a, b) for a Linear product (operands
transposed as views) and one torch.bmm per batched product on blocks of
its own (as --own-blocks), each output a new tensor as in the step. Under
`nndb python` that is nndb's own product kernels (its 512-bit tiles where
the CPU has AVX-512, else OpenBLAS), so the step over it is the step's
cost beyond its own products; under /usr/bin/python3 it is PyTorch's. Not
out=: nndb computes an out= result into a new tensor and copies it (the
copy and its page faults cost about 0.4 s of the B4 T64 floor).

--alternate (with --engine) also builds gpt_scale.py's step and the
OpenBLAS floor (the ctypes calls above) in the same process and times the
three in turn, step, engine floor, OpenBLAS floor, STEPS times each (after
two untimed passes of the step and the engine floor in turn), and
prints the step's medians as "gpt_step_ms" and "gpt_cpu_ms" and the
OpenBLAS floor's as "blas_step_ms" and "blas_cpu_ms": on this VM
the speed of the machine swings by a third from one minute to the next
(the floor alone read 1.33 and 2.07 s a minute apart), so a ratio of two
processes run one after the other says more about the minute than about
the step; alternating in one process both see the same minutes. With
--brief (make bench's default, bench_gpt_scale.py) the OpenBLAS floor
gets no untimed pass, only one call of each distinct product: its
buffers are written when it is built, and those calls make OpenBLAS's
own buffers resident, while at B4 T256 a whole untimed pass is 8 more
seconds of a run that has to stay short.
"""
import ctypes
import os
import sys

from timing import step_medians

ROW_MAJOR, NO_TRANS, TRANS = 101, 111, 112


def products(mode, L, H, C, V, B, T):
    """(count, m, n, k, transa, transb) of every sgemm of one step, row-major.
    A Linear y[M,N] = x[M,K] W[N,K]^T has in backward dx = dy W ([M,K] from
    [M,N] [N,K]) and dW = dy^T x ([N,K] from [N,M]^T [M,K]); attention is
    B*H products of [T,hs] blocks per head."""
    N, hs = B * T, C // H
    linears = [(N, 3 * C, C), (N, C, C), (N, 4 * C, C), (N, C, 4 * C)] * L + [(N, V, C)]
    out = []
    for m, n, k in linears:
        out.append((1, m, n, k, NO_TRANS, TRANS))
        if mode == "train":
            out.append((1, m, k, n, NO_TRANS, NO_TRANS))
            out.append((1, n, k, m, TRANS, NO_TRANS))
    for _ in range(L):
        out.append((B * H, T, T, hs, NO_TRANS, TRANS))      # att = q k^T
        out.append((B * H, T, hs, T, NO_TRANS, NO_TRANS))   # y = att v
        if mode == "train":
            out.append((B * H, T, T, hs, NO_TRANS, TRANS))      # datt = dy v^T
            out.append((B * H, T, hs, T, TRANS, NO_TRANS))      # dv = att^T dy
            out.append((B * H, T, hs, T, NO_TRANS, NO_TRANS))   # dq = datt k
            out.append((B * H, T, hs, T, TRANS, NO_TRANS))      # dk = datt^T q
    return out


def thread_ticks():
    """CPU clock ticks (user + system) of each thread of this process."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            out[tid] = int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return out


def engine_step(prods, threads):
    """The step's products through torch (see --engine): a function making
    them all once."""
    import torch
    torch.set_num_threads(threads)
    big = max([max(m * k, k * n) for cnt, m, n, k, _, _ in prods if cnt == 1] or [1])
    shared = [torch.full((big,), 0.01) for _ in range(2)]
    calls = []

    def operand(flat, rows, cols, trans, count):
        # [count,] rows x cols, a transposed view when the product reads it so
        if count == 1:
            return flat[:rows * cols].view(cols, rows).t() if trans else flat[:rows * cols].view(rows, cols)
        return (flat.view(count, cols, rows).transpose(1, 2) if trans
                else flat.view(count, rows, cols))

    for count, m, n, k, ta, tb in prods:
        if count == 1:
            fa, fb = shared
        else:
            fa, fb = (torch.full((count * size,), 0.01) for size in (m * k, k * n))
        a = operand(fa, m, k, ta == TRANS, count)
        b = operand(fb, k, n, tb == TRANS, count)
        calls.append((torch.mm if count == 1 else torch.bmm, a, b))

    def step():
        for fn, a, b in calls:
            fn(a, b)

    return step


def blas_step(prods, threads, own):
    """The step's products as cblas_sgemm calls of the system OpenBLAS
    through ctypes: a function making them all once (see the module's text
    for the buffers and --own-blocks)."""
    blas = ctypes.CDLL("libopenblas.so.0")
    blas.openblas_set_num_threads(threads)
    sgemm = blas.cblas_sgemm
    f, i, p = ctypes.c_float, ctypes.c_int, ctypes.c_void_p
    sgemm.argtypes = [i, i, i, i, i, i, f, p, i, p, i, f, p, i]
    sgemm.restype = None
    big = max(max(m * k, k * n, m * n) for _, m, n, k, _, _ in prods)
    bufs = [(ctypes.c_float * big)() for _ in range(3)]
    for b in bufs:  # small values, no zeros or denormals
        ctypes.memset(b, 0, ctypes.sizeof(b))  # every page written: resident before the first pass
        ctypes.memmove(b, (ctypes.c_float * 1)(0.01), 4)
        for j in range(1, 64):
            b[j] = 0.01 * j
    a, b, c = (ctypes.addressof(x) for x in bufs)
    calls = []
    for count, m, n, k, ta, tb in prods:
        lda = k if ta == NO_TRANS else m
        ldb = n if tb == NO_TRANS else k
        if own and count > 1:
            blocks = [(ctypes.c_float * (count * size))() for size in (m * k, k * n, m * n)]
            for blk in blocks:  # every page written: no shared zero page behind it
                ctypes.memset(blk, 0, ctypes.sizeof(blk))
                blk[0] = 0.01
            bufs.extend(blocks)
            a0, b0, c0 = (ctypes.addressof(x) for x in blocks)
            calls.extend((ROW_MAJOR, ta, tb, m, n, k, 1.0, a0 + 4 * e * m * k, lda,
                          b0 + 4 * e * k * n, ldb, 0.0, c0 + 4 * e * m * n, n)
                         for e in range(count))
        else:
            calls.extend([(ROW_MAJOR, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, n)] * count)

    memset = ctypes.memset
    clears = [(args[12], 4 * args[3] * args[4]) if threads == 1 or args[3] * args[4] <= 1 << 18
              else None for args in calls]
    calls = [args[:11] + ((1.0 if z else 0.0),) + args[12:] for args, z in zip(calls, clears)]

    def run(pairs):
        for args, z in pairs:
            if z:
                memset(z[0], 0, z[1])
            sgemm(*args)

    pairs = list(zip(calls, clears))
    # One call of each distinct product (transposes and m, n, k): OpenBLAS's
    # own buffers become resident (a first pass without this read 15%
    # slower at 124M B4 T64, its time in the kernel) for a fraction of a pass.
    distinct = list({args[1:6]: (args, z) for args, z in pairs}.values())

    def step():
        run(pairs)

    step.buffers = bufs  # kept as long as the step
    step.first_use = lambda: run(distinct)
    return step


def main():
    mode = sys.argv[1]
    L, H, C, V, B, T, threads, steps = map(int, sys.argv[2:10])
    own = "--own-blocks" in sys.argv[10:]
    prods = products(mode, L, H, C, V, B, T)
    if "--engine" in sys.argv[10:]:
        floor = engine_step(prods, threads)
        if "--alternate" in sys.argv[10:]:
            alternate(floor, blas_step(prods, threads, own), steps, prods, mode,
                      L, H, C, V, B, T, warm="--brief" not in sys.argv[10:])
        else:
            report(floor, steps, prods)
        return
    report(blas_step(prods, threads, own), steps, prods)


def alternate(floor, blas, steps, prods, mode, L, H, C, V, B, T, warm=True):
    """The GPT step, its products made by the engine and the same products
    made by OpenBLAS, in turn (see --alternate); the OpenBLAS floor's
    untimed pass only when [warm] (see --brief)."""
    import statistics
    import time

    import gpt_scale  # beside this file
    gpt = gpt_scale.make_step(mode, L, H, C, V, B, T)
    # Untimed: the step and the engine floor twice each, in turn. nndb's
    # pool settles over the first passes of the two together: at 124M B4
    # T64 the step's second pass, after the floor's first, made 445 more
    # requests to the system and read 1.65 s, 0.29 s of it in the kernel,
    # and the floor's second pass 8% over its third; from there on neither
    # spends time in the kernel.
    for _ in range(2):
        gpt()
        floor()
    if warm:
        blas()
    else:
        blas.first_use()
    times = {"gpt": ([], []), "floor": ([], []), "blas": ([], [])}
    for _ in range(steps):
        for name, fn in (("gpt", gpt), ("floor", floor), ("blas", blas)):
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            times[name][1].append(time.process_time() - c0)
            times[name][0].append(time.perf_counter() - w0)
    med = {k: [statistics.median(v) * 1e3 for v in pair] for k, pair in times.items()}
    print("step_ms", f"{med['floor'][0]:.6g}")
    print("cpu_ms", f"{med['floor'][1]:.6g}")
    print("gpt_step_ms", f"{med['gpt'][0]:.6g}")
    print("gpt_cpu_ms", f"{med['gpt'][1]:.6g}")
    print("blas_step_ms", f"{med['blas'][0]:.6g}")
    print("blas_cpu_ms", f"{med['blas'][1]:.6g}")
    print("gflop", f"{sum(cnt * 2 * m * n * k for cnt, m, n, k, _, _ in prods) / 1e9:.6g}")


def report(step, steps, prods):
    step()
    t0 = thread_ticks()
    wall, cpu = step_medians(step, steps)
    t1 = thread_ticks()
    busy = [t1[k] - t0.get(k, 0) for k in t1]
    print("step_ms", f"{wall * 1e3:.6g}")
    print("cpu_ms", f"{cpu * 1e3:.6g}")
    print("threads_used", f"{sum(busy) / max(max(busy), 1):.3g}")
    print("gflop", f"{sum(cnt * 2 * m * n * k for cnt, m, n, k, _, _ in prods) / 1e9:.6g}")


if __name__ == "__main__":
    main()

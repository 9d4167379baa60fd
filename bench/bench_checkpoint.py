"""Recomputation (torch.utils.checkpoint) on a GPT training step, in nndb.

    bench/bench_checkpoint.py [--full] [--only SUBSTRING]   print BENCH lines
    build/nndb python bench/bench_checkpoint.py run L H C T B V STEPS   one measurement

The model is bench_gpt.py's nanoGPT (pre-norm blocks, causal attention
written out, 4x GELU MLP, tied head), trained with AdamW on a fixed batch,
written in Python over nndb's torch. One process runs the plain step and
the step with every block under checkpoint() alternately, on one thread;
each step's CPU time (time.process_time) and the engine allocator's peak
above what was allocated before the step (torch._C._mem_stats) are
recorded, and the medians are compared:
    BENCH checkpoint_time_<label>_1t nndb=<checkpointed ms> plain=<ms> ratio target=<=1.4
    BENCH checkpoint_peak_<label>_1t nndb=<checkpointed MiB> plain=<MiB> ratio target=<1
CPU time of the one process, interleaved, so other jobs on the machine
slow both sides alike. The losses of the two steps are checked equal.
"""
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))

# (label, (layers, heads, embd, T, batch, vocab), steps of each kind)
GPTS = [("gpt_L4_H4_C128_T128_b8_V256", (4, 4, 128, 128, 8, 256), 8)]
TIME_TARGET = 1.4
PEAK_TARGET = 1.0


def measure(L, H, C, T, B, V, steps):
    import torch
    from torch import _C
    from torch.utils.checkpoint import checkpoint

    sys.path.insert(0, HERE)
    from bench_gpt import nanogpt

    torch.set_num_threads(1)
    torch.manual_seed(0)

    model = nanogpt(L, H, C, T, V, checkpoint)
    opt = torch.optim.AdamW(model.parameters(), lr=0.0, weight_decay=0.0)  # lr 0: same step
    x = torch.randint(0, V, (B, T))
    y = torch.randint(0, V, (B, T))

    # PyTorch (the reference run of the same file) has no allocator figures
    mem = getattr(_C, "_mem_stats", None)

    def step(recompute):
        model.recompute = recompute
        opt.zero_grad(set_to_none=True)
        base = mem()["in_use"] if mem else 0
        if mem:
            _C._mem_reset_peak()
        t0 = time.process_time()
        loss = model(x, y)
        loss.backward()
        opt.step()
        value = loss.item()
        dt = time.process_time() - t0
        return dt, (mem()["peak"] - base) if mem else 0, value

    for r in (False, True, False, True):  # warm-up
        step(r)
    res = {False: [], True: []}
    losses = {}
    for _ in range(steps):
        for r in (False, True):
            dt, peak, value = step(r)
            res[r].append((dt, peak))
            losses[r] = value
    plain = [statistics.median(v[k] for v in res[False]) for k in (0, 1)]
    ckpt = [statistics.median(v[k] for v in res[True]) for k in (0, 1)]
    print(f"RESULT plain_ms={plain[0] * 1e3:.6g} ckpt_ms={ckpt[0] * 1e3:.6g} "
          f"plain_peak={plain[1]} ckpt_peak={ckpt[1]} same_loss={losses[False] == losses[True]}")


def result(cmd, env):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    line = next(l for l in p.stdout.splitlines() if l.startswith("RESULT "))
    return dict(kv.split("=", 1) for kv in line.split()[1:])


def main(argv):
    if len(argv) >= 2 and argv[1] == "run":
        measure(*map(int, argv[2:9]))
        return 0
    sys.path.insert(0, HERE)
    import compare

    quick = "--full" not in argv  # make bench's default
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    rc = 0
    for label, dims, steps in GPTS:
        name = f"checkpoint_time_{label}_1t"
        if only not in name and only not in f"checkpoint_peak_{label}_1t":
            continue
        n = max(3, steps // 3) if quick else steps
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                   MKL_NUM_THREADS="1")
        args = [os.path.abspath(__file__), "run"] + [str(d) for d in dims] + [str(n)]
        try:
            res = result([NNDB, "python"] + args, env)
            ref = result([compare.PY] + args, env)
        except (OSError, subprocess.TimeoutExpired, StopIteration) as e:
            print(f"BENCH {name} nndb=n/a plain=n/a ratio=n/a target=<={TIME_TARGET} ({e})")
            rc = 1
            continue
        if res["same_loss"] != "True":
            print(f"# {label}: the checkpointed loss differs from the plain one")
            rc = 1
        compare.emit(name, float(res["ckpt_ms"]), "plain", float(res["plain_ms"]), "ms",
                     f"<={TIME_TARGET}")
        print(f"# {label}: PyTorch 1.13's own checkpoint() on this step, same file: "
              f"{float(ref['ckpt_ms']):.4g} ms over {float(ref['plain_ms']):.4g} ms plain, "
              f"ratio {float(ref['ckpt_ms']) / float(ref['plain_ms']):.3f}")
        mib = 1024 * 1024
        compare.emit(f"checkpoint_peak_{label}_1t", float(res["ckpt_peak"]) / mib, "plain",
                     float(res["plain_peak"]) / mib, "MiB", f"<{PEAK_TARGET}")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""GPT at the sizes learners train (issue 27): the GPT-2 124M shape and a 64M
GPT, one learner-style file (bench/python/gpt_scale.py) run unchanged under
`nndb python` and /usr/bin/python3 (PyTorch 1.13), next to the step's GEMM
floor (bench/python/gemm_floor.py: exactly the step's matrix products as
cblas_sgemm calls of the same OpenBLAS). The three run interleaved, one
process each, at 1 and then 2 threads; values are medians over steps.

    bench/bench_gpt_scale.py [--full] [--quick] [--cpu] [--only SUBSTRING] [--own-blocks]

By default (make bench, about 5 minutes on this 2-core machine) every
shape runs at one thread against PyTorch and the floors, and the 124M B4
T64 training step and the B1 T128 forward at two threads too, with few
timed steps (1 for the training steps, 2 for the forward): PyTorch's
process and nndb's gemm_floor.py --alternate --brief (whose step gives
the first line where no other nndb process runs), and for the B4 T64 and
forward shapes at one thread nndb's step alone for its peak memory. A
PyTorch step at B4 T256 takes 14 s at one thread here, its untimed first
step 23 s. --full runs every line: more steps, both thread counts for
every shape, nndb's step in a process of its own, the separate floor
process and every peak (about 20 minutes); --quick keeps only the B4 T64
and forward shapes.

PyTorch at 2 threads runs with OMP_WAIT_POLICY=PASSIVE: by default its
OpenMP threads spin while waiting, which on 2 cores makes it slower than
at 1 thread. --own-blocks makes the floor give each of attention's batched products its
own operand and output blocks (gemm_floor.py --own-blocks) instead of one
reused, cache-hot buffer set; the _floor lines then say "floor_own=".
--cpu compares CPU time of each process (all its threads)
instead of wall time: on a loaded machine that is the fair measure at one
thread. Lines (BENCH format of bench/compare.py):

    BENCH gpt124m_train_B4_T64_1t nndb=.. torch=.. ratio=nndb/torch target=..
    BENCH gpt124m_train_B4_T64_1t_floor nndb=.. floor=.. ratio=nndb/floor target=..  (separate processes: ..)
    BENCH gpt124m_train_B4_T64_1t_engine_floor nndb=.. engine_floor=.. ratio=nndb/engine_floor target=..
    BENCH peak_rss_gpt124m_train_B4_T64 nndb=..MiB torch=..MiB ratio=.. target=<=0.8

The _floor and _engine_floor lines come from one more process
(gemm_floor.py --engine --alternate under `nndb python`) that times the
step, its products made by nndb (torch.mm and torch.bmm, so nndb's own
512-bit tiles where the CPU has them) and the same products made by
OpenBLAS (ctypes, as the separate floor process) in turn: the machine's
speed drifts by a third between minutes, and alternating in one process
gives the three the same minutes. Their nndb= figure is that run's step,
not the first line's. _floor divides by OpenBLAS's products (the
separate processes' nndb/floor and torch/floor follow in brackets);
_engine_floor by nndb's own: the step's cost beyond its own products,
which _floor stops measuring once nndb's products beat the library's.
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  the shared BENCH format

NNDB = os.environ.get("NNDB", os.path.join(compare.ROOT, "build", "nndb"))
GPT = os.path.join(HERE, "python", "gpt_scale.py")
FLOOR = os.path.join(HERE, "python", "gemm_floor.py")

# (name, mode, (L, H, C, V, B, T), steps under --full, steps by default,
#  in --quick, target vs torch at 1t / 2t, floor target 1t / 2t)
CONFIGS = [
    ("gpt124m_train_B4_T64", "train", (12, 12, 768, 50257, 4, 64), 3, 1, True,
     (0.75, 0.65), (1.06, 1.15)),
    ("gpt124m_train_B4_T256", "train", (12, 12, 768, 50257, 4, 256), 2, 1, False,
     (0.80, 0.65), (1.06, 1.15)),
    ("gpt124m_forward_B1_T128", "forward", (12, 12, 768, 50257, 1, 128), 4, 2, True,
     (0.80, 0.65), (1.06, 1.15)),
    ("gpt64m_train_B8_T128", "train", (12, 8, 512, 50257, 8, 128), 2, 1, False,
     (0.80, 0.65), (1.06, 1.15)),
]
# The shapes a default run measures in full: against PyTorch and the
# floors at both thread counts, with their peak memory (at one thread).
# The other two get PyTorch and the floors at one thread only: PyTorch's
# B4 T256 step takes 14 s here and its untimed first step 23 s, so each of
# their PyTorch processes costs the run most of a minute.
BRIEF_FULL = ("gpt124m_train_B4_T64", "gpt124m_forward_B1_T128")
# Steps before the peak is read (gpt_scale.py's NNDB_BENCH_RSS_STEPS):
# nndb's peak levels off at the fourth step, PyTorch's at the third (at
# B4 T64 its second step's peak is 0.4% below: the short run stops there).
RSS_STEPS = {"nndb": "5", "torch": "3", "torch_brief": "2"}


def values(cmd, threads, passive=False, rss_steps="0"):
    env = dict(os.environ, NNDB_BENCH_RSS_STEPS=rss_steps)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    if passive:
        env["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env,
                             timeout=900).stdout
    except (OSError, subprocess.SubprocessError) as e:
        err = getattr(e, "stderr", "") or ""
        print(f"# {' '.join(cmd)} failed: {e} {err[-400:]}", file=sys.stderr, flush=True)
        return {}
    return {k: float(v) for k, v in (line.split() for line in out.splitlines() if line.strip())}


def run_config(mode, dims, steps, threads, full_run, own, rss):
    """The processes of one line set: {"ours", "theirs", "floor",
    "engine"} of "NAME VALUE" dicts; "ours" and "floor" only under --full
    or, for "ours", where the peak is read ([rss])."""
    args = [mode] + [str(d) for d in dims] + [str(threads), str(steps)]
    got = {"ours": {}, "floor": {}}
    if full_run or rss:
        got["ours"] = values([NNDB, "python", GPT] + args, threads,
                             rss_steps=RSS_STEPS["nndb"] if rss else "0")
    got["theirs"] = values(["/usr/bin/python3", GPT] + args, threads, passive=threads > 1,
                           rss_steps=(RSS_STEPS["torch" if full_run else "torch_brief"]
                                      if rss else "0"))
    if full_run:
        got["floor"] = values(["/usr/bin/python3", FLOOR] + args + own, threads)
    got["engine"] = values([NNDB, "python", FLOOR] + args + own + ["--engine", "--alternate"] +
                           ([] if full_run else ["--brief"]), threads)
    return got


def main(argv):
    full_run = "--full" in argv
    quick = "--quick" in argv
    key = "cpu_ms" if "--cpu" in argv else "step_ms"
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    own = ["--own-blocks"] if "--own-blocks" in argv else []
    print(f"# GPT at scale: {'CPU' if key == 'cpu_ms' else 'wall'} time per step, medians; "
          "PyTorch at 2 threads with OMP_WAIT_POLICY=PASSIVE; floor = the step's sgemm calls "
          "alone (same OpenBLAS)"
          + ("" if full_run else "; few steps (--full for more)"), flush=True)
    for threads in (1, 2):
        for name, mode, dims, full_steps, steps, in_quick, targets, floor_targets in CONFIGS:
            full = f"{name}_{threads}t"
            if (quick and not in_quick) or only not in full:
                continue
            if not full_run and threads > 1 and name not in BRIEF_FULL:
                print(f"# {full}: under --full only", flush=True)
                continue
            rss = threads == 1 and (full_run or name in BRIEF_FULL)
            t0 = time.monotonic()
            got = run_config(mode, dims, full_steps if full_run else steps, threads,
                             full_run, own, rss)
            ours, theirs, floor, engine = got["ours"], got["theirs"], got["floor"], got["engine"]
            if ours and ours.get("loss") != theirs.get("loss"):
                print(f"# {full}: first losses differ: nndb {ours.get('loss')} "
                      f"torch {theirs.get('loss')}", flush=True)
            # nndb's step: its own process where one ran, else the step
            # timed in turn with the floors (gemm_floor.py --alternate)
            g, b = engine.get("gpt_" + key), engine.get("blas_" + key)
            o = ours.get(key) if ours else g
            t, f = theirs.get(key), floor.get(key)
            compare.emit(full, o and o / 1e3, "torch", t and t / 1e3, "s",
                         f"<={targets[threads - 1]}")
            # The step over OpenBLAS's products, both timed in turn in one
            # process (the machine's speed drifts between processes); under
            # --full the separate processes' ratios follow in brackets.
            if o and t and f:
                extra = (f"  (separate processes: nndb/floor={o / f:.3f} torch/floor={t / f:.3f}; "
                         f"{floor['gflop']:.4g} GFLOP, floor threads_used="
                         f"{floor.get('threads_used', 0):.2f})")
            elif t and b:
                extra = f"  (torch/floor={t / b:.3f}, PyTorch in its own process; " \
                        f"{engine.get('gflop', 0):.4g} GFLOP)"
            else:
                extra = ""
            line_floor = f"{full}_floor"
            if g and b:
                print(f"BENCH {line_floor} nndb={g / 1e3:.4g}s "
                      f"floor{'_own' if own else ''}={b / 1e3:.4g}s "
                      f"ratio={g / b:.3f} target=<={floor_targets[threads - 1]}{extra}", flush=True)
            else:
                compare.emit(line_floor, g, "floor", b, "ms", f"<={floor_targets[threads - 1]}")
            # the step over the same products made by nndb, same process
            e = engine.get(key)
            compare.emit(f"{full}_engine_floor", g and g / 1e3, "engine_floor", e and e / 1e3, "s",
                         f"<={floor_targets[threads - 1]}")
            if rss:
                compare.emit(f"peak_rss_{name}", ours.get("rss_mib"), "torch",
                             theirs.get("rss_mib"), "MiB", "<=0.8")
            print(f"# {full}: {time.monotonic() - t0:.0f} s", flush=True)
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""GPT at the sizes learners train (issue 27): the GPT-2 124M shape and a 64M
GPT, one learner-style file (bench/python/gpt_scale.py) run unchanged under
`nndb python` and /usr/bin/python3 (PyTorch 1.13), next to the step's GEMM
floor (bench/python/gemm_floor.py: exactly the step's matrix products as
cblas_sgemm calls of the same OpenBLAS). The three run interleaved, one
process each, at 1 and then 2 threads; values are medians over steps.

    bench/bench_gpt_scale.py [--quick] [--shapes] [--cpu] [--only SUBSTRING] [--own-blocks]

--quick runs the 124M train B4 T64 and forward B1 T128 lines with 2 timed
steps each (about 4 minutes on 2 cores); --shapes adds the 124M train B4
T256 and 64M B8 T128 shapes to --quick, still at 2 steps (about 10 more
minutes); without either, every shape at its full step count (make bench).

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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  the shared BENCH format

NNDB = os.environ.get("NNDB", os.path.join(compare.ROOT, "build", "nndb"))
GPT = os.path.join(HERE, "python", "gpt_scale.py")
FLOOR = os.path.join(HERE, "python", "gemm_floor.py")

# (name, mode, (L, H, C, V, B, T), steps, quick, target vs torch at 1t / 2t, floor target 1t / 2t)
CONFIGS = [
    ("gpt124m_train_B4_T64", "train", (12, 12, 768, 50257, 4, 64), 3, True, (0.75, 0.65), (1.06, 1.15)),
    ("gpt124m_train_B4_T256", "train", (12, 12, 768, 50257, 4, 256), 2, False, (0.80, 0.65), (1.06, 1.15)),
    ("gpt124m_forward_B1_T128", "forward", (12, 12, 768, 50257, 1, 128), 4, True, (0.80, 0.65), (1.06, 1.15)),
    ("gpt64m_train_B8_T128", "train", (12, 8, 512, 50257, 8, 128), 2, False, (0.80, 0.65), (1.06, 1.15)),
]


def values(cmd, threads, passive=False):
    env = dict(os.environ)
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


def main(argv):
    shapes = "--shapes" in argv
    quick = "--quick" in argv or shapes
    key = "cpu_ms" if "--cpu" in argv else "step_ms"
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    own = ["--own-blocks"] if "--own-blocks" in argv else []
    print(f"# GPT at scale: {'CPU' if key == 'cpu_ms' else 'wall'} time per step, medians; "
          "PyTorch at 2 threads with OMP_WAIT_POLICY=PASSIVE; floor = the step's sgemm calls "
          "alone (same OpenBLAS)", flush=True)
    for threads in (1, 2):
        for name, mode, dims, steps, in_quick, targets, floor_targets in CONFIGS:
            full = f"{name}_{threads}t"
            if (quick and not in_quick and not shapes) or only not in full:
                continue
            n = str(2 if quick else steps)
            args = [mode] + [str(d) for d in dims] + [str(threads), n]
            ours = values([NNDB, "python", GPT] + args, threads)
            theirs = values(["/usr/bin/python3", GPT] + args, threads, passive=threads > 1)
            floor = values(["/usr/bin/python3", FLOOR] + args + own, threads)
            engine = values([NNDB, "python", FLOOR] + args + own + ["--engine", "--alternate"],
                            threads)
            if ours.get("loss") != theirs.get("loss"):
                print(f"# {full}: first losses differ: nndb {ours.get('loss')} "
                      f"torch {theirs.get('loss')}", flush=True)
            o, t, f = ours.get(key), theirs.get(key), floor.get(key)
            compare.emit(full, o and o / 1e3, "torch", t and t / 1e3, "s",
                         f"<={targets[threads - 1]}")
            # The step over OpenBLAS's products, both timed in turn in one
            # process (the machine's speed drifts between processes); the
            # separate processes' ratios follow in brackets.
            g, b = engine.get("gpt_" + key), engine.get("blas_" + key)
            extra = (f"  (separate processes: nndb/floor={o / f:.3f} torch/floor={t / f:.3f}; "
                     f"{floor['gflop']:.4g} GFLOP, floor threads_used="
                     f"{floor.get('threads_used', 0):.2f})" if o and t and f else "")
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
            if threads == 1:
                compare.emit(f"peak_rss_{name}", ours.get("rss_mib"), "torch",
                             theirs.get("rss_mib"), "MiB", "<=0.8")
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

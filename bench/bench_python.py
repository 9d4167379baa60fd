"""nndb on embedded CPython (issue 19), in the BENCH line format of
compare.py:

- start-up: `nndb python` of an empty script against `/usr/bin/python3 -c
  pass` (target <= 1.5), and `import torch` under each (nndb's torch against
  Debian's PyTorch);
- the 2-64-64-3 MLP training step written as course code writes it
  (bench/python/mlp.py: nn.Module, F.cross_entropy, Adam), nndb against
  PyTorch (target <= 0.10, issue 27);
- the per-call cost of tensor methods and operators from Python
  (bench/python/calls.py, the same file under both), nndb against PyTorch;
  the binding's own share is the `dim` and `shape` lines (no engine work).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
PY3 = "/usr/bin/python3"
QUICK = "--full" not in sys.argv  # make bench's default; --full: more repetitions


def wall(cmd, reps, env):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def calls(cmd, env):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines() if line.strip())}


def main():
    reps = 5 if QUICK else 21
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    empty = os.path.join(ROOT, "bench", "python", "empty.py")
    n = wall([NNDB, "python", empty], reps, env)
    p = wall([PY3, "-c", "pass"], reps, env)
    compare.emit("python_startup_empty", n * 1e3, "python3", p * 1e3, "ms", "<=1.5")
    n = wall([NNDB, "python", "-c", "import torch"], reps, env)
    p = wall([PY3, "-c", "import torch"], max(3, reps // 4), env)
    compare.emit("python_import_torch", n * 1e3, "pytorch", p * 1e3, "ms", "<=0.5")
    script = os.path.join(ROOT, "bench", "python", "calls.py")
    mine = calls([NNDB, "python", script], env)
    ref = calls([PY3, script], env)
    for k in mine:
        compare.emit(f"python_call_{k}", mine[k], "pytorch", ref.get(k), "ns", "<=1.0")
    script = os.path.join(ROOT, "bench", "python", "mlp.py")
    steps, pairs = ("100", 3) if QUICK else ("200", 7)
    # The machine's speed drifts by up to 2x over minutes (PyTorch's step
    # read 264-640 us across runs), so the two sides run in alternation
    # and the ratio is the median of the pairs' ratios: each pair shares
    # its minute.
    mine, ref = [], []
    for _ in range(pairs):
        mine.append(calls([NNDB, "python", script, steps], env).get("step_us"))
        ref.append(calls([PY3, script, steps], env).get("step_us"))
    ratios = sorted(m / r for m, r in zip(mine, ref) if m and r)
    if ratios:
        print(f"# python_mlp_step: {len(ratios)} alternating pairs, ratios "
              f"{ratios[0]:.3f}-{ratios[-1]:.3f}", flush=True)
    compare.emit("python_mlp_step", statistics.median(mine) if all(mine) else None, "pytorch",
                 statistics.median(ref) if all(ref) else None, "us", "<=0.10",
                 ratio=statistics.median(ratios) if ratios else None)
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main())

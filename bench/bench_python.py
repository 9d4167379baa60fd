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
QUICK = "--quick" in sys.argv


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
    steps = "100" if QUICK else "400"
    mine = calls([NNDB, "python", script, steps], env)
    ref = calls([PY3, script, steps], env)
    compare.emit("python_mlp_step", mine.get("step_us"), "pytorch", ref.get("step_us"), "us",
                 "<=0.10")
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main())

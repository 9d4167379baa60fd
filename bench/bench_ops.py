"""Kernels against PyTorch, op by op, in the BENCH line format of
compare.py, each at 1 and 2 threads:

- index and reduction kernels (issue 20, bench/python/ops.py):
  scatter_add and index_add of 10^6 float32 values into 1000 slots (target
  <= 1.0), gather of 10^6, and the reduction family (prod along rows and
  columns, median and quantile along rows of a 1000x1000 matrix);
- the ops learners' code calls most (issue 27, bench/python/common_ops.py,
  lines ops_common_*): elementwise maths, comparisons, reductions along
  rows and columns, softmax and its kin, copies of views, indexing,
  sorting, pooling, mostly on a [512, 4096] float32 tensor (target <= 1.0:
  no slower than PyTorch).

Both sides run each script in alternating rounds; each keeps its best.

    bench/bench_ops.py [--full]
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
PY3 = "/usr/bin/python3"
QUICK = "--full" not in sys.argv  # make bench's default; --full: more repetitions
TARGETS = {"scatter_add_1e6": "<=1.0", "index_add_1e6": "<=1.0"}


def times(cmd, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
               NNDB_BENCH_ROUND_MS="20" if QUICK else "50")  # common_ops.py's rounds
    out = subprocess.run(cmd + [str(threads)], capture_output=True, text=True, check=True,
                         env=env).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines() if line.strip())}


def main():
    scripts = (("ops_", "ops.py"), ("ops_common_", "common_ops.py"))
    for threads in (1, 2):
        for prefix, name in scripts:
            script = os.path.join(ROOT, "bench", "python", name)
            mine, ref = {}, {}
            for _ in range(1 if QUICK else 2):
                for side, cmd in ((mine, [NNDB, "python", script]), (ref, [PY3, script])):
                    for k, v in times(cmd, threads).items():
                        side[k] = min(v, side.get(k, v))
            common = prefix == "ops_common_"
            slower = []
            for k in mine:
                compare.emit(f"{prefix}{k}_t{threads}", mine[k], "pytorch", ref.get(k), "us",
                             "<=1.0" if common else TARGETS.get(k, "report"))
                if common and ref.get(k) and mine[k] > ref[k]:
                    slower.append(f"{k} {mine[k] / ref[k]:.2f}")
            if common:
                print(f"# common ops at {threads} thread{'s' if threads > 1 else ''}: "
                      f"{len(mine) - len(slower)} of {len(mine)} no slower than PyTorch"
                      + (f"; slower: {', '.join(slower)}" if slower else ""), flush=True)
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main())

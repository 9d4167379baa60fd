"""Index and reduction kernels against PyTorch (issue 20), in the BENCH line
format of compare.py: scatter_add and index_add of 10^6 float32 values into
1000 slots (target <= 1.0), gather of 10^6, and the reduction family (prod
along rows and columns, median and quantile along rows of a 1000x1000
matrix), each at 1 and 2 threads.  Both sides run bench/python/ops.py, in
alternating rounds; each keeps its best.

    bench/bench_ops.py [--quick]
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
PY3 = "/usr/bin/python3"
QUICK = "--quick" in sys.argv
TARGETS = {"scatter_add_1e6": "<=1.0", "index_add_1e6": "<=1.0"}


def times(cmd, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    out = subprocess.run(cmd + [str(threads)], capture_output=True, text=True, check=True,
                         env=env).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines() if line.strip())}


def main():
    script = os.path.join(ROOT, "bench", "python", "ops.py")
    for threads in (1, 2):
        mine, ref = {}, {}
        for _ in range(1 if QUICK else 2):
            for side, cmd in ((mine, [NNDB, "python", script]), (ref, [PY3, script])):
                for k, v in times(cmd, threads).items():
                    side[k] = min(v, side.get(k, v))
        for k in mine:
            compare.emit(f"ops_{k}_t{threads}", mine[k], "pytorch", ref.get(k), "us",
                         TARGETS.get(k, "report"))
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main())

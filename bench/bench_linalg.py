"""Linear algebra against PyTorch, in the BENCH line format of compare.py:
linalg.solve and linalg.cholesky at 512 (LAPACK on both sides: nndb calls
the OpenBLAS that PyTorch links; target <= 1.1) and bmm at a GPT attention
shape (B*H=48, T=256, hs=64; target <= 1.0), at 1 and 2 threads. The same
script (bench/python/linalg.py) runs under `nndb python` and
/usr/bin/python3, alternating, each keeping its cheapest call in CPU time
(see bench/python/linalg.py for why not wall time).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
QUICK = "--full" not in sys.argv  # make bench's default; --full: more repetitions
TARGETS = {"solve_512": 1.1, "cholesky_512": 1.1, "bmm_qk_48x256x64": 1.0,
           "bmm_av_48x256x64": 1.0}


def main():
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    script = os.path.join(ROOT, "bench", "python", "linalg.py")
    return compare.script_lines(script, TARGETS, 5 if QUICK else 30, only, NNDB)


if __name__ == "__main__":
    sys.exit(main())

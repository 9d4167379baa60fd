"""Linear algebra against PyTorch, in the BENCH line format of compare.py:
linalg.solve and linalg.cholesky at 512 (LAPACK on both sides: nndb calls
the OpenBLAS that PyTorch links; target <= 1.1) and bmm at a GPT attention
shape (B*H=48, T=256, hs=64; target <= 1.0), at 1 and 2 threads. The same
script (bench/python/linalg.py) runs under `nndb python` and
/usr/bin/python3, alternating, each keeping its cheapest call in CPU time
(see bench/python/linalg.py for why not wall time).
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
TARGETS = {"solve_512": 1.1, "cholesky_512": 1.1, "bmm_qk_48x256x64": 1.0,
           "bmm_av_48x256x64": 1.0}


def run(cmd, threads):
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env,
                             timeout=600).stdout
    except (OSError, subprocess.SubprocessError) as e:
        print(f"# {' '.join(cmd)} failed: {e}", file=sys.stderr)
        return {}
    return {k: float(v) for k, v in (line.split() for line in out.splitlines() if line.strip())}


def main():
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    reps = "5" if QUICK else "30"
    script = os.path.join(ROOT, "bench", "python", "linalg.py")
    for threads in (1, 2):
        best = [{}, {}]
        for _ in range(compare.ROUNDS):
            for k, cmd in enumerate(([NNDB, "python", script], [PY3, script])):
                for name, v in run(cmd + [str(threads), reps], threads).items():
                    best[k][name] = min(v, best[k].get(name, v))
        for name, target in TARGETS.items():
            full = f"{name}_{threads}t"
            if only in full:
                compare.emit(full, best[0].get(name), "torch", best[1].get(name), "ms",
                             f"<={target}")
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main())

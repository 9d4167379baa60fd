"""CNN workloads against PyTorch, in the BENCH line format of compare.py, at
1 and 2 threads: a LeNet-5 training step on 28x28, batch 64 (target <=
0.9); a ResNet basic block (64 channels, 32x32, batch 32) forward+backward
(<= 1.0); a depthwise-separable block (depthwise 3x3 + BN + ReLU +
pointwise 64->128 + BN + ReLU, same input) forward+backward (<= 1.0);
max_pool2d 2x2 on [32, 64, 32, 32] forward (<= 1.0) and forward+backward.
The same script (bench/python/conv.py) runs under `nndb python` and
/usr/bin/python3, alternating; each figure is the least CPU time of the
repetitions (see bench/python/conv.py and docs/benchmarks.md).
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
TARGETS = {"lenet_step_b64": 0.9, "resnet_block_64c_32x32_b32": 1.0,
           "dwsep_block_64c_32x32_b32": 1.0, "max_pool2d_32x64x32x32": 1.0,
           "max_pool2d_fwd_bwd_32x64x32x32": 1.0}


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
    reps = "5" if QUICK else "15"
    script = os.path.join(ROOT, "bench", "python", "conv.py")
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

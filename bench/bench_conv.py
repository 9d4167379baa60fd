"""CNN workloads against PyTorch, in the BENCH line format of compare.py, at
1 and 2 threads: a LeNet-5 training step on 28x28, batch 64 (target <=
0.9); a ResNet basic block (64 channels, 32x32, batch 32) forward+backward
(<= 1.0); a depthwise-separable block (depthwise 3x3 + BN + ReLU +
pointwise 64->128 + BN + ReLU, same input) forward+backward (<= 1.0);
max_pool2d 2x2 on [32, 64, 32, 32] forward (<= 1.0) and forward+backward;
the LeNet step's peak resident memory above the model's (<= 0.5; see
lenet_peak_mb in bench/python/conv.py).
The same script (bench/python/conv.py) runs under `nndb python` and
/usr/bin/python3, alternating; each figure is the least CPU time of the
repetitions (see bench/python/conv.py and docs/benchmarks.md).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
QUICK = "--quick" in sys.argv
TARGETS = {"lenet_step_b64": 0.9, "resnet_block_64c_32x32_b32": 1.0,
           "dwsep_block_64c_32x32_b32": 1.0, "max_pool2d_32x64x32x32": 1.0,
           "max_pool2d_fwd_bwd_32x64x32x32": 1.0, "lenet_step_peak_mb": 0.5}


def main():
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    script = os.path.join(ROOT, "bench", "python", "conv.py")
    return compare.script_lines(script, TARGETS, 5 if QUICK else 15, only, NNDB,
                                {"lenet_step_peak_mb": "MB"})


if __name__ == "__main__":
    sys.exit(main())

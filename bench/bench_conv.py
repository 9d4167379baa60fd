"""CNN workloads against PyTorch, in the BENCH line format of compare.py, at
1 and 2 threads: a LeNet-5 training step on 28x28, batch 64 (target <=
0.9); a ResNet basic block (64 channels, 32x32, batch 32) forward+backward
(<= 1.0); a depthwise-separable block (depthwise 3x3 + BN + ReLU +
pointwise 64->128 + BN + ReLU, same input) forward+backward (<= 1.0);
max_pool2d 2x2 on [32, 64, 32, 32] forward (<= 1.0) and forward+backward;
the LeNet step's peak resident memory above the model's (<= 0.5; see
lenet_peak_mb in bench/python/conv.py).
The same script (bench/python/conv.py) runs under `nndb python` and
/usr/bin/python3, alternating; each figure is the least of the
repetitions: CPU time at 1 thread; at 2 threads wall time (the speed a user
sees), with a "# ..._2t cpu" line after each giving the CPU time of both
threads (the work done, spinning included), which has no target (see
bench/python/conv.py and docs/benchmarks.md "CNNs").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
QUICK = "--full" not in sys.argv  # make bench's default; --full: more repetitions
TARGETS = {"lenet_step_b64": 0.9, "resnet_block_64c_32x32_b32": 1.0,
           "dwsep_block_64c_32x32_b32": 1.0, "max_pool2d_32x64x32x32": 1.0,
           "max_pool2d_fwd_bwd_32x64x32x32": 1.0, "lenet_step_peak_mb": 0.5}


def main():
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    script = os.path.join(ROOT, "bench", "python", "conv.py")
    reps = 5 if QUICK else 15
    for threads in (1, 2):
        best = [{}, {}]
        for _ in range(compare.ROUNDS):
            for k, cmd in enumerate(([NNDB, "python", script], ["/usr/bin/python3", script])):
                got = compare.name_values(cmd + [str(threads), str(reps)], threads)
                for name, v in got.items():
                    best[k][name] = min(v, best[k].get(name, v))
        for name, target in TARGETS.items():
            full = f"{name}_{threads}t"
            if only not in full:
                continue
            unit = "MB" if name == "lenet_step_peak_mb" else "ms"
            compare.emit(full, best[0].get(name), "torch", best[1].get(name), unit,
                         f"<={target}")
            a, b = best[0].get(name + ":cpu"), best[1].get(name + ":cpu")
            if a is not None and b is not None:
                print(f"# {full} cpu (both threads): nndb={compare.fmt(a)}ms "
                      f"torch={compare.fmt(b)}ms ratio={a / b:.3f}", flush=True)
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main())

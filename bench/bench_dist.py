#!/usr/bin/python3
"""Distributed benchmarks on Open MPI (mpirun --oversubscribe), BENCH lines in
bench/compare.py's format:

  dist_allreduce_64MiB_2r   nndb's all_reduce of 64 MiB float32 on 2 ranks
                            (build/bench/bench_dist) against a plain C
                            MPI_Allreduce of the same buffer
                            (bench/dist/mpi_allreduce.c, built here with
                            mpicc); target ratio of times <= 1.1.
  dist_ddp_gpt_<gpt>_2r     a DDP training step of the benchmarks' GPTs
                            on 2 ranks (1 thread each, half the batch each)
                            against 1 rank on the whole batch; the ratio is
                            the time ratio, and scaling efficiency =
                            t(1 rank) / (2 * t(2 ranks)) is printed with it.
  dist_ddp_bytes_<gpt>_2r   payload all-reduced per step against the
                            parameter bytes (ratio 1: every gradient once).
                            A ring all-reduce moves 2(N-1)/N times that per
                            rank, printed beside it.
  dist_fsdp_step_2r         an FSDP (FULL_SHARD, one unit per block) AdamW step
                            of a 4-block MLP (Ψ = 2.1M) on 2 ranks against DDP
                            on the same model (bench/dist/fsdp_step.py: CPU
                            time per step of rank 0's process, interleaved
                            rounds); target ratio <= 1.3. Beside it,
                            SHARD_GRAD_OP and ZeRO-1, and the bytes each rank
                            holds between steps next to the ZeRO paper's
                            formulas in float32 terms (16Ψ, 8Ψ + 8Ψ/N,
                            4Ψ + 12Ψ/N, 16Ψ/N).

    bench/bench_dist.py [--full] [--only SUBSTRING]
Without mpirun/mpicc it says so and exits 0.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (the shared BENCH format)

# bench_gpt.py's two GPTs (L H C T B V); the small one fits in one bucket,
# the larger one has several, so its all-reduces start during backward.
GPTS = [("L2_H4_C64_T64_b4_V256", (2, 4, 64, 64, 4, 256)),
        ("L4_H4_C128_T128_b8_V256", (4, 4, 128, 128, 8, 256))]
ROUNDS = 3 if "--full" in sys.argv else 2  # alternating rounds of mpirun


def mpirun(n):
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(n)]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    return cmd


def result(cmd):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return {k: float(v) for k, v in (kv.split("=", 1) for kv in line.split()[1:])}
    print(f"# {' '.join(cmd)} failed: {(p.stderr or p.stdout)[-400:]}", file=sys.stderr)
    return None


def best(cmds):
    """Alternate the commands ROUNDS times; keep each one's best (smallest) ms."""
    out = [None] * len(cmds)
    for _ in range(ROUNDS):
        for i, c in enumerate(cmds):
            r = result(c)
            if r and (out[i] is None or r["ms"] < out[i]["ms"]):
                out[i] = r
    return out


def main(argv):
    if not shutil.which("mpirun") or not shutil.which("mpicc"):
        print("# bench_dist: mpirun/mpicc not found (apt-get install openmpi-bin libopenmpi-dev)")
        return 0
    quick = "--full" not in argv  # make bench's default
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    anchor = os.path.join(compare.BIN, "mpi_allreduce")
    subprocess.run(["mpicc", "-O2", "-o", anchor, os.path.join(HERE, "dist", "mpi_allreduce.c")],
                   check=True)
    ours = os.path.join(compare.BIN, "bench_dist")
    iters = "5" if quick else "15"
    if "dist_allreduce" in "dist_allreduce_64MiB_2r" and only in "dist_allreduce_64MiB_2r":
        a, b = best([mpirun(2) + [ours, "allreduce", "64", iters],
                     mpirun(2) + [anchor, "64", iters]])
        compare.emit("dist_allreduce_64MiB_2r", a and a["ms"], "mpi_c", b and b["ms"], "ms",
                     "<=1.1")
    for label, dims in GPTS:
        name = f"dist_ddp_gpt_{label}_2r"
        if only not in name and only not in f"dist_ddp_bytes_{label}_2r":
            continue
        steps = "10" if quick else "40"
        args = [str(d) for d in dims] + [steps]
        two, one = best([mpirun(2) + [ours, "ddp"] + args, mpirun(1) + [ours, "ddp"] + args])
        compare.emit(name, two and two["ms"], "one_rank", one and one["ms"], "ms", "report")
        if two and one:
            print(f"# {name}: scaling efficiency t1/(2*t2) = {one['ms'] / (2 * two['ms']):.2f}; "
                  f"{int(two['buckets'])} bucket(s), {int(two['early'])} started during "
                  f"backward", flush=True)
            compare.emit(f"dist_ddp_bytes_{label}_2r", two["bytes_per_step"], "param_bytes",
                         two["param_bytes"], "B", "==1")
            print(f"# dist_ddp_bytes_{label}_2r: a ring all-reduce sends 2(N-1)/N x = "
                  f"{two['param_bytes']:.0f} B per rank per step at N=2", flush=True)
    if only in "dist_fsdp_step_2r":
        fsdp_lines(quick)
    return 1 if compare.failures else 0


def fsdp_lines(quick):
    nndb = os.path.join(os.path.dirname(compare.BIN), "nndb")
    cmd = mpirun(2) + [nndb, "python", os.path.join(HERE, "dist", "fsdp_step.py"),
                       "3" if quick else "8"]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    res = {}
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            kv = dict(x.split("=", 1) for x in line.split()[1:])
            mode = kv.pop("mode")
            res[mode] = {k: float(v) for k, v in kv.items()}
    if "ddp" not in res:
        print(f"# {' '.join(cmd)} failed: {(p.stderr or p.stdout)[-400:]}", file=sys.stderr)
    ddp = res.get("ddp", {}).get("ms")
    compare.emit("dist_fsdp_step_2r", res.get("full_shard", {}).get("ms"), "ddp", ddp, "ms",
                 "<=1.3")
    compare.emit("dist_fsdp_grad_op_step_2r", res.get("shard_grad_op", {}).get("ms"), "ddp", ddp,
                 "ms", "report")
    compare.emit("dist_zero1_step_2r", res.get("zero1", {}).get("ms"), "ddp", ddp, "ms", "report")
    if "ddp" in res:
        print("# wall time per step: " + ", ".join(f"{m} {r['wall_ms']:.1f} ms"
                                                 for m, r in res.items()), flush=True)
        psi, n = res["ddp"]["params"], res["ddp"]["world"]
        formula = {"ddp": 16, "zero1": 8 + 8 / n, "shard_grad_op": 16 / n, "full_shard": 16 / n}
        for mode, r in res.items():
            print(f"# memory {mode}: held between steps {r['held'] / psi:.1f} bytes/param "
                  f"(formula {formula[mode]:.1f}), peak in a step {r['peak'] / psi:.1f} "
                  f"bytes/param", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

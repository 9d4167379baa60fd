"""Run every nndb benchmark next to its anchor and print one line each:

    BENCH <name> nndb=<value><unit> <anchor>=<value><unit> ratio=<nndb/anchor> target=<t>

Both sides run in the same invocation, one process each, on the same thread
count (1, then 2). Values are medians over many repetitions. Targets carry
their comparison; nothing here passes or fails on time. The exit status is
non-zero only when a program could not run. See docs/benchmarks.md.

    bench/compare.py [--full] [--only SUBSTRING]
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.environ.get("NNDB_BENCH_BIN", os.path.join(ROOT, "build", "bench"))
PY = sys.executable

# (label, sizes (in, hidden, out), batch, target of the time ratio, nndb steps, torch steps)
MLPS = [
    ("2-64-64-3_b64", (2, 64, 3), 64, 0.15, 2000, 500),
    ("784-256-256-10_b128", (784, 256, 10), 128, 0.8, 150, 100),
    ("784-1024-1024-10_b256", (784, 1024, 10), 256, 1.0, 25, 25),
]
MATMULS = [(512, 40), (2048, 5)]
MATMUL_TARGET = 1.1  # ratio of times; in GFLOP/s that is nndb/numpy >= 1/1.1
RSS_TARGET = 0.5
# randn / rand of 10^7 float32 values from the default generator vs torch's
# (both PyTorch's Mersenne Twister, one thread): (kind, n, reps, target).
RANDOMS = [("randn", 10**7, 15, 1.5), ("rand", 10**7, 15, 1.5)]
# Each side runs ROUNDS times, alternating with the other, and keeps its best
# median: other jobs on a small machine slow a run down, never speed it up.
# Once in make bench's short run, twice under --full (every program that
# imports this module reads the same argument).
ROUNDS = 2 if "--full" in sys.argv else 1

failures = 0
core_reported = False


def run(cmd, threads):
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return dict(kv.split("=", 1) for kv in line.split()[1:]), None
    return None, (p.stderr.strip() or p.stdout.strip() or f"exit {p.returncode}")[-400:]


def name_values(cmd, threads):
    """Run a script that prints "NAME VALUE" lines (bench/python/*.py) with
    [threads] BLAS/OpenMP threads: {NAME: VALUE}, or {} when it failed."""
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


def script_lines(script, targets, reps, only="", nndb=None, units=None):
    """The same bench/python script under `nndb python` and /usr/bin/python3,
    alternating ROUNDS times at 1 and 2 threads, each side keeping its least
    value per name; one BENCH line per target name ("NAME_1t", "NAME_2t"),
    in milliseconds unless [units] names another unit for it."""
    nndb = nndb or os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
    for threads in (1, 2):
        best = [{}, {}]
        for _ in range(ROUNDS):
            for k, cmd in enumerate(([nndb, "python", script], ["/usr/bin/python3", script])):
                for name, v in name_values(cmd + [str(threads), str(reps)], threads).items():
                    best[k][name] = min(v, best[k].get(name, v))
        for name, target in targets.items():
            full = f"{name}_{threads}t"
            if only in full:
                emit(full, best[0].get(name), "torch", best[1].get(name),
                     (units or {}).get(name, "ms"), f"<={target}")
    return 1 if failures else 0


def fmt(v):
    return f"{v:.4g}"


def emit(name, nndb, anchor_name, anchor, unit, target, ratio=None):
    """One BENCH line; [ratio] when the caller measured it otherwise than
    nndb / anchor (e.g. the median of alternating pairs' ratios)."""
    global failures
    if nndb is None or anchor is None:
        failures += 1
        a = "n/a" if nndb is None else fmt(nndb) + unit
        b = "n/a" if anchor is None else fmt(anchor) + unit
        print(f"BENCH {name} nndb={a} {anchor_name}={b} ratio=n/a target={target}", flush=True)
        return
    if ratio is None:
        ratio = nndb / anchor
    print(f"BENCH {name} nndb={fmt(nndb)}{unit} {anchor_name}={fmt(anchor)}{unit} "
          f"ratio={ratio:.3f} target={target}", flush=True)


def side(cmd, threads, what, key):
    global core_reported
    res, err = run(cmd, threads)
    if res is None:
        print(f"# {what} failed: {err}", file=sys.stderr, flush=True)
        return None, None
    if "core" in res and not core_reported:
        core_reported = True
        forced = os.environ.get("OPENBLAS_CORETYPE")
        how = f"forced by OPENBLAS_CORETYPE={forced}" if forced else "detected"
        print(f"# OpenBLAS kernels: {res['core']} ({how}); NumPy and PyTorch load the same "
              "library with the same environment", flush=True)
    return float(res[key]), res


def pair(ours_cmd, theirs_cmd, threads, name, anchor, key):
    """Best median of each side over ROUNDS alternating runs, and the last
    results (for the peak-memory fields)."""
    best = [None, None]
    last = [None, None]
    for _ in range(ROUNDS):
        for k, (cmd, who) in enumerate(((ours_cmd, "nndb"), (theirs_cmd, anchor))):
            v, res = side(cmd, threads, f"{name} ({who})", key)
            if v is None:
                continue
            best[k] = v if best[k] is None else (max if key == "gflops" else min)(best[k], v)
            if res is not None:
                prev = last[k]
                if prev is not None:
                    res["maxrss_kib"] = str(max(float(res.get("maxrss_kib", 0)),
                                                float(prev.get("maxrss_kib", 0))))
                last[k] = res
    return best, last


def main(argv):
    quick = "--full" not in argv  # make bench's default: a fifth of the repetitions
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    scale = 0.2 if quick else 1.0
    print(f"# nndb benchmarks on {os.cpu_count()} CPUs; medians; ratio = nndb/anchor",
          flush=True)
    for kind, n, reps, target in RANDOMS:
        name = f"{kind}_1e7_f32"
        if only not in name:
            continue
        reps = max(3, int(reps * scale))
        (ours, theirs), _ = pair(
            [os.path.join(BIN, "bench_random"), kind, str(n), str(reps)],
            [PY, os.path.join(HERE, "anchors.py"), "random", kind, str(n), str(reps)],
            1, name, "torch", "ms")
        emit(name, ours, "torch", theirs, "ms", f"<={target}")
    for threads in (1, 2):
        for n, reps in MATMULS:
            name = f"matmul_{n}_{threads}t"
            if only not in name:
                continue
            reps = max(3, int(reps * scale))
            (ours, theirs), _ = pair(
                [os.path.join(BIN, "bench_matmul"), str(n), str(threads), str(reps)],
                [PY, os.path.join(HERE, "anchors.py"), "matmul", str(n), str(threads), str(reps)],
                threads, name, "numpy", "gflops")
            emit(name, ours, "numpy", theirs, "GFLOP/s", f">={1 / MATMUL_TARGET:.3f}")
        for label, (i, h, o), batch, target, n_ours, n_theirs in MLPS:
            name = f"train_mlp_{label}_{threads}t"
            if only not in name and only not in "peak_rss_" + label:
                continue
            args = [str(i), str(h), str(o), str(batch), str(threads)]
            (ours, theirs), (ours_res, theirs_res) = pair(
                [os.path.join(BIN, "bench_mlp")] + args + [str(max(5, int(n_ours * scale)))],
                [PY, os.path.join(HERE, "anchors.py"), "mlp"] + args +
                [str(max(5, int(n_theirs * scale)))], threads, name, "torch", "ms")
            emit(name, ours, "torch", theirs, "ms", f"<={target}")
            if label == MLPS[-1][0]:
                rss = [None if r is None else float(r["maxrss_kib"]) / 1024
                       for r in (ours_res, theirs_res)]
                emit(f"peak_rss_{label}_{threads}t", rss[0], "torch", rss[1], "MiB",
                     f"<={RSS_TARGET}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""What the NaN hunt costs on a training step: nndb with anomaly mode on
over nndb with it off, and PyTorch's detect_anomaly on over off, all
measured in this run on the same programs (bench/bench_gpt.c and
bench_mlp.c with NNDB_BENCH_ANOMALY=1; bench/bench_gpt.py and anchors.py
with torch.autograd.set_detect_anomaly(True)), and at the GPT-2 124M shape
the one Python file of bench/bench_gpt_scale.py under both, which with
NNDB_BENCH_ANOMALY=rounds times a step with detection on, one under
torch.profiler and one plain in turn in one process (CPU time per step; a
PyTorch step there takes seconds). That shape also gives the profiler's
cost (the small GPT's is bench_instruments.c's line).

    BENCH anomaly_overhead_<model>_1t nndb=<on/off> torch=<on/off> target=<=T
    BENCH profile_overhead_gpt124m_train_B4_T64_1t nndb=<profiled/off> torch=<profiled/off> target=<=1.15

    bench/bench_anomaly.py [--full] [--only SUBSTRING]

By default (make bench) the small models run three alternating rounds
and the 124M shape one round of three steps; --full runs three rounds of
three at 124M.
"""
import os
import sys
import typing

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (run, BIN, PY: the shared runner)

ROUNDS = 3

GPT = ["2", "4", "64", "64", "4", "256", "1"]
NNDB = os.environ.get("NNDB", os.path.join(compare.ROOT, "build", "nndb"))
SCALE = os.path.join(HERE, "python", "gpt_scale.py")
G124 = ["train", "12", "12", "768", "50257", "4", "64", "1"]
MLP = ["2", "64", "3", "64", "1"]


class Case(typing.NamedTuple):
    name: str
    ours: list  # the nndb command, steps appended
    theirs: list  # the PyTorch command, steps appended
    n_ours: int  # steps
    n_theirs: int
    target: float
    # how the program reports a step: "result", a RESULT line with ms=
    # (bench_gpt.c, bench_mlp.c, bench_gpt.py, anchors.py), or "rounds",
    # gpt_scale.py's cpu_ms_on, cpu_ms_profiled and cpu_ms_off from one
    # process each side
    reads: str = "result"


CASES = [
    Case("gpt_L2_H4_C64_T64_b4_V256_1t", [os.path.join(compare.BIN, "bench_gpt")] + GPT,
         [compare.PY, os.path.join(HERE, "bench_gpt.py"), "torch"] + GPT, 60, 30, 1.10),
    Case("mlp_2-64-64-3_b64_1t", [os.path.join(compare.BIN, "bench_mlp")] + MLP,
         [compare.PY, os.path.join(HERE, "anchors.py"), "mlp"] + MLP, 1500, 400, 1.25),
    # the GPT-2 124M shape of bench/bench_gpt_scale.py, the same Python file
    # under `nndb python` and PyTorch; rounds of steps, CPU milliseconds per step
    Case("gpt124m_train_B4_T64_1t", [NNDB, "python", SCALE] + G124, [compare.PY, SCALE] + G124,
         3, 3, 1.10, reads="rounds"),
]
# the profiler's line from the same rounds
PROFILE_TARGET = 1.15


def with_mode(mode, fn):
    """fn() with NNDB_BENCH_ANOMALY=[mode] in the environment the programs
    inherit."""
    old = os.environ.get("NNDB_BENCH_ANOMALY")
    os.environ["NNDB_BENCH_ANOMALY"] = mode
    try:
        return fn()
    finally:
        if old is None:
            os.environ.pop("NNDB_BENCH_ANOMALY", None)
        else:
            os.environ["NNDB_BENCH_ANOMALY"] = old


def timed(cmd, anomaly):
    """One run of [cmd] (a RESULT program) with the hunt on or off: its
    milliseconds per step, or None."""
    res, err = with_mode("1" if anomaly else "0", lambda: compare.run(cmd, 1))
    if res is None:
        print(f"# {' '.join(cmd[:2])} failed: {err}", file=sys.stderr, flush=True)
        return None
    return float(res["ms"])


def rounds(cmd):
    """One run of gpt_scale.py [cmd] in its "rounds" mode: {"off", "on",
    "profiled"}, CPU milliseconds per step, or {} (name_values reports a
    failure)."""
    got = with_mode("rounds", lambda: compare.name_values(cmd, 1))
    return {k: got["cpu_ms_" + k] for k in ("off", "on", "profiled") if "cpu_ms_" + k in got}


def measure(case, ours, theirs, n_rounds):
    """{"n0", "n1", "t0", "t1"} (and "np", "tp" for reads "rounds"): the
    best (lowest) median of nndb and PyTorch with the hunt off (0) and on
    (1), and profiled (p), over alternating rounds."""
    best = {}

    def keep(key, v):
        if v is not None:
            best[key] = min(best.get(key, v), v)

    for _ in range(n_rounds):
        if case.reads == "rounds":
            for side, cmd in (("n", ours), ("t", theirs)):
                got = rounds(cmd)
                for suffix, kind in (("0", "off"), ("1", "on"), ("p", "profiled")):
                    keep(side + suffix, got.get(kind))
            continue
        for key, cmd, on in (("n0", ours, False), ("n1", ours, True),
                             ("t0", theirs, False), ("t1", theirs, True)):
            keep(key, timed(cmd, on))
    return best


def main(argv):
    full_run = "--full" in argv
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    rc = 0
    for case in CASES:
        full = f"anomaly_overhead_{case.name}"
        profile = f"profile_overhead_{case.name}" if case.reads == "rounds" else None
        if only not in full and not (profile and only in profile):
            continue
        n_ours, n_theirs, target = case.n_ours, case.n_theirs, case.target
        if case.reads == "rounds" and not full_run:
            n_ours = n_theirs = 1  # a PyTorch step at 124M takes seconds
        ours = case.ours + [str(n_ours)]
        theirs = case.theirs + [str(n_theirs)]
        # three rounds for the small models, whose steps take milliseconds
        # (one round read 0.87-1.34 for the GPT); one for 124M's in the short run
        best = measure(case, ours, theirs, 1 if case.reads == "rounds" and not full_run else ROUNDS)
        if len(best) < 4:
            print(f"BENCH {full} nndb=n/a torch=n/a target=<={target:.2f}", flush=True)
            rc = 1
            continue
        nn_r = best["n1"] / best["n0"]
        th_r = best["t1"] / best["t0"]
        print(f"BENCH {full} nndb={nn_r:.3f} torch={th_r:.3f} target=<={target:.2f} "
              f"(ms per step: nndb {best['n0']:.4g} off, {best['n1']:.4g} on; "
              f"torch {best['t0']:.4g} off, {best['t1']:.4g} on)", flush=True)
        if profile:
            if "np" in best and "tp" in best:
                print(f"BENCH {profile} nndb={best['np'] / best['n0']:.3f} "
                      f"torch={best['tp'] / best['t0']:.3f} target=<={PROFILE_TARGET:.2f} "
                      f"(ms per step under torch.profiler: nndb {best['np']:.4g}, "
                      f"torch {best['tp']:.4g})", flush=True)
            else:
                print(f"BENCH {profile} nndb=n/a torch=n/a target=<={PROFILE_TARGET:.2f}",
                      flush=True)
                rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))

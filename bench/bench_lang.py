"""Language benchmarks (issue 4), in the BENCH line format of compare.py:

- start-up: `nndb run` of an empty script against `/usr/bin/python3 -c pass`
  (target <= 0.3);
- a scalar loop of 10^6 iterations against the same loop in /usr/bin/python3
  (target <= 1.5);
- 10^6 calls of a method of a user class (bench/lang/method_loop.py, the
  same file under both) against /usr/bin/python3 (target <= 1.5);
- the MLP training steps of the engine benchmarks written in the language,
  as a Sequential (mlp.nn) and as a torch.nn.Module subclass
  (mlp_module.nn), against the same model written in C against the engine
  API (target within 1.2 of the C figure).

Times are medians of several runs. The training step is taken as the
difference between runs of 2N and N steps, so start-up cancels out.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
PY3 = "/usr/bin/python3"
QUICK = "--quick" in sys.argv


def wall(cmd, reps, env=None):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    reps = 5 if QUICK else 25
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.nn")
        open(empty, "w").close()
        n = wall([NNDB, "run", empty], reps, env)
        p = wall([PY3, "-c", "pass"], reps, env)
        compare.emit("startup_run_empty", n * 1e3, "python3", p * 1e3, "ms", "<=0.3")

        loop = os.path.join(ROOT, "bench", "lang", "loop.nn")
        r = 3 if QUICK else 7
        n = wall([NNDB, "run", loop], r, env)
        p = wall([PY3, os.path.join(ROOT, "bench", "lang", "loop.py")], r, env)
        compare.emit("scalar_loop_1e6", n * 1e3, "python3", p * 1e3, "ms", "<=1.5")

        meth = os.path.join(ROOT, "bench", "lang", "method_loop.py")
        n = wall([NNDB, "run", meth], r, env)
        p = wall([PY3, meth], r, env)
        compare.emit("method_call_loop_1e6", n * 1e3, "python3", p * 1e3, "ms", "<=1.5")

        for variant, fname in (("", "mlp.nn"), ("module_", "mlp_module.nn")):
            bench_mlps(tmp, env, variant, open(os.path.join(ROOT, "bench", "lang", fname)).read())
    return 1 if compare.failures else 0


def bench_mlps(tmp, env, variant, src):
    """The MLP training step of [src] against bench_mlp.c, for two sizes."""
    for label, (i, h, o), batch, _t, steps, _ts in compare.MLPS[:2]:
        steps = max(steps // (10 if QUICK else 2), 20)
        scripts = []
        for k in (steps, 2 * steps):
            path = os.path.join(tmp, f"mlp_{variant}{label}_{k}.nn")
            with open(path, "w") as f:
                f.write(f"IN = {i}\nHIDDEN = {h}\nOUT = {o}\nBATCH = {batch}\nSTEPS = {k}\n")
                f.write(src)
            scripts.append(path)
        t1 = wall([NNDB, "run", scripts[0]], 3, env)
        t2 = wall([NNDB, "run", scripts[1]], 3, env)
        lang_ms = max(t2 - t1, 1e-9) / steps * 1e3
        res, err = compare.run([os.path.join(compare.BIN, "bench_mlp"), str(i), str(h),
                                str(o), str(batch), "1", str(steps)], 1)
        c_ms = float(res["ms"]) if res else None
        if err:
            print(f"# bench_mlp failed: {err}", file=sys.stderr)
        compare.emit(f"lang_train_mlp_{variant}{label}_1t", lang_ms, "c_api", c_ms, "ms",
                     "<=1.2")


if __name__ == "__main__":
    sys.exit(main())

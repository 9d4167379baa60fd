"""tqdm in a notebook: a 1e5-step loop whose body is one addition, bare and
wrapped in tqdm(), timed inside the cell (best of 7) in the nndb kernel and
in Debian's ipykernel, in the BENCH line format of bench/compare.py:

    BENCH tqdm_loop_1e5     the loop under tqdm, nndb vs ipykernel (target <= 1.05)
    BENCH tqdm_overhead_1e5 what tqdm adds to the bare loop, per step

    bench/bench_tqdm.py

Both kernels start from kernelspecs in a temporary prefix, as
bench/bench_kernel.py does; the bar goes to the cell's stderr (the
notebook's output) as a learner's would.
"""
import json
import os
import shutil
import sys
import tempfile

from jupyter_client.manager import KernelManager

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_kernel  # noqa: E402

CELL = r"""
import json, sys, time
from tqdm import tqdm
N = 100000
def _bare():
    x = 0
    for i in range(N):
        x += 1
def _bar():
    x = 0
    for i in tqdm(range(N)):
        x += 1
def _best(f, k=7):
    ts = []
    for _ in range(k):
        t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    return min(ts)
_bare(); _bar()
print("RESULT " + json.dumps({"bare": _best(_bare), "tqdm": _best(_bar)}))
"""


def measure(name):
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        out = []
        kc.execute_interactive(CELL, timeout=600, output_hook=lambda m: out.append(m))
        for m in out:
            if m["msg_type"] == "stream" and m["content"]["name"] == "stdout":
                for line in m["content"]["text"].splitlines():
                    if line.startswith("RESULT "):
                        return json.loads(line[7:])
        errs = [m["content"] for m in out if m["msg_type"] == "error"]
        raise RuntimeError(f"{name}: no result {errs}")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main():
    tmp = tempfile.mkdtemp(prefix="nndb-bench-tqdm-")
    try:
        bench_kernel.setup_env(tmp)
        r = {label: measure(name) for label, name in bench_kernel.SIDES}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    a, b = r["nndb"], r["ipykernel"]
    bench_kernel.emit_one("tqdm_loop_1e5", "ms", a["tqdm"] * 1e3, b["tqdm"] * 1e3, 1.05)
    oa = (a["tqdm"] - a["bare"]) / 1e5 * 1e6
    ob = (b["tqdm"] - b["bare"]) / 1e5 * 1e6
    print(f"BENCH tqdm_overhead_1e5 nndb={oa:.3g}us ipykernel={ob:.3g}us "
          f"ratio={oa / ob:.3f} target=<=1.05 (bare loop: nndb {a['bare'] * 1e3:.2f} ms, "
          f"ipykernel {b['bare'] * 1e3:.2f} ms)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Jupyter kernel benchmark: the nndb kernel next to Debian's ipykernel, the
same client code for both, in the same run, in the BENCH line format of
bench/compare.py:

    BENCH kernel_launch        launch to the first kernel_info_reply (median)
    BENCH kernel_execute_rtt   execute_request of `1+1` sent -> status idle received (median of 500)
    BENCH kernel_idle_rss      VmRSS of a kernel that has started and answered kernel_info
    BENCH kernel_exit          exit() executed -> the kernel process gone (median)

    bench/bench_kernel.py [--full] [--only SUBSTRING]

Both kernels start from kernelspecs in a temporary prefix (`nndb
install-kernel --prefix`; a copy of Debian's python3 spec), with HOME,
IPYTHONDIR and the Jupyter directories there too. The client is
jupyter_client's KernelManager for launching, its Session for sending on
plain pyzmq sockets, and a hand parser for what comes back (no signature
check, no date parsing), so the client's own cost is small and the same on
both sides. The client's ZeroMQ reconnect interval is 2 ms (libzmq's default
is 100 ms) so a kernel that binds its ports quickly is not rounded up to the
client's next retry. Launches alternate between the two kernels; the round
trips run on both kernels at once, alternating in blocks of 25.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import zmq
from jupyter_client.manager import KernelManager
from jupyter_client.session import Session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
# (label, kernelspec name)
SIDES = [("nndb", "nndb"), ("ipykernel", "python3")]
# The launch target is issue 19's for the kernel on embedded CPython (the
# kernel on nndb's own interpreter launched within 0.05).
TARGETS = {"kernel_launch": 0.1, "kernel_execute_rtt": 0.3, "kernel_idle_rss": 0.2,
           # exit() to the process gone: within 1 s (ipykernel takes about 0.36 s)
           "kernel_exit": 2.8}


def setup_env(tmp):
    prefix = os.path.join(tmp, "prefix")
    p = subprocess.run([NNDB, "install-kernel", "--prefix", prefix], capture_output=True,
                       text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"nndb install-kernel failed: {(p.stderr or p.stdout).strip()}")
    shutil.copytree("/usr/share/jupyter/kernels/python3",
                    os.path.join(prefix, "share", "jupyter", "kernels", "python3"))
    os.environ.update(
        HOME=os.path.join(tmp, "home"), IPYTHONDIR=os.path.join(tmp, "ipython"),
        JUPYTER_PATH=os.path.join(prefix, "share", "jupyter"),
        JUPYTER_CONFIG_DIR=os.path.join(tmp, "config"),
        JUPYTER_DATA_DIR=os.path.join(tmp, "data"),
        JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"),
        PYDEVD_DISABLE_FILE_VALIDATION="1")
    os.makedirs(os.environ["HOME"], exist_ok=True)


class Client:
    """Session over DEALER (shell) and SUB (iopub) sockets of one kernel."""

    def __init__(self, km, ctx):
        info = km.get_connection_info()
        key = info["key"] if isinstance(info["key"], bytes) else info["key"].encode()
        self.session = Session(key=key, signature_scheme=info["signature_scheme"])
        url = f"{info['transport']}://{info['ip']}:"
        self.shell = ctx.socket(zmq.DEALER)
        self.shell.connect(url + str(info["shell_port"]))
        self.iopub = ctx.socket(zmq.SUB)
        self.iopub.setsockopt(zmq.SUBSCRIBE, b"")
        self.iopub.connect(url + str(info["iopub_port"]))

    def recv(self, sock, timeout):
        """The next message as {msg_type, parent_header, content}. Parsed by
        hand: Session.deserialize (signature check, dates parsed with
        dateutil) costs about 0.2 ms a message, more than the nndb kernel
        spends on a whole `1+1`, and would measure the client."""
        if not sock.poll(int(timeout * 1000)):
            raise TimeoutError("no message")
        frames = sock.recv_multipart(copy=True)
        i = frames.index(b"<IDS|MSG>")
        header = json.loads(frames[i + 2])
        return {"msg_type": header["msg_type"], "header": header,
                "parent_header": json.loads(frames[i + 3]),
                "content": json.loads(frames[i + 5])}

    def kernel_info(self, timeout=60):
        mid = self.session.send(self.shell, "kernel_info_request", {})["header"]["msg_id"]
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(self.shell, deadline - time.monotonic())
            if msg["parent_header"].get("msg_id") == mid:
                return msg

    def execute_rtt(self, code, timeout=30):
        """Seconds from sending the request to receiving its idle."""
        content = dict(code=code, silent=False, store_history=True, user_expressions={},
                       allow_stdin=False, stop_on_error=True)
        t0 = time.perf_counter()
        mid = self.session.send(self.shell, "execute_request", content)["header"]["msg_id"]
        while True:
            msg = self.recv(self.iopub, timeout)
            if msg["parent_header"].get("msg_id") == mid and msg["msg_type"] == "status" \
                    and msg["content"]["execution_state"] == "idle":
                t1 = time.perf_counter()
                break
        # The reply is on shell; take it so the socket does not fill up.
        while self.recv(self.shell, timeout)["parent_header"].get("msg_id") != mid:
            pass
        return t1 - t0

    def wait_iopub_ready(self, timeout=30):
        """Send kernel_info until iopub delivers its busy (the SUB is joined)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.kernel_info()
            try:
                while True:
                    self.recv(self.iopub, 0.2)
                    return
            except TimeoutError:
                continue
        raise TimeoutError("iopub never delivered")

    def close(self):
        self.shell.close(0)
        self.iopub.close(0)


def start(name, ctx):
    """(km, client, seconds from launch to the first kernel_info_reply)."""
    t0 = time.perf_counter()
    km = KernelManager(kernel_name=name, context=ctx)
    km.start_kernel()
    c = Client(km, ctx)
    c.kernel_info()
    return km, c, time.perf_counter() - t0


def stop(km, c):
    c.close()
    km.shutdown_kernel(now=True)


def exit_seconds(name, ctx):
    """exit() sent -> the kernel process gone, with a client that sends no
    shutdown_request (as the notebook's)."""
    km, c, _ = start(name, ctx)
    c.wait_iopub_ready()
    c.execute_rtt("x = 1")
    t0 = time.perf_counter()
    c.execute_rtt("exit()")
    while km.is_alive() and time.perf_counter() - t0 < 20:
        time.sleep(0.002)
    dt = time.perf_counter() - t0
    stop(km, c)
    return dt


def rss_mib(km):
    prov = km.provisioner
    pid = getattr(prov, "pid", None) or prov.process.pid
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return None


def emit(name, unit, values):
    return emit_one(name, unit, values.get("nndb"), values.get("ipykernel"), TARGETS[name])


def emit_one(name, unit, a, b, target):
    target = f"<={target}"
    if a is None or b is None:
        fa = "n/a" if a is None else f"{a:.4g}{unit}"
        fb = "n/a" if b is None else f"{b:.4g}{unit}"
        print(f"BENCH {name} nndb={fa} ipykernel={fb} ratio=n/a target={target}", flush=True)
        return False
    print(f"BENCH {name} nndb={a:.4g}{unit} ipykernel={b:.4g}{unit} ratio={a / b:.3f} "
          f"target={target}", flush=True)
    return True


def main(argv):
    quick = "--full" not in argv  # make bench's default
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    wanted = [n for n in TARGETS if only is None or only in n]
    if not wanted:
        return 0
    launches = 3 if quick else 7
    rtts = 100 if quick else 500
    tmp = tempfile.mkdtemp(prefix="nndb-bench-kernel-")
    ok = True
    try:
        setup_env(tmp)
        ctx = zmq.Context()
        ctx.setsockopt(zmq.RECONNECT_IVL, 2)
        ctx.setsockopt(zmq.LINGER, 0)

        launch = {label: [] for label, _ in SIDES}
        rss, rtt = {}, {}
        for _ in range(launches):
            for label, name in SIDES:
                try:
                    km, c, dt = start(name, ctx)
                except Exception as e:
                    print(f"# {label} did not start: {e}", file=sys.stderr, flush=True)
                    continue
                launch[label].append(dt)
                stop(km, c)
        # Both kernels run at once; the round trips alternate in blocks so a
        # busy moment on the machine falls on both sides alike.
        running = {}
        for label, name in SIDES:
            try:
                running[label] = start(name, ctx)[:2]
            except Exception as e:
                print(f"# {label} did not start: {e}", file=sys.stderr, flush=True)
        try:
            time.sleep(1.0)  # idle: whatever starts lazily has started
            for label, (km, c) in running.items():
                rss[label] = rss_mib(km)
            if "kernel_execute_rtt" in wanted:
                times = {label: [] for label in running}
                for label, (km, c) in running.items():
                    c.wait_iopub_ready()
                    for _ in range(20):
                        c.execute_rtt("1+1")
                block = 25
                for _ in range(rtts // block):
                    for label, (km, c) in running.items():
                        times[label] += [c.execute_rtt("1+1") for _ in range(block)]
                for label, t in times.items():
                    rtt[label] = statistics.median(t) * 1000
                    q = statistics.quantiles(t, n=10)
                    print(f"# {label} execute 1+1 over {len(t)}: min {min(t) * 1e3:.3f} ms, "
                          f"median {rtt[label]:.3f} ms, p90 {q[-1] * 1e3:.3f} ms", flush=True)
        finally:
            for km, c in running.values():
                stop(km, c)
        for label, _ in SIDES:
            if launch[label]:
                print(f"# {label} launch over {len(launch[label])}: "
                      + " ".join(f"{t * 1000:.1f}" for t in launch[label]) + " ms", flush=True)
        if "kernel_exit" in wanted:
            exits = {label: [] for label, _ in SIDES}
            for _ in range(3 if quick else 5):
                for label, name in SIDES:
                    try:
                        exits[label].append(exit_seconds(name, ctx))
                    except Exception as e:
                        print(f"# {label} exit() run failed: {e}", file=sys.stderr, flush=True)
            ex = {k: statistics.median(v) * 1000 for k, v in exits.items() if v}
        med = {k: statistics.median(v) * 1000 for k, v in launch.items() if v}
        if "kernel_launch" in wanted:
            ok &= emit("kernel_launch", "ms", med)
        if "kernel_execute_rtt" in wanted:
            ok &= emit("kernel_execute_rtt", "ms", rtt)
        if "kernel_idle_rss" in wanted:
            ok &= emit("kernel_idle_rss", "MiB", rss)
        if "kernel_exit" in wanted:
            ok &= emit("kernel_exit", "ms", ex)
        ctx.term()
    except Exception as e:
        print(f"# kernel benchmark failed: {e}", file=sys.stderr, flush=True)
        ok = False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

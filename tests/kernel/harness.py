"""Client-side helpers for the kernel suite: start a kernel from a kernelspec,
run requests and collect everything the kernel said about each one, and talk
raw ZeroMQ for the tests that forge or break messages.

The suite runs against the nndb kernel (the default) or, to develop the
harness itself, against Debian's ipykernel: NNDB_TEST_KERNEL=python3. The two
must behave alike wherever the messaging spec (protocol 5.3) speaks.
"""
import hashlib
import hmac
import json
import os
import queue
import time
import uuid
from datetime import datetime, timezone

import zmq
from jupyter_client.manager import KernelManager

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
# The kernel binary the kernelspecs start: `NNDB install-kernel` (nndb execs
# nndb-kernel beside it) unless NNDB_KERNEL names another kernel binary
# (NNDB_KERNEL=build/nndb-kernel).
NNDB_KERNEL = os.environ.get("NNDB_KERNEL") or NNDB
KERNEL = os.environ.get("NNDB_TEST_KERNEL", "nndb")
IS_NNDB = KERNEL == "nndb"
# The same kernel with each interrupt_mode (installed by conftest.py).
KERNEL_SIGNAL_MODE = KERNEL + "-signal"
KERNEL_MESSAGE_MODE = KERNEL + "-message"

TIMEOUT = 20.0


class Kernel:
    """One running kernel and a blocking client on all its channels."""

    def __init__(self, name=KERNEL, **start_kw):
        self.name = name
        self.km = KernelManager(kernel_name=name)
        self.km.start_kernel(**start_kw)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)
        self.session = self.kc.session

    @property
    def pid(self):
        prov = self.km.provisioner
        return getattr(prov, "pid", None) or prov.process.pid

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None

    def close(self):
        try:
            self.kc.stop_channels()
        finally:
            if self.km.has_kernel:
                self.km.shutdown_kernel(now=False)

    # ---- requests ----
    def send(self, channel, msg_type, content=None, **msg_kw):
        """Send a request on 'shell' or 'control'; returns its msg_id."""
        msg = self.session.msg(msg_type, content or {}, **msg_kw)
        getattr(self.kc, channel + "_channel").send(msg)
        return msg["header"]["msg_id"]

    def reply(self, channel, msg_id, timeout=TIMEOUT):
        """The reply to [msg_id] on [channel]; other replies are dropped."""
        deadline = time.monotonic() + timeout
        get = getattr(self.kc, f"get_{channel}_msg")
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {channel} reply to {msg_id} in {timeout}s")
            try:
                msg = get(timeout=left)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg

    def iopub_until_idle(self, msg_id, timeout=TIMEOUT):
        """Every iopub message whose parent is [msg_id], from busy to idle
        inclusive, in order of arrival."""
        deadline = time.monotonic() + timeout
        out = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no idle for {msg_id} in {timeout}s; got "
                                   f"{[m['msg_type'] for m in out]}")
            try:
                msg = self.kc.get_iopub_msg(timeout=left)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            out.append(msg)
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return out

    def request(self, channel, msg_type, content=None, timeout=TIMEOUT):
        """Send, then wait for the reply and the idle: (reply, iopub list)."""
        mid = self.send(channel, msg_type, content)
        rep = self.reply(channel, mid, timeout)
        io = self.iopub_until_idle(mid, timeout)
        return rep, io

    def execute(self, code, timeout=TIMEOUT, stdin_answers=None, **kw):
        """Run [code]; (reply, iopub list). [stdin_answers]: lines to answer
        input_request with (allow_stdin is then true)."""
        content = dict(code=code, silent=False, store_history=True, user_expressions={},
                       allow_stdin=stdin_answers is not None, stop_on_error=True)
        content.update(kw)
        mid = self.send("shell", "execute_request", content)
        if stdin_answers is not None:
            self.stdin_requests = []
            for answer in stdin_answers:
                req = self.kc.get_stdin_msg(timeout=timeout)
                self.stdin_requests.append(req)
                self.kc.input(answer)
        rep = self.reply("shell", mid, timeout)
        io = self.iopub_until_idle(mid, timeout)
        return rep, io

    def drain_iopub(self, wait=0.05):
        while True:
            try:
                self.kc.get_iopub_msg(timeout=wait)
            except queue.Empty:
                return


def outputs(iopub, kind=None):
    """The iopub messages that are not status/execute_input (or only [kind])."""
    skip = ("status", "execute_input")
    return [m for m in iopub if (m["msg_type"] == kind if kind else m["msg_type"] not in skip)]


def ok(rep):
    """The reply's content, asserting the cell ran (the error shown if not)."""
    c = rep["content"]
    assert c["status"] == "ok", (c.get("ename"), c.get("evalue"), c.get("traceback"))
    return c


def stdout_of(iopub, name="stdout"):
    return "".join(m["content"]["text"] for m in iopub
                   if m["msg_type"] == "stream" and m["content"]["name"] == name)


def result_text(iopub):
    res = outputs(iopub, "execute_result")
    return res[-1]["content"]["data"]["text/plain"] if res else None


def msg_time(msg):
    d = msg["header"]["date"]
    if isinstance(d, str):
        d = datetime.fromisoformat(d.replace("Z", "+00:00"))
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    return d


# ---- raw wire messages (robustness tests) ----
DELIM = b"<IDS|MSG>"


def connection_info(kernel):
    return kernel.km.get_connection_info()


def sign_with(key, parts):
    """HMAC-SHA256 hex digest of the four JSON frames, as the kernel checks it."""
    h = hmac.new(key, digestmod=hashlib.sha256)
    for p in parts:
        h.update(p)
    return h.hexdigest().encode()


class RawSocket:
    """A DEALER on one of the kernel's ROUTER ports, sending hand-made frames."""

    def __init__(self, kernel, channel="shell"):
        info = connection_info(kernel)
        self.key = info["key"] if isinstance(info["key"], bytes) else info["key"].encode()
        self.ctx = zmq.Context.instance()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.setsockopt(zmq.IDENTITY, uuid.uuid4().hex.encode())
        self.sock.connect(f"{info['transport']}://{info['ip']}:{info[channel + '_port']}")

    def sign(self, parts):
        return sign_with(self.key, parts)

    @staticmethod
    def parts(msg_type, content, msg_id=None, session="raw-session"):
        header = {"msg_id": msg_id or uuid.uuid4().hex, "session": session,
                  "username": "test", "date": datetime.now(timezone.utc).isoformat(),
                  "msg_type": msg_type, "version": "5.3"}
        return header, [json.dumps(header).encode(), b"{}", b"{}", json.dumps(content).encode()]

    def send_frames(self, frames):
        self.sock.send_multipart(frames)

    def send_signed(self, msg_type, content, signature=None, msg_id=None):
        """Frames with a correct signature unless [signature] is given;
        returns (header, frames) so a test can replay them."""
        header, parts = self.parts(msg_type, content, msg_id)
        sig = self.sign(parts) if signature is None else signature
        frames = [DELIM, sig] + parts
        self.send_frames(frames)
        return header, frames

    def recv(self, timeout=1.0):
        """Frames of the next message, or None."""
        if self.sock.poll(int(timeout * 1000)):
            return self.sock.recv_multipart()
        return None

    def close(self):
        self.sock.close(0)


def heartbeat_rtt(kernel, timeout=1.0):
    """Seconds for one heartbeat echo, or None when none came in [timeout]."""
    info = connection_info(kernel)
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.REQ)
    s.setsockopt(zmq.LINGER, 0)
    s.connect(f"{info['transport']}://{info['ip']}:{info['hb_port']}")
    try:
        payload = uuid.uuid4().hex.encode()
        t0 = time.monotonic()
        s.send(payload)
        if not s.poll(int(timeout * 1000)):
            return None
        echo = s.recv()
        return time.monotonic() - t0 if echo == payload else None
    finally:
        s.close(0)

"""The Jupyter debug protocol (debug_request / debug_reply on control,
debug_event on iopub) as JupyterLab's visual debugger speaks it: the DAP
messages are sent here with jupyter_client. The line-breakpoint test runs
unchanged against Debian's ipykernel (debugpy): NNDB_TEST_KERNEL=python3."""
import queue
import time

import pytest

import harness

CELL = ("def f(a):\n"
        "    b = a * 2\n"
        "    return b + 1\n"
        "\n"
        "r = f(20)\n"
        "print('r', r)\n")


class Dap:
    def __init__(self, k):
        self.k = k
        self.seq = 0
        self.events = []

    def __call__(self, command, **arguments):
        self.seq += 1
        msg = {"type": "request", "seq": self.seq, "command": command, "arguments": arguments}
        mid = self.k.send("control", "debug_request", msg)
        rep = self.k.reply("control", mid)
        assert rep["msg_type"] == "debug_reply", rep
        c = rep["content"]
        assert c.get("command") == command and c.get("request_seq") == self.seq, c
        return c

    def event(self, name, timeout=30):
        """The next debug_event [name] on iopub (others are kept)."""
        for i, e in enumerate(self.events):
            if e["event"] == name:
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.k.kc.get_iopub_msg(timeout=0.2)
            except queue.Empty:
                continue
            if msg["msg_type"] != "debug_event":
                continue
            if msg["content"]["event"] == name:
                return msg["content"]
            self.events.append(msg["content"])
        raise TimeoutError(f"no {name} event in {timeout}s; saw {[e['event'] for e in self.events]}")

    def start(self):
        c = self("initialize", clientID="test", clientName="jupyter_client", adapterID="python",
                 pathFormat="path", linesStartAt1=True, columnsStartAt1=True,
                 supportsVariableType=True, supportsVariablePaging=True,
                 supportsRunInTerminalRequest=False, locale="en")
        assert c["success"], c
        assert self("attach")["success"]


def murmur_path(info, code):
    """The file JupyterLab names a cell by, computed as ipykernel does."""
    from ipykernel.compiler import murmur2_x86
    return f"{info['tmpFilePrefix']}{murmur2_x86(code, info['hashSeed'])}{info['tmpFileSuffix']}"


def test_kernel_info_says_debugger(fresh_kernel):
    if not harness.IS_NNDB:
        pytest.skip("this ipykernel says it in its kernelspec only")
    k = fresh_kernel()
    rep, _ = k.request("shell", "kernel_info_request")
    assert rep["content"]["debugger"] is True


def test_line_breakpoint_stack_variables_step(fresh_kernel):
    k = fresh_kernel()
    dap = Dap(k)
    dap.start()
    info = dap("debugInfo")["body"]
    assert info["isStarted"] and info["hashMethod"] == "Murmur2", info
    path = dap("dumpCell", code=CELL)["body"]["sourcePath"]
    assert path == murmur_path(info, CELL)  # the name JupyterLab computes for the cell
    bps = dap("setBreakpoints", source={"path": path}, breakpoints=[{"line": 2}],
              sourceModified=False)
    assert bps["success"] and bps["body"]["breakpoints"][0]["verified"], bps
    assert dap("configurationDone")["success"]
    info = dap("debugInfo")["body"]
    assert info["breakpoints"] == [{"source": path, "breakpoints": [{"line": 2}]}], info

    mid = k.send("shell", "execute_request", dict(code=CELL, silent=False, store_history=True,
                                                 user_expressions={}, allow_stdin=False))
    stopped = dap.event("stopped")
    tid = stopped["body"]["threadId"]
    frames = dap("stackTrace", threadId=tid)["body"]["stackFrames"]
    assert frames[0]["line"] == 2 and frames[0]["name"] == "f", frames
    assert frames[0]["source"]["path"] == path, frames[0]
    scopes = dap("scopes", frameId=frames[0]["id"])["body"]["scopes"]
    local = next(s for s in scopes if s["name"] == "Locals")
    vars_ = dap("variables", variablesReference=local["variablesReference"])["body"]["variables"]
    assert {v["name"]: v["value"] for v in vars_}.get("a") == "20", vars_
    ev = dap("evaluate", expression="a + 1", frameId=frames[0]["id"], context="repl")
    assert ev["success"] and ev["body"]["result"] == "21", ev

    assert dap("next", threadId=tid)["success"]
    dap.event("stopped")
    frames = dap("stackTrace", threadId=tid)["body"]["stackFrames"]
    assert frames[0]["line"] == 3, frames
    scopes = dap("scopes", frameId=frames[0]["id"])["body"]["scopes"]
    local = next(s for s in scopes if s["name"] == "Locals")
    vars_ = dap("variables", variablesReference=local["variablesReference"])["body"]["variables"]
    assert {v["name"]: v["value"] for v in vars_}.get("b") == "40", vars_

    assert dap("continue", threadId=tid)["success"]
    rep = k.reply("shell", mid)
    assert rep["content"]["status"] == "ok", rep["content"]
    io = k.iopub_until_idle(mid)
    assert "r 41" in harness.stdout_of(io)
    # no breakpoint left behind once the client clears them and goes
    dap("setBreakpoints", source={"path": path}, breakpoints=[], sourceModified=False)
    assert dap("disconnect", restart=False, terminateDebuggee=True)["success"]
    rep, io = k.execute(CELL)
    assert rep["content"]["status"] == "ok" and "r 41" in harness.stdout_of(io)


def test_op_stop_shows_the_op(fresh_kernel):
    """nndb's own: a %break on an op stops the cell for the visual
    debugger, the op's tensors as a scope of their own."""
    if not harness.IS_NNDB:
        pytest.skip("op breakpoints are nndb's")
    k = fresh_kernel()
    dap = Dap(k)
    dap.start()
    assert dap("configurationDone")["success"]
    rep, _ = k.execute("import torch\nx = torch.ones(2, 3)\n%break tanh")
    assert rep["content"]["status"] == "ok", rep["content"]
    mid = k.send("shell", "execute_request", dict(code="h = torch.tanh(x * 3)\nprint(h.sum().item() > 5)",
                                                 silent=False, store_history=True,
                                                 user_expressions={}, allow_stdin=False))
    stopped = dap.event("stopped")
    assert "forward tanh" in stopped["body"]["description"], stopped
    tid = stopped["body"]["threadId"]
    frames = dap("stackTrace", threadId=tid)["body"]["stackFrames"]
    assert "forward tanh" in frames[0]["name"] and frames[0]["line"] == 1, frames
    scopes = dap("scopes", frameId=frames[0]["id"])["body"]["scopes"]
    assert [s["name"] for s in scopes][:2] == ["Op", "Locals"], scopes
    op = dap("variables", variablesReference=scopes[0]["variablesReference"])["body"]["variables"]
    names = {v["name"]: v for v in op}
    assert "out" in names and "inputs" in names, names
    ev = dap("evaluate", expression="out.shape", frameId=frames[0]["id"], context="watch")
    assert ev["body"]["result"] == "torch.Size([2, 3])", ev
    assert dap("continue", threadId=tid)["success"]
    rep = k.reply("shell", mid)
    assert rep["content"]["status"] == "ok", rep["content"]
    assert "True" in harness.stdout_of(k.iopub_until_idle(mid))


def test_bad_requests_get_answers(fresh_kernel):
    if not harness.IS_NNDB:
        pytest.skip("ipykernel answers an unknown request with an empty message")
    k = fresh_kernel()
    dap = Dap(k)
    c = dap("frobnicate")
    assert c["success"] is False and c.get("message"), c
    dap.start()
    c = dap("stackTrace", threadId=1)  # not stopped: nothing to show, no crash
    assert c["success"] in (True, False)
    rep, io = k.execute("print(1 + 1)")
    assert "2" in harness.stdout_of(io)

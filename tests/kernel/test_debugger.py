"""The debugger through the Jupyter kernel: the (nndb) prompt as
input_requests on the stdin channel (answered here as a notebook would),
tracepoints when allow_stdin is false, the stop as an HTML table beside its
text, %graph as SVG, and a walkthrough in `jupyter console`."""
import os
import re

import pexpect
import pytest

import harness
from harness import outputs, stdout_of

SETUP = ("manual_seed(0)\n"
         "model = Sequential(Linear(4, 8), Tanh(), Linear(8, 8), Tanh(), Linear(8, 3))\n"
         "x = randn(16, 4); y = randint(0, 3, (16,))\n"
         "opt = SGD(model.parameters(), lr=0.1)\n")


def displays(io):
    return [m["content"]["data"] for m in io if m["msg_type"] == "display_data"]


def needs_nndb():
    if not harness.IS_NNDB:
        pytest.skip("the debugger is nndb's own")


def test_walkthrough_answers_input_requests(fresh_kernel):
    needs_nndb()
    k = fresh_kernel()
    rep, io = k.execute(SETUP + "clean = cross_entropy(model(x), y).item()\n%break model.2\n%break backward")
    assert rep["content"]["status"] == "ok", rep["content"]
    answers = ["s", "s", "w", "l", "watch out.mean()", "out[0, 0] = 100.0", "c",
               "print(grad.shape)", "print(inputs[0].mean())", "c", "c", "c", "c", "c", "c"]
    rep, io = k.execute("loss = cross_entropy(model(x), y)\nloss.backward()", stdin_answers=answers)
    assert rep["content"]["status"] == "ok", rep["content"]
    prompts = [r["content"]["prompt"] for r in k.stdin_requests]
    assert set(prompts) == {"(nndb) "}
    stops = [d for d in displays(io) if "stopped" in d.get("text/plain", "")]
    assert len(stops) == 1 + 2 + 6, [s["text/plain"].splitlines()[0] for s in stops]
    first = stops[0]
    assert "forward linear, op 3 of this statement, in model.2" in first["text/plain"]
    assert "<table" in first["text/html"] and "model.2.weight" in first["text/html"]
    text = stdout_of(io)
    assert "module stack:" in text and "model.4" in text
    assert "torch.Size([])" in text
    assert "watch 1: out.mean() = tensor(" in text
    rep, io = k.execute("%delete all\nprint(loss.item() > clean + 1)")
    assert stdout_of(io).strip() == "True"


def test_quit_aborts_and_keeps_variables(fresh_kernel):
    needs_nndb()
    k = fresh_kernel()
    k.execute(SETUP + "%break tanh")
    rep, io = k.execute("h = model(x)\nafter = 1", stdin_answers=["q"])
    c = rep["content"]
    assert c["status"] == "error" and c["ename"] == "Stopped", c
    assert "variables and the recorded graph are kept" in c["evalue"]
    rep, io = k.execute("%delete all\nprint(x.shape)")
    assert "torch.Size([16, 4])" in stdout_of(io)


def test_tracepoints_without_stdin(fresh_kernel):
    needs_nndb()
    k = fresh_kernel()
    k.execute(SETUP + "%break tanh")
    rep, io = k.execute("loss = cross_entropy(model(x), y)", allow_stdin=False)
    assert rep["content"]["status"] == "ok", rep["content"]
    stops = [d for d in displays(io) if "stopped" in d.get("text/plain", "")]
    assert len(stops) == 2
    err = "".join(m["content"]["text"] for m in outputs(io, "stream")
                  if m["content"]["name"] == "stderr")
    assert "no input here" in err


def test_anomaly_error_and_graph_svg(fresh_kernel):
    needs_nndb()
    k = fresh_kernel()
    rep, io = k.execute("%anomaly on\nt = tensor([1.0, 0.0], requires_grad=True)\nz = log(t * 1)")
    c = rep["content"]
    assert c["status"] == "error" and c["ename"] == "AnomalyError", c
    assert "log(0.0) = -inf at index [1]" in c["evalue"]
    # Without a breakpoint the debugger is off: %graph names the tensor.
    rep, io = k.execute("%anomaly off\n" + SETUP + "loss = cross_entropy(model(x), y)\n"
                        "loss.backward()\n%graph loss")
    assert rep["content"]["status"] == "ok", rep["content"]
    pics = [d for d in displays(io) if "image/svg+xml" in d]
    assert pics, "no SVG (is Debian's libgvc6 installed?)"
    svg = pics[0]["image/svg+xml"]
    assert svg.startswith("<svg") and "cross_entropy" in svg and "model.0" in svg


def test_console_debugger_walkthrough(prefix):
    needs_nndb()
    env = dict(os.environ, TERM="xterm", COLUMNS="120", LINES="40")
    c = pexpect.spawn("/usr/bin/python3", ["-m", "jupyter_console", "--kernel", harness.KERNEL],
                      env=env, encoding="utf-8", timeout=30, dimensions=(40, 120))
    log = []
    c.logfile_read = type("L", (), {"write": lambda self, s: log.append(s),
                                    "flush": lambda self: None})()
    try:
        c.expect(r"In \[")
        c.send("manual_seed(0); model = Sequential(Linear(4, 8), Tanh(), Linear(8, 3)); "
               "x = randn(16, 4)\r")
        c.expect(r"In \[")
        c.send("%break tanh\r")
        c.expect("Breakpoint 1: tanh")
        c.expect(r"In \[")
        c.send("h = model(x)\r")
        c.expect(r"\(nndb\) ")
        c.send("p out.shape\r")
        c.expect(r"torch\.Size\(\[16, 8\]\)")
        c.expect(r"\(nndb\) ")
        c.send("c\r")
        c.expect(r"In \[")
        c.send("print(h.shape)\r")
        c.expect(r"torch\.Size\(\[16, 3\]\)")
        c.send("exit()\r")
        c.expect(pexpect.EOF, timeout=20)
    except (pexpect.TIMEOUT, pexpect.EOF) as e:
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(log))
        pytest.fail(f"console transcript did not match ({type(e).__name__}):\n{text[-2000:]}")
    finally:
        c.close(force=True)

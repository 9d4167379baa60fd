"""nndb's debugger in a notebook, with torch's own names: a stop is a
display_data with the HTML table beside the text, its (nndb) prompt is an
input_request on the stdin channel (pdb's prompt through the front end's
readline), and without allow_stdin a breakpoint is a tracepoint; the NaN
hunt's AnomalyError and %graph's SVG. (test_debugger.py has the walkthrough
with the prelude's bare names.)

    NNDB=build/debug/nndb tests/kernel/run.sh -k debugger
"""
import pytest

import harness
from harness import outputs, stdout_of

pytestmark = pytest.mark.skipif(not harness.IS_NNDB, reason="the debugger is nndb's own")

SETUP = ("import torch; from torch import nn; import torch.nn.functional as F\n"
         "torch.manual_seed(0)\n"
         "model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))\n"
         "x = torch.randn(16, 4); y = torch.randint(0, 3, (16,))\n")


@pytest.fixture(scope="module")
def k(kernel):
    rep, _ = kernel.execute(SETUP)
    assert rep["content"]["status"] == "ok", rep["content"]
    return kernel


def test_a_stop_reads_its_commands_from_the_notebook(k):
    rep, _ = k.execute("%break model.2")
    assert rep["content"]["status"] == "ok"
    rep, iopub = k.execute("loss = F.cross_entropy(model(x), y)",
                           stdin_answers=["p out.shape", "c"])
    assert rep["content"]["status"] == "ok", rep["content"]
    assert [r["content"]["prompt"] for r in k.stdin_requests] == ["(nndb) ", "(nndb) "]
    shown = outputs(iopub, "display_data")
    html = [d["content"]["data"].get("text/html", "") for d in shown]
    assert any("nndb-stop" in h and "model.2" in h for h in html), html
    assert "torch.Size([16, 3])" in stdout_of(iopub)
    k.execute("%break clear")


def test_without_stdin_a_breakpoint_is_a_tracepoint(k):
    k.execute("%break tanh")
    rep, iopub = k.execute("h = model(x); print('went on')")
    assert rep["content"]["status"] == "ok", rep["content"]
    assert "went on" in stdout_of(iopub)
    text = [d["content"]["data"]["text/plain"] for d in outputs(iopub, "display_data")]
    assert any("stopped (breakpoint" in t for t in text), text
    k.execute("%break clear")


def test_quit_and_the_nan_hunt(k):
    k.execute("%break linear")
    rep, _ = k.execute("out = model(x)", stdin_answers=["q"])
    c = rep["content"]
    assert c["status"] == "error" and c["ename"] == "Stopped", c
    k.execute("%break clear")
    k.execute("%anomaly on")
    rep, _ = k.execute("z = torch.log(x - 10)")
    c = rep["content"]
    assert c["status"] == "error" and c["ename"] == "AnomalyError", c
    assert "forward: log produced NaN" in c["evalue"], c["evalue"]
    k.execute("%anomaly off")


def test_graph_is_svg_in_the_notebook(k):
    rep, iopub = k.execute("%graph F.cross_entropy(model(x), y)")
    assert rep["content"]["status"] == "ok", rep["content"]
    data = [d["content"]["data"] for d in outputs(iopub, "display_data")]
    assert any("graph of" in d.get("text/plain", "") for d in data), data
    if any("no picture" in d.get("text/plain", "") for d in data):
        pytest.skip("no Graphviz here")
    assert any(d.get("image/svg+xml", "").startswith("<svg") for d in data), data


def test_python_lines_post_mortem_and_back_in_the_notebook(k):
    """%break py stops on a line of forward (n, p through input_request);
    %pdb on opens at the frame that raised, naming the backward node; with
    %timetravel on, back shows the op before."""
    rep, _ = k.execute("class Net(nn.Module):\n"
                       "    def __init__(self):\n"
                       "        super().__init__()\n"
                       "        self.fc = nn.Linear(4, 3)\n"
                       "    def forward(self, x):\n"
                       "        h = self.fc(x)\n"
                       "        scale = 3.0\n"
                       "        return h * scale\n"
                       "net = Net()")
    assert rep["content"]["status"] == "ok", rep["content"]
    rep, iopub = k.execute("%break py Net.forward")
    assert "a Python line" in stdout_of(iopub)
    rep, iopub = k.execute("z = net(x)", stdin_answers=["n", "n", "p h.shape", "c"])
    assert rep["content"]["status"] == "ok", rep["content"]
    out = stdout_of(iopub)
    assert "-> scale = 3.0" in out and "torch.Size([16, 3])" in out, out
    k.execute("%delete all")
    rep, _ = k.execute("class Twice(torch.autograd.Function):\n"
                       "    @staticmethod\n"
                       "    def forward(ctx, t):\n"
                       "        return t * 2\n"
                       "    @staticmethod\n"
                       "    def backward(ctx, g):\n"
                       "        return g.reshape(5)\n"
                       "w = torch.randn(3, requires_grad=True)\n"
                       "%pdb on")
    assert rep["content"]["status"] == "ok", rep["content"]
    rep, iopub = k.execute("Twice.apply(w).sum().backward()", stdin_answers=["p g.shape", "c"])
    assert rep["content"]["status"] == "error", rep["content"]
    out = stdout_of(iopub)
    assert "at the node TwiceBackward; its forward op was recorded at" in out, out
    assert "torch.Size([3])" in out, out
    k.execute("%pdb off")
    k.execute("%timetravel on")
    k.execute("%break model.2")
    rep, iopub = k.execute("h = model(x)", stdin_answers=["back", "p node.module", "c"])
    assert rep["content"]["status"] == "ok", rep["content"]
    assert "'model.1'" in stdout_of(iopub), stdout_of(iopub)
    k.execute("%delete all")
    k.execute("%timetravel off")

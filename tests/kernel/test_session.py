"""The kernel as a notebook user meets it: numpy and matplotlib in cells (a
plot arrives as display_data with image/png), rich display through
_repr_html_ and display() with updates, input(), interrupting `while True:
pass`, a SyntaxError with its caret, magics, and exit().

It runs the suite's kernelspecs: "nndb" (signal interrupts) and
"nndb-message" (message-mode interrupts), installed by conftest.py.
"""
import base64
import io
import keyword
import random
import re
import string
import sys
import time

import pytest

import harness
from harness import ok, outputs, result_text, stdout_of

pytestmark = pytest.mark.skipif(not harness.IS_NNDB, reason="nndb's session (prelude, magics)")

SPEC = harness.KERNEL
SPEC_MESSAGE = harness.KERNEL_MESSAGE_MODE


@pytest.fixture(scope="module")
def specs(prefix):
    return prefix


def test_first_cell_imports_neither_numpy_nor_matplotlib(k):
    rep, io = k.execute("import sys\n"
                        "sorted(m for m in ('numpy', 'matplotlib', 'IPython') if m in sys.modules)")
    ok(rep)
    assert result_text(io) == "[]"


def test_prelude_names_and_torch(k):
    rep, io = k.execute("t = zeros(2, 3)\nt.shape")
    ok(rep)
    assert result_text(io) == "torch.Size([2, 3])"
    rep, io = k.execute("int('7') + 1, __name__")  # builtins are not hidden by torch.int
    ok(rep)
    assert result_text(io) == "(8, '__main__')"


def test_numpy_and_matplotlib_plot_is_a_png(k):
    rep, io = k.execute("import numpy as np\nimport matplotlib.pyplot as plt\n"
                        "xs = np.linspace(0, 1, 20)\nplt.plot(xs, xs ** 2)")
    ok(rep)
    disp = outputs(io, "display_data")
    assert len(disp) == 1, [m["msg_type"] for m in io]
    data = disp[0]["content"]["data"]
    assert base64.b64decode(data["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
    assert data["text/plain"].startswith("<Figure size")
    assert "Line2D" in result_text(io)
    # Shown figures are closed: the next cell shows nothing.
    rep, io = k.execute("len(plt.get_fignums())")
    assert result_text(io) == "0" and not outputs(io, "display_data")


def test_plt_show_and_svg_format(k):
    rep, io = k.execute("import matplotlib.pyplot as plt\n"
                        "%config InlineBackend.figure_format = 'svg'\n"
                        "%matplotlib inline\n"
                        "plt.figure(); plt.plot([1, 2]); plt.show()\nprint('after')")
    ok(rep)
    disp = outputs(io, "display_data")
    assert len(disp) == 1 and "<svg" in disp[0]["content"]["data"]["image/svg+xml"]
    types = [m["msg_type"] for m in io]
    assert types.index("display_data") < types.index("stream"), types  # show() came first
    k.execute("%config InlineBackend.figure_format = 'png'")


def test_rich_display_of_repr_html(k):
    rep, io = k.execute("class Card:\n"
                        "    def _repr_html_(self):\n"
                        "        return '<b>card</b>'\n"
                        "    def __repr__(self):\n"
                        "        return 'Card()'\n"
                        "Card()")
    ok(rep)
    (res,) = outputs(io, "execute_result")
    assert res["content"]["data"] == {"text/plain": "Card()", "text/html": "<b>card</b>"}


def test_display_with_update(k):
    rep, io = k.execute("h = display('one', display_id=True)\nh.update('two')\n"
                        "from IPython.display import display as ipy_display, HTML\n"
                        "ipy_display(HTML('<i>x</i>'))")
    ok(rep)
    shown = [(m["msg_type"], m["content"]["data"]) for m in outputs(io)
             if m["msg_type"] in ("display_data", "update_display_data")]
    assert shown[0] == ("display_data", {"text/plain": "'one'"})
    assert shown[1] == ("update_display_data", {"text/plain": "'two'"})
    assert shown[2][1]["text/html"] == "<i>x</i>"
    ids = {m["content"]["transient"]["display_id"] for m in outputs(io)
           if m["msg_type"] in ("display_data", "update_display_data")
           and m["content"]["transient"]}
    assert len(ids) == 1


def test_input_round_trip(k):
    rep, io = k.execute('name = input("Your name: ")\nprint("hello", name)',
                        stdin_answers=["Ada"])
    ok(rep)
    assert k.stdin_requests[0]["content"]["prompt"] == "Your name: "
    assert stdout_of(io) == "hello Ada\n"
    rep, io = k.execute('input("again? ")', allow_stdin=False)
    assert rep["content"]["status"] == "error"
    assert rep["content"]["ename"] == "StdinNotImplementedError"


def test_streams_and_traceback_with_carets(k):
    rep, io = k.execute("import sys\nprint('out')\nprint('err', file=sys.stderr)\n"
                        "class P:\n    shape = 1\n"
                        "def f(v):\n    return v.shap\nf(P())")
    c = rep["content"]
    assert c["status"] == "error" and c["ename"] == "AttributeError"
    assert c["evalue"].endswith("Did you mean: 'shape'?"), c["evalue"]
    tb = "\n".join(c["traceback"])
    assert 'File "<cell' in tb and "return v.shap" in tb and "^^^^^^" in tb, tb
    assert "nndb/session.py" not in tb, tb
    assert stdout_of(io) == "out\n" and stdout_of(io, "stderr") == "err\n"


def _cpython_suggestion(names, typo):
    """CPython's own suggestion (its C search) for a NameError of [typo]
    among [names], read from what sys.__excepthook__ prints."""
    ns = dict.fromkeys(names, 0)
    ns["__builtins__"] = {}
    try:
        exec(typo, ns)
    except NameError as e:
        exc = e
    buf, saved = io.StringIO(), sys.stderr
    sys.stderr = buf
    try:
        sys.__excepthook__(type(exc), exc, exc.__traceback__)
    finally:
        sys.stderr = saved
    m = re.search(r"Did you mean: '(.*)'\?$", buf.getvalue().strip())
    return m.group(1) if m else None


def test_name_suggestions_search_as_cpython_does(k):
    # A session's globals hold ~800 names, past CPython's cap (750) for its
    # own search, so nndb searches them itself (nndb/session.py _closest):
    # on namespaces under the cap both must pick the same name, case-only
    # edits, non-ASCII names (limits counted in UTF-8 bytes) and names past
    # 40 bytes included.
    rng = random.Random(7)
    alphabet = string.ascii_letters + string.digits + "_"

    def ident(n):
        while True:
            w = rng.choice(string.ascii_letters + "_") + "".join(
                rng.choice(alphabet) for _ in range(n - 1))
            if w.isidentifier() and not keyword.iskeyword(w):
                return w

    names = [ident(rng.randint(1, 14)) for _ in range(260)]
    names += ["café_au_lait", "naïve_bayes", "straße", "Learning_Rate", "learning_rate",
              "x" * 41, "y" * 39 + "z", "optimiser", "optimizer", "OPTIMIZER", "äöü"]
    # "aöü": 4 bytes from "äöü"'s 6, within a third of their bytes, not of
    # their characters
    typos = ["aöü", "learningrate", "LEARNING_RATE", "cafe_au_lait", "naive_bayes", "strasse",
             "x" * 42, "y" * 40, "optimizr", "Optimizer", "optimisers", "zzzzzzzzzzzz"]
    for w in rng.sample(names, 140):
        i = rng.randrange(len(w))
        edit = rng.choice("case delete insert swap substitute".split())
        if edit == "case":
            t = w[:i] + w[i].swapcase() + w[i + 1:]
        elif edit == "delete" and len(w) > 1:
            t = w[:i] + w[i + 1:]
        elif edit == "swap" and i + 1 < len(w):
            t = w[:i] + w[i + 1] + w[i] + w[i + 2:]
        elif edit == "substitute":
            t = w[:i] + rng.choice(alphabet) + w[i + 1:]
        else:
            t = w[:i] + rng.choice(alphabet) + w[i:]
        if t.isidentifier() and not keyword.iskeyword(t) and t not in names:
            typos.append(t)
    typos = [t for t in dict.fromkeys(typos) if t not in names]
    want = [_cpython_suggestion(names, t) for t in typos]
    assert sum(w is not None for w in want) > 100  # the test sees real suggestions
    rep, io = k.execute("from nndb.session import _closest\n"
                        f"print([_closest({names + ['__builtins__']!r}, t) for t in {typos!r}])")
    ok(rep)
    got = eval(stdout_of(io))
    assert [(t, g) for t, g in zip(typos, got)] == [(t, w) for t, w in zip(typos, want)]


def test_syntax_error_with_caret(k):
    rep, io = k.execute("x = (1,\ny = 2")
    c = rep["content"]
    assert c["status"] == "error" and c["ename"] == "SyntaxError"
    tb = c["traceback"]
    assert not tb[0].startswith("Traceback"), tb
    text = "\n".join(tb)
    assert re.search(r'File "<cell \d+>", line 1', text), text
    assert re.search(r"\n +\^", text), text
    rep, io = k.execute("x = 3\nx")  # the session goes on
    assert result_text(io) == "3"


def test_out_in_underscore_and_semicolon(k):
    rep, _ = k.execute("6 * 7")
    n = rep["content"]["execution_count"]
    assert result_text(k.execute("_ + 1")[1]) == "43"
    assert result_text(k.execute(f"Out[{n}], In[{n}]")[1]) == "(42, '6 * 7')"
    rep, io = k.execute("7;")
    assert not outputs(io, "execute_result")


def test_magics(k, tmp_path):
    rep, io = k.execute("%timeit -n 20 -r 3 v = 3 * 4")
    ok(rep)
    assert re.search(r"[\d.]+ (ns|µs|ms|s) ± [\d.]+ (ns|µs|ms|s) per loop "
                     r"\(mean ± std\. dev\. of 3 runs, 20 loops each\)\n", stdout_of(io))
    rep, io = k.execute("%time 5 * 5")
    assert stdout_of(io).startswith("CPU times: user ") and "\nWall time: " in stdout_of(io)
    assert result_text(io) == "25"
    rep, io = k.execute("!echo first; echo err >&2")
    assert stdout_of(io) == "first\nerr\n"
    (tmp_path / "script.py").write_text("import sys\nfrom_script = sys.argv[1:]\n")
    rep, io = k.execute(f"%run {tmp_path}/script.py a b\nfrom_script")
    ok(rep)
    assert result_text(io) == "['a', 'b']"
    rep, io = k.execute("%tiem 1")
    assert rep["content"]["ename"] == "UsageError"
    assert "Did you mean: %time?" in rep["content"]["evalue"]
    rep, io = k.execute("%break matmul")  # the debugger's magics (python/nndb/debugger.py)
    ok(rep)
    rep, io = k.execute("%break list")
    ok(rep)
    assert "matmul" in stdout_of(io), stdout_of(io)
    rep, io = k.execute("%break clear")
    ok(rep)
    rep, io = k.execute("%drill list")  # a magic registered from C (drills/)
    ok(rep)
    assert stdout_of(io).strip(), io


def test_whos_and_inspect(k):
    k.execute("w = zeros(2, 2)")
    out = stdout_of(k.execute("%whos")[1])
    assert re.search(r"^w +Tensor +\[2, 2\] float32, 16 bytes$", out, re.M), out
    k.execute("def halve(v):\n    return v / 2")
    assert "Source:\ndef halve(v):\n    return v / 2\n" in stdout_of(k.execute("halve??")[1])
    rep, _ = k.request("shell", "inspect_request",
                       {"code": "halve(", "cursor_pos": 6, "detail_level": 0})
    assert rep["content"]["found"] and "halve(v)" in rep["content"]["data"]["text/plain"]
    rep, _ = k.request("shell", "complete_request", {"code": "w.sha", "cursor_pos": 5})
    # As IPython (jedi) answers: the attribute's name, replacing what follows the dot.
    assert "shape" in rep["content"]["matches"] and rep["content"]["cursor_start"] == 2, rep
    rep, _ = k.request("shell", "is_complete_request", {"code": "for i in range(3):"})
    assert rep["content"] == {"status": "incomplete", "indent": "    "}


@pytest.mark.parametrize("spec", [SPEC, SPEC_MESSAGE])
def test_interrupt_while_true(specs, fresh_kernel, spec):
    k = fresh_kernel(spec)
    k.execute("kept = 42")
    mid = k.send("shell", "execute_request",
                 dict(code="while True: pass", silent=False, store_history=True,
                      user_expressions={}, allow_stdin=False, stop_on_error=True))
    time.sleep(0.5)
    if spec == SPEC:
        k.km.interrupt_kernel()  # SIGINT
    else:
        k.reply("control", k.send("control", "interrupt_request"), timeout=5)
    rep = k.reply("shell", mid, timeout=10)
    c = rep["content"]
    assert c["status"] == "error" and c["ename"] == "KeyboardInterrupt", c
    assert "while True: pass" in "\n".join(c["traceback"])
    rep, io = k.execute("kept + 1")
    assert result_text(io) == "43"


def test_interrupt_sleep_by_message(specs, fresh_kernel):
    k = fresh_kernel(SPEC_MESSAGE)
    mid = k.send("shell", "execute_request",
                 dict(code="import time\ntime.sleep(30)", silent=False, store_history=True,
                      user_expressions={}, allow_stdin=False, stop_on_error=True))
    time.sleep(0.5)
    t0 = time.monotonic()
    k.reply("control", k.send("control", "interrupt_request"), timeout=5)
    rep = k.reply("shell", mid, timeout=10)
    assert rep["content"]["ename"] == "KeyboardInterrupt"
    assert time.monotonic() - t0 < 3


def test_exit_stops_the_kernel(specs, fresh_kernel):
    k = fresh_kernel(SPEC)
    rep, _ = k.execute("exit()")
    assert {"source": "ask_exit", "keepkernel": False} in rep["content"]["payload"]
    deadline = time.monotonic() + 10
    while k.km.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not k.km.is_alive()

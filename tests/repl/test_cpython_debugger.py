#!/usr/bin/python3
"""nndb's debugger on CPython (python/nndb/debugger.py, binding/py_debug.c)
in the REPL of build/nndb, in a real pty (pexpect): op, module, phase,
condition and nan breakpoints, stepping (s, n, f, an empty line), the pdb
prompt at a stop (p, w, u, d, a, l, assignments, interact, Up for its
history, Tab for the stop's names), watches, an edit at a stop, Ctrl-C back
to the prompt, Ctrl-D, q, the NaN hunt, %graph, %step, %debug, %pdb,
breakpoint(), and `run --break` / `debug` on a terminal.

    /usr/bin/python3 tests/repl/test_cpython_debugger.py [--nndb build/nndb] [NAME]
    /usr/bin/python3 -m pytest tests/repl/test_cpython_debugger.py   (NNDB=... to choose)

Prints "N passed, M failed" when run as a script.
"""
import os
import sys
import time
import traceback

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_repl  # noqa: E402  (Env, PROMPT)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.abspath(os.environ.get("NNDB") or os.path.join(ROOT, "build", "nndb"))
DBG = r"\(nndb\) "
PROMPT = test_repl.PROMPT
SETUP = ["import torch; from torch import nn; import torch.nn.functional as F",
         "torch.manual_seed(0)",
         "model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), "
         "nn.Linear(8, 3))",
         "x = torch.randn(16, 4); y = torch.randint(0, 3, (16,))",
         "opt = torch.optim.SGD(model.parameters(), lr=0.1)",
         "clean = F.cross_entropy(model(x), y).item()"]
# The same with the names an interactive session (and a .nn script) has bare.
BARE_SETUP = ["manual_seed(0)",
              "model = Sequential(Linear(4, 8), Tanh(), Linear(8, 8), Tanh(), Linear(8, 3))",
              "x = randn(16, 4); y = randint(0, 3, (16,))",
              "opt = SGD(model.parameters(), lr=0.1)",
              "clean = cross_entropy(model(x), y).item()"]
MLP = ("class MLP(nn.Module):\n"
       "    def __init__(self):\n"
       "        super().__init__()\n"
       "        self.fc1 = nn.Linear(4, 8); self.fc2 = nn.Linear(8, 3)\n"
       "    def forward(self, x):\n"
       "        h = torch.tanh(self.fc1(x))\n"
       "        scale = 2.0\n"
       "        return self.fc2(h) * scale\n")


def session(env, setup=SETUP):
    test_repl.NNDB = NNDB
    c = env.spawn()
    if os.environ.get("NNDB_TEST_LOG"):
        c.logfile_read = sys.stdout
    c.expect(PROMPT)
    for line in setup:
        c.sendline(line)
        c.expect(PROMPT)
    return c


def cell(c, code, then=PROMPT):
    c.sendline(code)
    c.expect(then)


def at_stop(c, cmd, *patterns):
    c.sendline(cmd)
    for p in patterns:
        c.expect(p)
    c.expect(DBG)


def test_walkthrough(env):
    c = session(env)
    cell(c, "%break model.2", "Breakpoint 1: model.2")
    c.expect(PROMPT)
    c.sendline("loss = F.cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); "
               "opt.step()")
    c.expect(r"stopped \(breakpoint 1, model\.2\): forward linear, op 3 of this statement, "
             r"in model\.2")
    c.expect(r"\^~~~~~~~")  # the caret under model(x)
    c.expect(r"inputs\[1\] model\.2\.weight +\[8, 8\]")
    c.expect(r"> <cell \d+>\(1\)<module>\(\)")  # pdb's own line: the frame that called the op
    c.expect(DBG)
    at_stop(c, "b backward", "Breakpoint 2: backward")
    at_stop(c, "s", r"stopped \(step\): forward tanh, op 4 of this statement, in model\.3")
    at_stop(c, "", r"stopped \(step\): forward linear, op 5 of this statement, in model\.4")
    at_stop(c, "w", r"<cell \d+>\(1\)<module>\(\)", r"module stack:\s+model\s+model\.4",
            r"position: forward linear, op 5 of this statement")
    at_stop(c, "l", r"1  ->\s+loss = F\.cross_entropy")
    at_stop(c, "watch out.abs().max()", "Watch 1")
    at_stop(c, "out[0, 0] = 100.0")
    at_stop(c, "s", r"forward cross_entropy", r"watch 1: out.abs\(\).max\(\) = tensor\(")
    at_stop(c, "c", r"stopped \(breakpoint 2, backward\): backward cross_entropy, node 1 of 6",
            r"at <cell \d+>:1 \(the forward op\)", r"grads\[0\] +d loss/d input")
    at_stop(c, "grad.shape", r"torch\.Size\(\[\]\)")
    at_stop(c, "p inputs[0].shape", r"torch\.Size\(\[16, 3\]\)")
    at_stop(c, "p node", r"node\(backward cross_entropy")
    c.sendline("q")
    c.expect(r"torch\._C\.Stopped: quit at the debugger, backward cross_entropy")
    c.expect(PROMPT)
    cell(c, "%break clear")
    cell(c, "print(x.shape, loss.item() > clean + 1, 'out' in dir())",
         r"torch\.Size\(\[16, 4\]\) True False")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_pdb_commands_in_a_forward(env):
    c = session(env, SETUP[:1] + [MLP, "torch.manual_seed(0); net = MLP(); x = torch.randn(5, 4)"])
    cell(c, "%break mul")
    c.sendline("out = net(x)")
    c.expect(r"stopped \(breakpoint 1, mul\): forward mul, op 4 of this statement, in net")
    c.expect(r"return self\.fc2\(h\) \* scale")
    c.expect(r"> <cell \d+>\(8\)forward\(\)")
    c.expect(DBG)
    at_stop(c, "p scale", r"2\.0")
    at_stop(c, "pp h.shape", r"torch\.Size\(\[5, 8\]\)")
    at_stop(c, "a", r"self = MLP\(", r"x = tensor\(")
    at_stop(c, "ll", r"def forward\(self, x\):", r"->\s+return self\.fc2")
    at_stop(c, "scale = 3.0")
    at_stop(c, "p scale * 2", r"6\.0")
    at_stop(c, "u", r"> <cell \d+>\(1\)<module>\(\)")
    at_stop(c, "p x.shape, out.shape", r"\(torch\.Size\(\[5, 4\]\), torch\.Size\(\[5, 3\]\)\)")
    at_stop(c, "d", r"> <cell \d+>\(8\)forward\(\)")
    at_stop(c, "graph", r"graph of 4 nodes", r"#1 mul \[5, 3\]  \(net\).*stopped here",
            r"#2 linear \[5, 3\]  \(net\.fc2\)", r"leaf net\.fc1\.weight \[8, 4\]")
    c.sendline("interact")
    c.expect(r"\*interactive\*")
    c.sendline("print('inside', out.shape[1] * 10)")
    c.expect("inside 30")
    c.sendcontrol("d")
    c.expect(DBG)
    at_stop(c, "n", r"--Return--")  # pdb's n on the frame's last line: its return
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "print('done', out.shape)", r"done torch\.Size\(\[5, 3\]\)")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_step_by_lines_and_ops(env):
    """At an op stop n goes to the next line of the frame (pdb's n); s stops
    at whichever comes first, the next op or the next line of yours; sop
    steps by ops only."""
    c = session(env, SETUP[:1] + [MLP, "torch.manual_seed(0); net = MLP(); x = torch.randn(5, 4)"])
    cell(c, "%break tanh")
    c.sendline("out = net(x)")
    c.expect(r"stopped \(breakpoint 1, tanh\): forward tanh")
    c.expect(DBG)
    at_stop(c, "cl all")
    at_stop(c, "n", r"-> scale = 2\.0")  # the tanh line is done: the next line, no op stop
    at_stop(c, "p h.shape", r"torch\.Size\(\[5, 8\]\)")
    at_stop(c, "s", r"-> return self\.fc2\(h\) \* scale")  # a line comes before the next op
    at_stop(c, "s", r"stopped \(step\): forward linear, op \d+ of this statement, in net\.fc2")
    at_stop(c, "sop", r"stopped \(step\): forward mul")
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "print('after', out.shape)", r"after torch\.Size\(\[5, 3\]\)")
    c.expect(PROMPT)
    # nothing is left armed: the next statement runs without a stop
    cell(c, "out2 = net(x); print('clean', out2.shape)", r"clean torch\.Size\(\[5, 3\]\)")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_next_finish_step_magic(env):
    c = session(env)
    cell(c, "%break model.0")
    c.sendline("loss = F.cross_entropy(model(x), y)")
    c.expect(r"stopped \(breakpoint 1, model\.0\): forward linear, op 1")
    c.expect(DBG)
    at_stop(c, "cl")
    at_stop(c, "nop", r"stopped \(next\): forward tanh, op 2 of this statement, in model\.1")
    c.sendline("f")  # to the end of the statement's forward: nothing stops after it
    c.expect(PROMPT)
    c.sendline("%step loss = F.cross_entropy(model(x), y)")
    c.expect(r"stopped \(step\): forward linear, op 1 of this statement, in model\.0")
    c.expect(DBG)
    c.sendline("c")
    c.expect(PROMPT)
    c.sendline("%step loss.backward()")
    c.expect(r"stopped \(step\): backward cross_entropy, node 1 of 6")
    c.expect(DBG)
    c.sendline("f")
    c.expect(PROMPT)
    cell(c, "print(model[0].weight.grad is not None)", "True")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_conditions_list_and_nan(env):
    c = session(env)
    cell(c, "%break tanh if out.abs().max() > 100")
    cell(c, "%break linear if out.shape[1] == 3")
    c.sendline("h = model(x)")
    c.expect(r"stopped \(breakpoint 2, linear if out\.shape\[1\] == 3\)")
    c.expect(DBG)
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "%break list", r"1    yes      0     tanh if out\.abs\(\)\.max\(\) > 100")
    c.expect(r"2    yes      1     linear if out\.shape\[1\] == 3")
    c.expect(PROMPT)
    cell(c, "%break disable 2")
    cell(c, "h = model(x); print('ran')", "ran")
    c.expect(PROMPT)
    cell(c, "%break clear all")
    cell(c, "%break nan")
    c.sendline("z = torch.log(x) * 2")
    c.expect(r"forward: log produced NaN from NaN-free inputs")
    c.expect(r"stopped \(breakpoint 3, nan\): forward log, op 1 of this statement")
    c.expect(DBG)
    at_stop(c, "p torch.isnan(out).any().item()", "True")
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "%break clear")
    c.sendline("%break no-such-thing!")
    c.expect("UsageError: 'no-such-thing!' is not a breakpoint spec")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_anomaly(env):
    c = session(env, SETUP[:1])
    cell(c, "%anomaly on", "Anomaly mode on")
    c.expect(PROMPT)
    cell(c, "p = torch.tensor([[0.5, 0.5], [1.0, 0.0]], requires_grad=True)")
    c.sendline("logp = torch.log(p * 1)")
    c.expect(r"AnomalyError: forward: log produced an infinity from finite inputs: "
             r"log\(0\.0\) = -inf at index \[1, 1\]")
    c.expect(r"op log, at <cell \d+>:1")
    c.expect(PROMPT)
    cell(c, "%anomaly off", "Anomaly mode off")
    c.expect(PROMPT)
    c.sendline("x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)\n"
               "with torch.autograd.detect_anomaly():\n"
               "    s = torch.sqrt(x).sum()\n"
               "    s.backward()\n")
    c.expect(r"AnomalyError: backward: the gradient of sqrt with respect to its input 0 is inf "
             r"at index \[0\]; the forward input there was 0\.0")
    c.expect(r"inputs\[0\] x ")
    c.expect(PROMPT)
    cell(c, "print(torch.autograd.anomaly_mode.is_anomaly_enabled())", "False")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_graph(env):
    c = session(env)
    cell(c, "loss = F.cross_entropy(model(x), y)")
    c.sendline("%graph loss")
    c.expect("graph of 6 nodes")
    c.expect("no module paths or lines")
    c.expect(PROMPT)
    cell(c, "%anomaly on")  # the debugger is on: ops carry module paths and lines
    cell(c, "loss = F.cross_entropy(model(x), y)")
    cell(c, "%anomaly off")
    c.sendline("%graph loss")
    c.expect("graph of 6 nodes")
    c.expect(r"#1 cross_entropy \[\]")
    c.expect(r"#6 linear \[16, 8\]  \(model\.0\)  <cell \d+>:1")
    c.expect(r"leaf model\.0\.weight \[8, 4\]")
    c.expect(PROMPT)
    c.sendline("%graph x")
    c.expect("ValueError: this tensor has no recorded graph")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_post_mortem(env):
    c = session(env, SETUP[:1])
    cell(c, "def f(a):\n    b = a * 2\n    return b / 0\n")
    c.sendline("f(3)")
    c.expect("ZeroDivisionError: division by zero")
    c.expect(PROMPT)
    c.sendline("%debug")
    c.expect(r"> <cell \d+>\(3\)f\(\)")
    c.expect(DBG)
    at_stop(c, "p b", "6")
    at_stop(c, "u", r"<cell \d+>\(1\)<module>\(\)")
    c.sendline("q")
    c.expect(PROMPT)
    cell(c, "%pdb on", "Automatic pdb calling has been turned ON")
    c.expect(PROMPT)
    c.sendline("f(5)")
    c.expect(r"> <cell \d+>\(3\)f\(\)")
    c.expect(DBG)
    at_stop(c, "p b + 1", "11")
    c.sendline("c")
    c.expect("ZeroDivisionError")
    c.expect(PROMPT)
    cell(c, "%pdb off", "OFF")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_ctrl_c_and_ctrl_d(env):
    c = session(env)
    c.sendline("breakpoint()\nfor i in range(10000000):\n    h = torch.tanh(x)\n")
    c.expect(r"stopped \(breakpoint\(\)\): forward tanh")
    c.expect(DBG)
    c.sendline("c")
    time.sleep(0.5)
    c.sendintr()
    c.expect(r"stopped \(Ctrl-C\): forward tanh", timeout=5)
    c.expect(DBG)
    at_stop(c, "i > 0", "True")
    c.sendline("q")
    c.expect(PROMPT)
    cell(c, "print('alive', h.shape)", r"alive torch\.Size\(\[16, 4\]\)")
    c.expect(PROMPT)
    cell(c, "%break tanh")
    c.sendline("h = model(x); print('done')")
    c.expect(DBG)
    at_stop(c, "p out.shape[1] * 1000", "8000")
    c.send(test_repl.UP + "\r")  # readline history at the (nndb) prompt
    c.expect("8000")
    c.expect(DBG)
    c.sendcontrol("d")
    c.expect(DBG)  # the second tanh
    c.sendcontrol("d")
    c.expect("done")
    c.expect(PROMPT)
    # Ctrl-C at the prompt itself aborts the statement
    c.sendline("h = model(x); print('not this')")
    c.expect(DBG)
    c.sendintr()
    c.expect("KeyboardInterrupt")
    c.expect(PROMPT)
    cell(c, "%break clear")
    c.sendline("for i in range(3000000):\n    pass\n")
    time.sleep(0.3)
    c.sendintr()  # with no stop in this cell, Ctrl-C interrupts as always
    c.expect("KeyboardInterrupt")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_run_break_and_debug_on_a_terminal(env):
    test_repl.NNDB = NNDB
    script = env.write("train.py", "\n".join(SETUP) + "\nloss = F.cross_entropy(model(x), y)\n"
                       "print('end', loss.item() > 0)\n")
    c = env.spawn(["run", "--break", "cross_entropy", script])
    c.expect(r"stopped \(breakpoint 1, cross_entropy\): forward cross_entropy")
    c.expect(r"train\.py:6")
    c.expect(DBG)
    c.sendline("c")
    c.expect(r"train\.py:7")
    c.expect(DBG)
    c.sendline("c")
    c.expect("end True")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0, c.exitstatus
    c = env.spawn(["debug", script])
    c.expect(r"stopped \(breakpoint\(\)\): forward")
    c.expect(DBG)
    c.send("p out.shap\t")  # Tab completes the names bound at the stop
    c.expect("out.shape")
    c.send("\r")
    c.expect(r"torch\.Size\(\[16, 8\]\)")
    c.expect(DBG)
    c.sendline("c")
    c.expect("end True")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0, c.exitstatus
    r = env.run(["run", "--break", "no-such", script])
    assert r.returncode == 2 and "is not a breakpoint spec" in r.stderr, r.stderr
    # without a terminal the stops are tracepoints
    r = env.run(["run", "--break", "tanh", script], stdin="")
    assert r.returncode == 0 and r.stdout.count("stopped (breakpoint 1, tanh)") == 4, r.stdout
    # an older .nn script, with the prelude's bare names, stops the same way
    bare = env.write("train.nn", "\n".join(BARE_SETUP) + "\nloss = cross_entropy(model(x), y)\n"
                     "print('end', loss.item() > 0)\n")
    r = env.run(["run", "--break", "tanh", bare], stdin="")
    assert r.returncode == 0 and r.stdout.count("stopped (breakpoint 1, tanh)") == 4, r.stdout
    assert "train.nn:5" in r.stdout and "end True" in r.stdout, r.stdout


def test_python_line_breakpoints(env):
    """%break py FUNC / py FILE:LINE stop on Python lines (bdb's), where pdb's
    n, p and ll work; a condition; q aborts; nl steps from an op stop to the
    next line."""
    c = session(env)
    cell(c, MLP)
    cell(c, "net = MLP()")
    cell(c, "class DS(torch.utils.data.Dataset):\n    def __len__(self): return 4\n"
            "    def __getitem__(self, i):\n        v = i * 2\n"
            "        return torch.tensor([float(v)])\n")
    cell(c, "ds = DS()")
    c.sendline("%break py DS.__getitem__")
    c.expect(r"Breakpoint 1: py DS\.__getitem__ \(a Python line: <cell \d+>:3\)")
    c.expect(PROMPT)
    c.sendline("ds[3]")
    c.expect(r"stopped \(breakpoint 1, py DS\.__getitem__\): a Python line")
    c.expect(r"-> v = i \* 2")
    c.expect(DBG)
    at_stop(c, "p i", "3")
    at_stop(c, "n", r"-> return torch\.tensor")
    at_stop(c, "p v", "6")
    c.sendline("c")
    c.expect(r"tensor\(\[6\.\]\)")
    c.expect(PROMPT)
    cell(c, "%delete 1")
    # FILE:LINE in forward: line 7 of the cell is `scale = 2.0`
    c.sendline("print(net.forward.__code__.co_filename)")
    c.expect(r"(<cell \d+>)")
    mlp_cell = c.match.group(1)
    c.expect(PROMPT)
    c.sendline(f"%break py {mlp_cell}:7 if x.shape[0] > 2")
    c.expect(r"Breakpoint 2: py <cell \d+>:7 if x\.shape\[0\] > 2")
    c.expect(PROMPT)
    cell(c, "small = net(x[:2])")
    c.sendline("z = net(x)")
    c.expect(r"stopped \(breakpoint 2, py <cell \d+>:7 if")
    c.expect(r"-> scale = 2\.0")
    c.expect(DBG)
    at_stop(c, "p h.shape", r"torch\.Size\(\[16, 8\]\)")
    at_stop(c, "ll", r"7 B->\s+scale = 2\.0")
    at_stop(c, "%break", r"2    yes      1     py <cell \d+>:7")
    c.sendline("q")
    c.expect(r"Stopped: quit at the debugger, at <cell \d+>:7")
    c.expect(PROMPT)
    c.sendline("z = net(x)")  # still set after q
    c.expect(r"stopped \(breakpoint 2")
    c.expect(DBG)
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "%delete all")
    cell(c, "z = net(x); print('ran on')", "ran on")
    c.expect(PROMPT)
    # from an op stop, nl goes to the next line of the frame
    cell(c, "%break tanh", "Breakpoint 3: tanh")
    c.expect(PROMPT)
    c.sendline("z = net(x)")
    c.expect(r"stopped \(breakpoint 3, tanh\)")
    c.expect(DBG)
    at_stop(c, "nl", r"-> scale = 2\.0")
    at_stop(c, "p h.shape", r"torch\.Size\(\[16, 8\]\)")
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "%delete all")
    test_repl.leave(c)


def test_post_mortem_in_backward(env):
    """An error raised in backward(): the post-mortem names the failing node
    and the forward line that recorded it; fwd selects that frame when it is
    still running. Without %pdb or a breakpoint nothing was recorded."""
    c = session(env, SETUP[:1])
    cell(c, "class Twice(torch.autograd.Function):\n    @staticmethod\n"
            "    def forward(ctx, t):\n        return t * 2\n    @staticmethod\n"
            "    def backward(ctx, g):\n        return g.reshape(5)\n")
    cell(c, "def train(w):\n    total = Twice.apply(w).sum()\n    scale = 3\n"
            "    total.backward()\n")
    cell(c, "w = torch.randn(3, requires_grad=True)")
    c.sendline("train(w)")
    c.expect(r"RuntimeError: shape '\[5\]' is invalid for input of size 3")
    c.expect(PROMPT)
    c.sendline("%debug")
    c.expect(r"> <cell \d+>\(7\)backward\(\)")
    c.expect(DBG)
    c.sendline("fwd")
    c.expect("not after an error in backward")
    c.expect(DBG)
    c.sendline("q")
    c.expect(PROMPT)
    cell(c, "%pdb on", "turned ON")
    c.expect(PROMPT)
    c.sendline("train(w)")
    c.expect(r"raised in backward\(\), at the node TwiceBackward; its forward op was recorded "
             r"at <cell \d+>:2")
    c.expect(r"> <cell \d+>\(7\)backward\(\)")
    c.expect(DBG)
    at_stop(c, "p g.shape", r"torch\.Size\(\[3\]\)")
    at_stop(c, "fwd", r"the forward frame: train in <cell \d+>, now at line 4; the forward op "
            r"was at line 2", r"2\s+total = Twice\.apply\(w\)\.sum\(\)")
    at_stop(c, "p scale", "3")
    c.sendline("c")
    c.expect(r"RuntimeError: shape '\[5\]' is invalid for input of size 3")
    c.expect(PROMPT)
    c.sendline("%debug")  # the same report, from sys.last_*
    c.expect(r"raised in backward\(\), at the node TwiceBackward")
    c.expect(DBG)
    c.sendline("q")
    c.expect(PROMPT)
    cell(c, "%pdb off", "OFF")
    c.expect(PROMPT)
    test_repl.leave(c)


def test_back_in_time(env):
    """%timetravel on: back twice, history, now, then c; nothing kept when off."""
    c = session(env)
    cell(c, "%break model.4", "Breakpoint 1: model.4")
    c.expect(PROMPT)
    c.sendline("h = model(x)")
    c.expect(DBG)
    at_stop(c, "back", "nothing is kept: %timetravel on")
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "%timetravel on 3", "its last 3 ops are kept")
    c.expect(PROMPT)
    c.sendline("h = model(x)")
    c.expect(r"stopped \(breakpoint 1, model\.4\)")
    c.expect(DBG)
    at_stop(c, "history", r"-2  linear in model\.2", r"-1  tanh in model\.3",
            r"0  linear in model\.4.*<== you are here")
    at_stop(c, "back", r"back in time: 1 op ago\): forward tanh, op 4 of this statement, in "
            r"model\.3")
    at_stop(c, "out.abs().max() <= 1", "True")
    at_stop(c, "back", r"back in time: 2 ops ago\): forward linear, op 3")
    at_stop(c, "back", r"only 0 earlier ops kept")
    at_stop(c, "now", "back at the live op")
    at_stop(c, "p out.shape", r"torch\.Size\(\[16, 3\]\)")
    c.sendline("c")
    c.expect(PROMPT)
    cell(c, "%timetravel off", "nothing is kept")
    c.expect(PROMPT)
    cell(c, "%delete all")
    test_repl.leave(c)


def test_run_pdb(env):
    """nndb run --pdb: post-mortem at the frame that raised, as python -m pdb."""
    test_repl.NNDB = NNDB
    script = env.write("fail.py", "def scale(t, k):\n    return t * k\n\nprint('start')\n"
                       "scale(2, None)\n")
    c = env.spawn(["run", "--pdb", script])
    c.expect("start")
    c.expect(r"fail\.py\(2\)scale\(\)")
    c.expect(DBG)
    at_stop(c, "p k", "None")
    at_stop(c, "u", r"-> scale\(2, None\)")
    c.sendline("q")
    c.expect("TypeError: unsupported operand")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 1, c.exitstatus
    r = env.run(["run", "--pdb", script], stdin="")  # no terminal: no prompt, the error
    assert r.returncode == 1 and "TypeError" in r.stderr and "(nndb)" not in r.stdout, r.stdout


# ---- pytest ----
try:
    import pytest

    @pytest.fixture
    def env():
        e = test_repl.Env()
        yield e
        e.close()
except ImportError:  # run as a script
    pass


def main(argv):
    global NNDB
    if "--nndb" in argv:
        NNDB = os.path.abspath(argv[argv.index("--nndb") + 1])
        i = argv.index("--nndb")
        argv = argv[:i] + argv[i + 2:]
    tests = [(n, f) for n, f in globals().items() if n.startswith("test_") and callable(f)]
    if argv:
        tests = [(n, f) for n, f in tests if any(a in n for a in argv)]
    passed = failed = 0
    for name, fn in tests:
        env = test_repl.Env()
        t0 = time.monotonic()
        try:
            fn(env)
        except Exception as e:  # noqa: BLE001
            failed += 1
            detail = str(e) or type(e).__name__
            if isinstance(e, (pexpect.TIMEOUT, pexpect.EOF)):
                detail = type(e).__name__ + ": " + detail[-1500:]
            tb = traceback.extract_tb(e.__traceback__)
            line = next((f.lineno for f in reversed(tb) if f.filename == __file__), "?")
            print(f"FAIL {name} (line {line}): {detail}")
        else:
            passed += 1
            print(f"ok   {name} ({time.monotonic() - t0:.1f} s)")
        finally:
            env.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""The debugger in the REPL, in a real pty (pexpect): a 3-layer MLP, a
breakpoint in model.2, stepping, a backward stop, w, l, watch, an edit at a
stop, Ctrl-C back to the (nndb) prompt, q, and the variables still there;
then `nndb run --break` and `nndb debug` on a terminal. Prints "N passed,
M failed".

    /usr/bin/python3 tests/repl/test_debugger.py [--nndb PATH]
"""
import os
import sys
import time
import traceback

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_repl  # noqa: E402  (Env, PROMPT)

DBG = r"\(nndb\) "
SETUP = ["manual_seed(0)",
         "model = Sequential(Linear(4, 8), Tanh(), Linear(8, 8), Tanh(), Linear(8, 3))",
         "x = randn(16, 4); y = randint(0, 3, (16,))",
         "opt = SGD(model.parameters(), lr=0.1)",
         "clean = cross_entropy(model(x), y).item()"]


def session(env):
    c = env.spawn()
    c.expect(test_repl.PROMPT)
    for line in SETUP:
        c.sendline(line)
        c.expect(test_repl.PROMPT)
    return c


def test_walkthrough(env):
    c = session(env)
    c.sendline("%break model.2")
    c.expect("Breakpoint 1: model.2")
    c.expect(test_repl.PROMPT)
    c.sendline("loss = cross_entropy(model(x), y); opt.zero_grad(); loss.backward(); opt.step()")
    c.expect(r"stopped \(breakpoint 1, model\.2\): forward linear, op 3 of this statement, in model\.2")
    c.expect(r"\^~~~~~~~")  # the caret under model(x)
    c.expect(DBG)
    c.sendline("b backward")
    c.expect("Breakpoint 2: backward")
    c.expect(DBG)
    c.sendline("s")
    c.expect(r"stopped \(step\): forward tanh, op 4 of this statement, in model\.3")
    c.expect(DBG)
    c.sendline("")  # repeats s
    c.expect(r"stopped \(step\): forward linear, op 5 of this statement, in model\.4")
    c.expect(DBG)
    c.sendline("w")
    c.expect(r"module stack:\s+model\s+model\.4")
    c.expect(DBG)
    c.sendline("l")
    c.expect(r"->    1  loss = cross_entropy")
    c.expect(DBG)
    c.sendline("watch out.abs().max()")
    c.expect("Watch 1")
    c.expect(DBG)
    c.sendline("out[0, 0] = 100.0")
    c.expect(DBG)
    c.sendline("s")
    c.expect(r"forward cross_entropy")
    c.expect(r"watch 1: out.abs\(\).max\(\) = tensor\(")
    c.expect(DBG)
    c.sendline("c")
    c.expect(r"stopped \(breakpoint 2, backward\): backward cross_entropy, node 1 of 6")
    c.expect(DBG)
    c.sendline("grad.shape")
    c.expect(r"torch\.Size\(\[\]\)")
    c.expect(DBG)
    c.sendline("inputs[0].mean()")
    c.expect(r"tensor\(")
    c.expect(DBG)
    c.sendline("q")
    c.expect("DebuggerQuit: quit at the debugger")
    c.expect(test_repl.PROMPT)
    c.sendline("%delete all")
    c.expect(test_repl.PROMPT)
    c.sendline("print(x.shape, loss.item() > clean + 1)")
    c.expect(r"torch\.Size\(\[16, 4\]\) True")
    c.expect(test_repl.PROMPT)
    test_repl.leave(c)


def test_ctrl_c_returns_to_the_prompt(env):
    c = session(env)
    c.sendline("breakpoint()\nfor i in range(10000000):\n    h = tanh(x)\n")
    c.expect(r"stopped \(breakpoint\(\)\): forward tanh")
    c.expect(DBG)
    c.sendline("c")
    time.sleep(0.5)
    c.sendintr()
    c.expect(r"stopped \(Ctrl-C\): forward tanh", timeout=5)
    c.expect(DBG)
    c.sendline("i > 0")
    c.expect("True")
    c.expect(DBG)
    c.sendline("q")
    c.expect(test_repl.PROMPT)
    c.sendline("print('alive', h.shape)")
    c.expect(r"alive torch\.Size\(\[16, 4\]\)")
    c.expect(test_repl.PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)


def test_ctrl_d_continues_and_up_recalls(env):
    c = session(env)
    c.sendline("%break tanh")
    c.expect(test_repl.PROMPT)
    c.sendline("h = model(x); print('done')")
    c.expect(DBG)
    c.sendline("p out.shape[1] * 1000")
    c.expect("8000")
    c.expect(DBG)
    c.send(test_repl.UP + "\r")  # readline history at the (nndb) prompt
    c.expect("8000")
    c.expect(DBG)
    c.sendcontrol("d")
    c.expect(DBG)  # the second tanh
    c.sendcontrol("d")
    c.expect("done")
    c.expect(test_repl.PROMPT)
    test_repl.leave(c)


def test_run_break_and_debug_on_a_terminal(env):
    script = env.write("train.nn", "\n".join(SETUP) + "\nloss = cross_entropy(model(x), y)\nprint('end', loss.item() > 0)\n")
    c = env.spawn(["run", "--break", "cross_entropy", script])
    c.expect(r"stopped \(breakpoint 1, cross_entropy\): forward cross_entropy")
    c.expect(r"train\.nn:5")
    c.expect(DBG)
    c.sendline("c")
    c.expect(r"train\.nn:6")
    c.expect(DBG)
    c.sendline("c")
    c.expect("end True")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0
    c = env.spawn(["debug", script])
    c.expect(r"stopped \(breakpoint\(\)\): forward")
    c.expect(DBG)
    c.send("p out.sha\t")  # Tab completes the names bound at the stop
    c.expect("out.shape")
    c.send("\r")
    c.expect(r"torch\.Size\(\[16, 8\]\)")
    c.expect(DBG)
    c.sendline("c")
    c.expect("end True")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0
    # a bad spec is a usage error
    r = env.run(["run", "--break", "no-such", script])
    assert r.returncode == 2 and "is not a breakpoint spec" in r.stderr, r.stderr
    # without a terminal the stops are tracepoints
    r = env.run(["run", "--break", "tanh", script], stdin="")
    assert r.returncode == 0 and r.stdout.count("stopped (breakpoint 1, tanh)") == 4, r.stdout


def main(argv):
    if "--nndb" in argv:
        test_repl.NNDB = os.path.abspath(argv[argv.index("--nndb") + 1])
    tests = [(n, f) for n, f in globals().items() if n.startswith("test_") and callable(f)]
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
                detail = type(e).__name__ + ": " + detail[-900:]
            tb = traceback.extract_tb(e.__traceback__)
            print(f"FAIL {name} (line {tb[-1].lineno if tb else '?'}): {detail}")
        else:
            passed += 1
            print(f"ok   {name} ({time.monotonic() - t0:.1f} s)")
        finally:
            env.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`jupyter console --kernel nndb` end to end in a pseudo-terminal (pexpect):
the console finds the kernelspec through JUPYTER_PATH, runs a cell, shows
its output, continues a block with the indent the kernel's is_complete
reply asks for, shows an error, and exits, taking the kernel down with it.
"""
import os
import re
import sys
import time

import pexpect
import pytest

import harness

# prompt_toolkit paints the prompt in colour: allow escapes around the number.
ESC = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"


def prompt(n):
    return re.compile(r"In \[" + ESC + str(n) + ESC + r"\]: ")


def kernel_processes():
    """Pids of processes whose command line names a connection file in this
    session's runtime directory (where jupyter console writes its own)."""
    runtime = os.environ["JUPYTER_RUNTIME_DIR"]
    found = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().decode(errors="replace")
        except OSError:
            continue
        if runtime in cmd and "kernel-" in cmd:
            found.add(int(pid))
    return found


def test_console_runs_cells_and_exits(prefix):
    env = dict(os.environ, TERM="xterm", COLUMNS="100", LINES="40")
    before = kernel_processes()
    c = pexpect.spawn("/usr/bin/python3", ["-m", "jupyter_console", "--kernel", harness.KERNEL],
                      env=env, encoding="utf-8", timeout=30, dimensions=(40, 100))
    log = []
    c.logfile_read = type("L", (), {"write": lambda self, s: log.append(s),
                                    "flush": lambda self: None})()
    try:
        c.expect(prompt(1))
        if harness.IS_NNDB:
            assert "nndb" in "".join(log).lower(), "the kernel's banner is not shown"
        c.send("print(6 * 7)\r")
        c.expect("42")
        c.expect(prompt(2))
        # A block: the console asks is_complete, indents by the reply's indent.
        c.send("for i in range(2):\r")
        c.expect(r"\.\.\.: ")
        c.send("print('row', i * 10)\r")
        # The next key only once the console shows the next line: a key that
        # comes while it waits for is_complete's reply runs inside that wait
        # and prompt_toolkit fails ("cannot enter context"), with ipykernel too.
        c.expect(r"10" + ESC + r"\)" + ESC + r"\r+\n" + ESC + r" *\.\.\.: ")
        c.send("\r")
        c.expect("row 0")
        c.expect("row 10")
        c.expect(prompt(3))
        c.send("no_such_thing_here\r")
        c.expect("NameError")
        c.expect(prompt(4))
        c.send("exit()\r")  # the kernel answers with an ask_exit payload
        c.expect(pexpect.EOF, timeout=20)
    except (pexpect.TIMEOUT, pexpect.EOF) as e:
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(log))
        pytest.fail(f"console transcript did not match ({type(e).__name__}):\n{text[-2000:]}")
    finally:
        c.close(force=True)
    assert c.exitstatus == 0, (c.exitstatus, c.signalstatus)
    # The console shut its kernel down.
    deadline = time.monotonic() + 5
    while kernel_processes() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not kernel_processes() - before, "the console's kernel is still running"

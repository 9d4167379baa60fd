#!/usr/bin/python3
"""End-to-end tests of the nndb REPL in a real pseudo-terminal (pexpect).

Each test spawns build/nndb with HOME and XDG_STATE_HOME in a fresh temporary
directory, types at it as a person would, and checks what the terminal shows,
the history file, and the exit status. Prints "N passed, M failed" and exits
non-zero when anything failed.

    /usr/bin/python3 tests/repl/test_repl.py [--nndb PATH] [--stub] [NAME...]

--stub: the binary was linked with tests/repl/stub_session.c (a stand-in for
the language); tests that need the real language are skipped.
NAME: run only tests whose name contains one of these words.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.join(ROOT, "build", "nndb")
STUB = False

# The prompt, painted or not ("\x1b[1;32mnndb>\x1b[0m " or "nndb> ").
PROMPT = r"nndb>(?:\x1b\[0m)? "
CONT = r"\.\.\.(?:\x1b\[0m)?   "
SGR = re.compile(r"\x1b\[[0-9;]*m")
UP = "\x1b[A"
TIMEOUT = 15


class Skip(Exception):
    pass


def needs_language():
    if STUB:
        raise Skip("needs the real language")


class Env:
    """A temporary HOME / XDG_STATE_HOME / working directory."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="nndb-repl-")
        self.home = os.path.join(self.dir, "home")
        self.state = os.path.join(self.dir, "state")
        self.cwd = os.path.join(self.dir, "work")
        for d in (self.home, self.cwd):
            os.makedirs(d)

    def vars(self, **extra):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "XDG_STATE_HOME": self.state,
            "TERM": "xterm",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "INPUTRC": "/dev/null",
        }
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                env[k] = os.environ[k]
        for k, v in extra.items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
        return env

    def history_file(self):
        return os.path.join(self.state, "nndb", "history")

    def spawn(self, args=(), **extra):
        # Colour is off unless a test asks for it (NO_COLOR=None removes it).
        env = self.vars(**{"NO_COLOR": "1", **extra})
        child = pexpect.spawn(NNDB, list(args), env=env, cwd=self.cwd, encoding="utf-8",
                              timeout=TIMEOUT, dimensions=(40, 120))
        return child

    def run(self, args, stdin=None, **extra):
        env = self.vars(**extra)
        return subprocess.run([NNDB] + list(args), input=stdin, capture_output=True, text=True,
                              env=env, cwd=self.cwd, timeout=60)

    def write(self, name, text):
        path = os.path.join(self.cwd, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def start(env, **extra):
    child = env.spawn(**extra)
    child.expect(PROMPT)
    return child


def leave(child):
    """Ctrl-D at an empty prompt; the REPL must exit with status 0."""
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, f"exit status {child.exitstatus}, signal {child.signalstatus}"


def history_lines(env):
    with open(env.history_file()) as f:
        return f.read().splitlines()


# ---------------------------------------------------------------- tests


def test_banner_is_one_screen_and_says_how_to_begin(env):
    child = env.spawn()
    child.expect(PROMPT)
    banner = child.before
    lines = banner.strip("\r\n").splitlines()
    assert len(lines) <= 20, f"banner is {len(lines)} lines"
    for word in ("nndb", "%help", "Ctrl-D", "randn", "Linear"):
        assert word in banner, f"banner lacks {word!r}: {banner!r}"
    leave(child)


def test_ctrl_d_exits_0(env):
    leave(start(env))


def test_exit_and_quit_exit_0(env):
    for word, status in (("exit()", 0), ("quit()", 0), ("%exit", 0), ("%quit", 0), ("%quit 4", 4)):
        child = start(env)
        child.sendline(word)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == status, f"{word}: status {child.exitstatus}"
    child = start(env)
    child.sendline("%exit soon")
    child.expect("exit status")
    child.expect(PROMPT)
    leave(child)


def test_values_stay_between_lines(env):
    child = start(env)
    child.sendline("answer = 42")
    child.expect(PROMPT)
    child.sendline("answer")
    child.expect(r"[\r\n]42\r\n")
    child.expect(PROMPT)
    leave(child)


def test_history_across_restarts(env):
    child = start(env)
    child.sendline("remembered = 31337")
    child.expect(PROMPT)
    leave(child)
    assert os.path.isfile(env.history_file()), "no history file under XDG_STATE_HOME"
    assert "remembered = 31337" in history_lines(env)

    child = start(env)
    child.sendline("other = 1")
    child.expect(PROMPT)
    # Up twice: past this session's line to the previous session's.
    child.send(UP + UP)
    child.expect("remembered = 31337")
    child.send("\r")
    child.expect(PROMPT)
    child.sendline("remembered")
    child.expect(r"[\r\n]31337\r\n")
    child.expect(PROMPT)
    leave(child)


def test_history_default_path_under_home(env):
    child = start(env, XDG_STATE_HOME=None)
    child.sendline("in_home = 7")
    child.expect(PROMPT)
    leave(child)
    path = os.path.join(env.home, ".local", "state", "nndb", "history")
    assert os.path.isfile(path), "no ~/.local/state/nndb/history"
    assert "in_home = 7" in open(path).read()


def test_history_write_failure_is_a_warning(env):
    # XDG_STATE_HOME is a plain file: the directory cannot be created.
    blocker = env.write("not-a-dir", "")
    child = env.spawn(XDG_STATE_HOME=blocker)
    child.expect("warning")
    child.expect(PROMPT)
    child.sendline("still_works = 5")
    child.expect(PROMPT)
    child.sendline("still_works")
    child.expect(r"[\r\n]5\r\n")
    child.expect(PROMPT)
    leave(child)


def test_ctrl_r_searches_history(env):
    child = start(env)
    child.sendline("searched_for = 99")
    child.expect(PROMPT)
    child.sendline("unrelated = 1")
    child.expect(PROMPT)
    # In full runs on a loaded machine the search sometimes never started:
    # a Ctrl-R that arrives before readline has the terminal in raw mode
    # again is taken by the tty itself (canonical mode's "reprint line"
    # key). So start the search, see its prompt, and only then type; if
    # the prompt does not come, clear the line and try again.
    for attempt in range(3):
        time.sleep(0.2)
        child.sendcontrol("r")
        try:
            child.expect("reverse-i-search", timeout=3)
            break
        except pexpect.TIMEOUT:
            child.sendcontrol("u")
            child.sendline("")
            child.expect(PROMPT)
    else:
        raise AssertionError("Ctrl-R never started a reverse search")
    child.send("searched")
    # Wait until readline has read every typed letter and shows the whole
    # term as the match (highlighted, or plain on terminals without it):
    # under load the letters may lag behind the search prompt.
    child.expect([r"searched\x1b\[27m", "searched_for = 99"], timeout=10)
    child.send("\r")
    # Leaving the search redraws the prompt before the line runs; wait for
    # a marker that only prints after it ran, so the Ctrl-D below reaches
    # readline and not the tty while the line still runs (where the switch
    # back to raw mode can drop it).
    child.sendline('print("after" + "search")')
    child.expect("aftersearch")
    child.expect(PROMPT)
    leave(child)
    # The found line ran again, so it is in the history twice.
    lines = history_lines(env)
    assert lines.count("searched_for = 99") == 2, lines


def test_tab_completes_names_attributes_magics_and_paths(env):
    env.write("script_to_load.py", "loaded = 1\n")
    child = start(env)
    child.send("x = linsp\t")
    time.sleep(0.3)
    child.send("(0, 1, 3)\r")
    child.expect(PROMPT)
    child.send("x.su\t\t")  # ambiguous (sub, sum, ...): the second Tab lists them
    child.expect("sum")
    child.expect(PROMPT)  # the prompt is drawn again under the list
    child.sendcontrol("u")
    child.send("x.nume\t")
    time.sleep(0.3)
    child.send("()\r")
    child.expect(PROMPT)
    child.send("%hist\t")
    time.sleep(0.3)
    child.send("\r")
    child.expect(PROMPT)
    child.send("%load script_to\t")
    time.sleep(0.3)
    child.send("\r")
    child.expect(PROMPT)
    leave(child)
    lines = history_lines(env)
    for want in ("x = linspace(0, 1, 3)", "x.numel()", "%history", "%load script_to_load.py"):
        assert want in lines, f"{want!r} not typed by completion; history: {lines}"


def test_tab_lists_candidates(env):
    child = start(env)
    child.send("zeros\t\t")
    child.expect("zeros_like")
    child.expect(PROMPT)
    child.sendcontrol("u")
    child.send("\r")
    child.expect(PROMPT)
    leave(child)


def test_tab_completes_keyword_arguments(env):
    needs_language()
    child = start(env)
    child.send("t = zeros(2, requires_g\t")  # completes to "requires_grad="
    time.sleep(0.3)
    child.send("True)\r")
    child.expect(PROMPT)
    leave(child)
    assert "t = zeros(2, requires_grad=True)" in history_lines(env), history_lines(env)


def test_tab_completes_after_a_subscript(env):
    needs_language()
    child = start(env)
    child.send("model = Sequential(Linear(2, 4), ReLU())\r")
    child.expect(PROMPT)
    child.send("w = model[0].wei\t")  # completes to "weight"
    time.sleep(0.3)
    child.send("\r")
    child.expect(PROMPT)
    leave(child)
    assert "w = model[0].weight" in history_lines(env), history_lines(env)


def test_tab_indents_and_backspace_dedents(env):
    child = start(env)
    child.sendline("for i in range(2):")
    child.expect(CONT)
    # The line is pre-filled with four spaces: Backspace removes the whole
    # level and Tab at the start of the line puts it back; from six spaces,
    # Backspace goes back to four.
    child.send("\x7f\tz = i\r")
    child.expect(CONT)
    child.send("  \x7fw = i\r")
    child.expect(CONT)
    child.send("\r")
    child.expect(PROMPT)
    leave(child)
    lines = history_lines(env)
    assert "    z = i" in lines and "    w = i" in lines, lines


def test_multiline_block_with_auto_indent(env):
    child = start(env)
    child.sendline("for i in range(3):")
    child.expect(CONT)
    child.sendline("last = i")  # typed without indent: the prompt pre-fills it
    child.expect(CONT)
    child.sendline("")  # an empty line ends the block
    child.expect(PROMPT)
    child.sendline("last")
    child.expect(r"[\r\n]2\r\n")
    child.expect(PROMPT)
    leave(child)
    assert "    last = i" in history_lines(env), history_lines(env)


def test_multiline_nested_blocks(env):
    needs_language()
    child = start(env)
    child.sendline("total = 0")
    child.expect(PROMPT)
    child.sendline("for i in range(4):")
    child.expect(CONT)
    child.sendline("if i % 2 == 0:")
    child.expect(CONT)
    child.sendline("total = total + i")  # pre-filled with 8 spaces
    child.expect(CONT)
    child.sendline("")
    child.expect(PROMPT)
    child.sendline("total")
    child.expect(r"[\r\n]2\r\n")
    child.expect(PROMPT)
    leave(child)


def test_open_bracket_continues(env):
    needs_language()
    child = start(env)
    child.sendline("v = [1,")
    child.expect(CONT)
    child.sendline("")  # inside a bracket an empty line does not end the input
    child.expect(CONT)
    child.sendline("2, 3]")
    child.expect(PROMPT)
    child.sendline("len(v)")
    child.expect(r"[\r\n]3\r\n")
    child.expect(PROMPT)
    leave(child)


def test_ctrl_c_stops_a_loop_within_half_a_second(env):
    child = start(env)
    # A one-line compound statement runs at once (as in IPython); no empty
    # line follows it, since a queued one would give a second prompt.
    child.sendline("for i in range(10**9): x = i")
    time.sleep(1.0)
    t0 = time.monotonic()
    child.sendcontrol("c")
    child.expect("KeyboardInterrupt")
    child.expect(PROMPT)
    elapsed = time.monotonic() - t0
    child.sendline("x")
    child.expect(r"[\r\n](\d+)\r\n")
    x = int(child.match.group(1))
    assert x > 0, "x was not kept"
    child.expect(PROMPT)
    leave(child)
    assert elapsed < 0.5, f"prompt came back after {elapsed:.3f} s"
    print(f"   ctrl-c to prompt: {elapsed * 1000:.0f} ms (x = {x})")


def test_ctrl_c_at_prompt_clears_the_line(env):
    child = start(env)
    child.send("half typed")
    time.sleep(0.2)
    child.sendcontrol("c")
    child.expect("KeyboardInterrupt")
    child.expect(PROMPT)
    child.sendline("fresh = 3")
    child.expect(PROMPT)
    child.sendline("fresh")
    child.expect(r"[\r\n]3\r\n")
    child.expect(PROMPT)
    leave(child)


def test_ctrl_c_in_a_block_drops_the_block(env):
    child = start(env)
    child.sendline("for i in range(3):")
    child.expect(CONT)
    child.sendcontrol("c")
    child.expect("KeyboardInterrupt")
    child.expect(PROMPT)
    child.sendline("after = 8")
    child.expect(PROMPT)
    child.sendline("after")
    child.expect(r"[\r\n]8\r\n")
    # Ctrl-D only once the prompt is back: typed while a line runs, the
    # terminal (still in canonical mode) eats it before readline reads
    child.expect(PROMPT)
    leave(child)


def test_input_reads_through_the_front_end(env):
    child = start(env)
    child.sendline('input("? ")')
    child.expect(r"\? ")
    child.sendline("typed answer")
    child.expect("'typed answer'")
    child.expect(PROMPT)
    leave(child)


def test_ctrl_d_at_a_continuation_prompt_ends_the_block(env):
    needs_language()
    child = start(env)
    child.sendline("acc = 0")
    child.expect(PROMPT)
    child.sendline("for i in range(3):")
    child.expect(CONT)
    child.sendline("acc = acc + i")
    child.expect(CONT)
    # The line is pre-filled with four spaces: Ctrl-D still ends the block
    # (docs/repl.md), it does not wait for an empty line.
    time.sleep(0.2)
    child.sendcontrol("d")
    child.expect(PROMPT)
    child.sendline("acc")
    child.expect(r"[\r\n]3\r\n")
    child.expect(PROMPT)
    # Ctrl-D on a line with text deletes under the cursor, as readline does.
    child.send("acc7")
    child.send("\x1b[D")  # Left: the cursor on the 7
    child.sendcontrol("d")
    child.send("\r")
    child.expect(r"[\r\n]3\r\n")
    child.expect(PROMPT)
    leave(child)


def test_typing_your_own_indent_on_top_of_the_auto_indent(env):
    needs_language()
    child = start(env)
    child.sendline("total = 0")
    child.expect(PROMPT)
    child.sendline("for i in range(4):")
    child.expect(CONT)
    # Typed as in an editor: four spaces of one's own on every body line.
    child.sendline("    sq = i * i")
    child.expect(CONT)
    child.sendline("    total = total + sq")
    child.expect(CONT)
    child.sendline("")
    child.expect(PROMPT)
    assert "unexpected indent" not in child.before, child.before
    child.sendline("total")
    child.expect(r"[\r\n]14\r\n")
    child.expect(PROMPT)
    # From then on the prompt does not pre-fill: a nested block typed by hand.
    child.sendline("for i in range(2):")
    child.expect(CONT)
    child.sendline("    if i:")
    child.expect(CONT)
    child.sendline("        total = total + 100")
    child.expect(CONT)
    child.sendline("")
    child.expect(PROMPT)
    child.sendline("total")
    child.expect(r"[\r\n]114\r\n")
    child.expect(PROMPT)
    leave(child)


def test_up_recalls_a_block_whole(env):
    needs_language()
    child = start(env)
    child.sendline("hits = 0")
    child.expect(PROMPT)
    child.sendline("for i in range(5):")
    child.expect(CONT)
    child.sendline("hits = hits + 1")
    child.expect(CONT)
    child.sendline("")
    child.expect(PROMPT)
    leave(child)
    # The file keeps the block as one entry (a time line before each entry).
    text = open(env.history_file()).read()
    assert "for i in range(5):\n    hits = hits + 1\n" in text, text

    child = start(env)
    child.sendline("hits = 10")
    child.expect(PROMPT)
    # One Up past this session's line: the whole block of the last session.
    child.send(UP + UP)
    child.expect("hits = hits \\+ 1")
    child.send("\r")
    child.expect(PROMPT)
    child.sendline("hits")
    child.expect(r"[\r\n]15\r\n")
    child.expect(PROMPT)
    leave(child)


def test_cell_magic_runs_at_the_blank_line(env):
    """%%writefile takes the lines after it until a blank line, as in
    IPython's terminal (it used to run at once, with an empty body)."""
    needs_language()
    child = start(env)
    path = os.path.join(env.home, "wf.txt")
    child.sendline(f"%%writefile {path}")
    child.expect(CONT)
    child.sendline("hello there")
    child.expect(CONT)
    child.sendline("line two")
    child.expect(CONT)
    child.sendline("")
    child.expect("Writing ")
    child.expect(PROMPT)
    leave(child)
    text = open(path).read()
    assert text == "hello there\nline two\n", repr(text)


def test_ctrl_c_at_input_is_keyboard_interrupt(env):
    needs_language()
    child = start(env)
    child.sendline('answer = input("name? ")')
    child.expect(r"name\? ")
    time.sleep(0.2)
    child.sendcontrol("c")
    child.expect("KeyboardInterrupt")
    child.expect(PROMPT)
    assert "EOFError" not in child.before, child.before
    child.sendline("answer")
    child.expect("NameError")
    child.expect(PROMPT)
    leave(child)


def test_ipython_habits(env):
    needs_language()
    child = start(env, COLUMNS=None)

    def run(line, want=None, timeout=TIMEOUT):
        child.sendline(line)
        if want:
            child.expect(want, timeout=timeout)
        child.expect(PROMPT)
        return child.before

    run("6 * 7", r"[\r\n]42\r\n")
    run("_ + 1", r"[\r\n]43\r\n")
    run("__", r"[\r\n]42\r\n")
    out = run("quiet = 5; quiet;")
    assert "5" not in out.split("\n", 1)[-1], out
    # IPython's pinfo of a builtin: its docstring (the signature first) and type.
    run("zeros?", r"Docstring:\s*zeros\(\*size, \*, dtype=None[\s\S]*?A tensor filled with 0"
                  r"[\s\S]*?Type: +builtin_function_or_method")
    child.sendline("def sq(a):")
    child.expect(CONT)
    child.sendline("return a * a")
    child.expect(CONT)
    child.sendline("")
    child.expect(PROMPT)
    out = run("sq??", r"Source:\r\ndef sq\(a\):\r\n    return a \* a")
    run("!echo from the shell", r"[\r\n]from the shell\r\n")
    out = run("%timeit -r 3 -n 20 y = 3 * 4",
              r"[\d.]+ (ns|µs|ms|s) ± [\d.]+ (ns|µs|ms|s) per loop \(mean ± std\. dev\. of 3 runs, "
              r"20 loops each\)")
    # Without -n the loops are chosen so one run takes 0.2 s or more (a power
    # of ten, as IPython picks it: up to 2 s a run, 7 runs and the choosing).
    out = run("%timeit z = 1 + 1", r"per loop \(mean ± std\. dev\. of 7 runs, ([\d,]+) loops each\)",
              timeout=60)
    run("%time 2 ** 10", r"Wall time: .*\r\n1024\r\n")
    os.makedirs(os.path.join(env.cwd, "sub"))
    run("%cd sub", os.path.join(env.cwd, "sub"))
    run("%pwd", os.path.join(env.cwd, "sub"))
    run("%env NNDB_REPL_T=x1", "env: NNDB_REPL_T=x1")
    run("!echo $NNDB_REPL_T", r"[\r\n]x1\r\n")
    run("net = Sequential(Linear(2, 8), ReLU(), Linear(8, 1))")
    run("%whos", r"net +Sequential +33 parameters, 132 bytes")
    run("%who", r"[\r\n]net\t quiet\t sq\t \r\n")  # IPython's: each name, a tab and a space
    run("%tiem 1", r"Did you mean: %time\?")
    run("onez(2)", r"Did you mean: 'ones'\?")
    run("t = ones(2)")
    run("t.shap", r"Did you mean: 'shape'\?")
    leave(child)


def test_help_wraps_to_the_terminal_width(env):
    needs_language()
    child = pexpect.spawn(NNDB, [], env=env.vars(NO_COLOR="1"), cwd=env.cwd, encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(40, 50))
    child.expect(PROMPT)
    # Python's help (pydoc), printed at once rather than through a pager.
    child.sendline("help(len)")
    child.expect(PROMPT)
    text = child.before.replace("\r", "")
    assert "Help on built-in function len in module builtins:" in text, text
    assert "Return the number of items in a container." in text, text
    # A docstring line wider than the terminal is broken between words at
    # its width, keeping its indent.
    child.sendline("def fit(): 'Train the model on the batches of the loader until the loss "
                   "stops falling, then return the best weights seen.'")
    child.expect(PROMPT)
    child.sendline("help(fit)")
    child.expect(PROMPT)
    text = child.before.replace("\r", "")
    assert "fit()" in text, text
    doc = text.split("fit()\n", 1)[1].split("\n\n")[0].split("\n")
    assert len(doc) >= 2, text
    assert all(len(l) <= 50 and l.startswith("    ") for l in doc), doc
    joined = " ".join(l.strip() for l in doc)
    assert joined == ("Train the model on the batches of the loader until the loss stops falling, "
                      "then return the best weights seen."), joined
    leave(child)


def test_errors_do_not_end_the_session(env):
    child = start(env)
    child.sendline("undefined_name_xyz")
    child.expect("NameError")
    child.expect(PROMPT)
    child.sendline("ok_after = 1")
    child.expect(PROMPT)
    leave(child)


def _transcript(env, lines, **extra):
    import io
    child = env.spawn(**extra)
    log = io.StringIO()
    child.logfile_read = log
    child.expect(PROMPT)
    for line in lines:
        child.sendline(line)
        child.expect(PROMPT)
    leave(child)
    return log.getvalue()


def test_colour_only_when_allowed(env):
    lines = ["undefined_name_xyz", "n = 12345", "n"]
    plain = _transcript(env, lines, NO_COLOR="1")
    assert not SGR.search(plain), f"colour despite NO_COLOR: {SGR.findall(plain)[:5]}"
    dumb = _transcript(env, lines, NO_COLOR=None, TERM="dumb")
    assert not SGR.search(dumb), "colour despite TERM=dumb"
    painted = _transcript(env, lines, NO_COLOR=None)
    assert "\x1b[1;32mnndb>" in painted, "prompt not coloured"
    assert "\x1b[1;31mNameError" in painted, "error class not coloured"
    assert "\x1b[33m12345" in painted, "number in a result not coloured"


def test_script_run_exit_codes(env):
    env.write("ok.nn", 'print("hello from ok")\n')
    env.write("bad.nn", "good = 1\nundefined_name_xyz\n")
    r = env.run(["run", "ok.nn"])
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stdout == "hello from ok\n", repr(r.stdout)
    assert r.stderr == "", repr(r.stderr)
    r = env.run(["run", "bad.nn"])
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "NameError" in r.stderr and "bad.nn" in r.stderr, r.stderr
    assert "undefined_name_xyz" in r.stderr, r.stderr
    assert not SGR.search(r.stderr), "colour on a pipe"
    assert r.stdout == "", repr(r.stdout)
    r = env.run(["run", "missing.nn"])
    assert r.returncode == 1 and "missing.nn" in r.stderr, (r.returncode, r.stderr)


def test_plt_show_saves_the_figure_and_says_where(env):
    """A terminal shows no pictures: plt.show() in a script or at the prompt
    saves each figure as a PNG under the cache folder and prints its path."""
    needs_language()
    env.write("fig.py", "import matplotlib.pyplot as plt\nimport torch\n"
                        "plt.plot(torch.arange(5.0), torch.arange(5.0) ** 2)\nplt.show()\n"
                        "print('after')\n")
    r = env.run(["run", "fig.py"])
    assert r.returncode == 0, (r.returncode, r.stderr)
    m = re.match(r"<Figure size 640x480 with 1 Axes> saved to (\S+\.png)\nafter\n$", r.stdout)
    assert m, repr(r.stdout)
    path = m.group(1)
    assert path.startswith(os.path.join(env.home, ".cache", "nndb", "figures")), path
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    # at the prompt too, under $XDG_CACHE_HOME when it is set
    cache = os.path.join(env.dir, "cache")
    child = start(env, XDG_CACHE_HOME=cache)
    child.sendline("import matplotlib.pyplot as plt; plt.plot([1, 3, 2]); plt.show()")
    child.expect(r"saved to (\S+\.png)")
    shown = child.match.group(1)
    child.expect(PROMPT)
    leave(child)
    assert shown.startswith(os.path.join(cache, "nndb", "figures")) and os.path.getsize(shown) > 1000


def test_pictures_in_terminals_that_show_them(env):
    """kitty's and iTerm2's inline-picture protocols: the figure is drawn in
    the terminal (the same PNG as the saved file) before its path is said;
    other terminals get the path only."""
    needs_language()
    import base64
    for extra, start_seq in (({"TERM": "xterm-kitty"}, "\x1b_Ga=T,f=100,"),
                             ({"TERM_PROGRAM": "iTerm.app"}, "\x1b]1337;File=inline=1")):
        child = start(env, **extra)
        child.sendline("import matplotlib.pyplot as plt; plt.plot([1, 3, 2]); plt.show()")
        child.expect(r"saved to (\S+\.png)")
        shown, before = child.match.group(1), child.before
        child.expect(PROMPT)
        leave(child)
        assert start_seq in before, repr(before[:200])
        if "kitty" in extra.get("TERM", ""):
            payload = "".join(re.findall(r"\x1b_G[^;]*;([A-Za-z0-9+/=]*)\x1b\\", before))
        else:
            payload = re.search(r"\x1b\]1337;File=[^:]*:([A-Za-z0-9+/=]*)\x07", before).group(1)
        with open(shown, "rb") as f:
            assert base64.b64decode(payload) == f.read(), "the drawn picture is not the saved one"
    child = start(env, TERM="xterm")
    child.sendline("import matplotlib.pyplot as plt; plt.plot([1, 2]); plt.show()")
    child.expect(r"saved to (\S+\.png)")
    assert "\x1b_G" not in child.before and "1337;File" not in child.before
    child.expect(PROMPT)
    leave(child)


def test_script_from_stdin(env):
    r = env.run([], stdin='print("piped in")\n')
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stdout == "piped in\n", repr(r.stdout)
    r = env.run([], stdin="undefined_name_xyz\n")
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "NameError" in r.stderr, r.stderr
    r = env.run(["run", "-"], stdin='print("dash")\n')
    assert r.returncode == 0 and r.stdout == "dash\n", (r.returncode, r.stdout, r.stderr)


def test_script_error_traceback_names_the_line(env):
    needs_language()
    env.write("deep.nn", "def f(a):\n    return a + undefined_name_xyz\n\nf(1)\n")
    r = env.run(["run", "deep.nn"])
    assert r.returncode == 1
    assert "deep.nn" in r.stderr and "2" in r.stderr, r.stderr
    assert "NameError" in r.stderr, r.stderr


def test_script_exit_status(env):
    env.write("leave3.nn", "exit(3)\n")
    r = env.run(["run", "leave3.nn"])
    assert r.returncode == 3, (r.returncode, r.stderr)


def test_version_and_help(env):
    r = env.run(["--version"])
    assert r.returncode == 0 and re.match(r"nndb \d+\.\d+\.\d+\n", r.stdout), r.stdout
    r = env.run(["--help"])
    assert r.returncode == 0 and "run FILE" in r.stdout and "FILE.py" in r.stdout, r.stdout
    r = env.run(["help", "zeros"])
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "zeros(" in r.stdout, r.stdout
    r = env.run(["help", "no_such_topic_xyz"])
    assert r.returncode == 1 and "no_such_topic_xyz" in r.stderr, (r.returncode, r.stderr)


def test_progress_bar_is_drawn_and_erased(env):
    child = start(env)
    if STUB:
        child.sendline("progress")  # the stand-in's bar: 40 steps of "work"
    else:
        child.sendline("import time")
        child.expect(PROMPT)
        child.sendline("for i in progress(range(40), desc='work'): time.sleep(0.02)")
    child.expect(r"work \|[█▏▎▍▌▋▊▉ ]+\|\s+\d+% \d+/40")
    child.expect(r"\r\x1b\[K")  # erased when done
    child.expect(PROMPT)
    leave(child)


def test_live_plot_redraws_one_line_then_prints_once(env):
    needs_language()
    child = start(env)
    child.sendline("c = live_plot('loss')")
    child.expect(PROMPT)
    child.sendline("for i in range(400): c.add(1.0 / (i + 1)); _ = randn(300, 300) @ randn(300, 300)")
    child.expect(r"\r\x1b\[Kloss  [▁▂▃▄▅▆▇█]+")  # redrawn in place on stderr while the loop runs
    child.expect(r"\r\x1b\[K")                   # erased
    child.expect(r"loss  [▁▂▃▄▅▆▇█]+  min [0-9.]+  max 1  last [0-9.]+  \(\d+ points\)\r\n")
    child.expect(PROMPT)
    child.sendline("c.show()")
    child.expect(r"\(400 points\)")
    child.expect(PROMPT)
    leave(child)


def test_plot_shows_as_text(env):
    """plot() at the prompt: its sparkline text, and matplotlib's picture
    saved as a PNG whose path is said (as plt.show() does); a live_plot is
    text only (no file per redraw)."""
    needs_language()
    cache = os.path.join(env.dir, "cache")
    child = start(env, XDG_CACHE_HOME=cache)
    child.sendline("plot([3.0, 2.0, 1.5, 1.0, 0.8])")
    child.expect("[▁▂▃▄▅▆▇█]")
    child.expect(r"saved to (\S+\.png)")
    shown = child.match.group(1)
    child.expect(PROMPT)
    child.sendline("c = live_plot('loss')")
    child.expect(PROMPT)
    # The one-line loop runs at once; an empty line after it would print a
    # second prompt, and a Ctrl-D sent while that line ran would be lost.
    child.sendline("for i in range(5): c.add(1.0 / (i + 1))")
    child.expect(PROMPT)
    leave(child)
    assert shown.startswith(os.path.join(cache, "nndb", "figures")), shown
    with open(shown, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert len(os.listdir(os.path.join(cache, "nndb", "figures"))) == 1


def test_ctrl_c_interrupts_tensor_work(env):
    needs_language()
    child = start(env)
    child.sendline("w = randn(64, 64)")
    child.expect(PROMPT)
    child.sendline("while True:")
    child.expect(CONT)
    child.sendline("w = (w @ w).tanh()")
    child.expect(CONT)
    child.sendline("")
    time.sleep(1.0)
    t0 = time.monotonic()
    child.sendcontrol("c")
    child.expect("KeyboardInterrupt")
    child.expect(PROMPT)
    elapsed = time.monotonic() - t0
    child.sendline("w.shape")
    child.expect(r"64, 64")
    child.expect(PROMPT)
    leave(child)
    assert elapsed < 0.5, f"prompt came back after {elapsed:.3f} s"


def test_missing_python_packages_are_named(env):
    """A copy of nndb away from its python/ folder (and no NNDB_PYTHON_DIR)
    says what is missing and how to point at it, not "out of memory"."""
    if STUB:
        raise Skip("the stand-in session has no Python packages")
    exe = os.path.join(env.dir, "nndb")
    shutil.copy(NNDB, exe)
    script = env.write("x.py", "print(1)\n")
    for args in (["run", script], ["python", "-c", "pass"], []):
        r = subprocess.run([exe] + args, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                           env=env.vars(NNDB_PYTHON_DIR=None), cwd=env.cwd, timeout=60)
        assert r.returncode != 0, (args, r.stdout + r.stderr)
        assert "NNDB_PYTHON_DIR" in r.stderr and "out of memory" not in r.stderr, (args, r.stderr)


def test_term_units(env):
    """The painting and history helpers, compiled on their own (unit_term.c)."""
    exe = os.path.join(env.dir, "unit_term")
    srcs = [os.path.join(ROOT, p) for p in ("tests/repl/unit_term.c", "repl/repl_term.c",
                                            "repl/repl_history.c")]
    cmd = ["cc", "-std=c11", "-D_GNU_SOURCE", "-g", "-Wall", "-Wextra", "-Wno-unused-parameter",
           "-Wno-comment", "-I" + os.path.join(ROOT, "engine"), "-I" + os.path.join(ROOT, "binding"),
           "-fsanitize=address,undefined", "-o", exe] + srcs + ["-lreadline"]
    c = subprocess.run(cmd, capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-2000:]
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.endswith("0 failed\n"), r.stdout + r.stderr


# ---------------------------------------------------------------- runner


def main(argv):
    global NNDB, STUB
    words = []
    i = 0
    while i < len(argv):
        if argv[i] == "--nndb":
            NNDB = os.path.abspath(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--stub":
            STUB = True
        else:
            words.append(argv[i])
        i += 1
    if not os.access(NNDB, os.X_OK):
        print(f"{NNDB} is not built (make build/nndb)")
        print("0 passed, 1 failed")
        return 1
    tests = [(n, f) for n, f in sorted(globals().items(), key=lambda kv: kv[1].__code__.co_firstlineno
                                      if callable(kv[1]) and hasattr(kv[1], "__code__") else 0)
             if n.startswith("test_") and callable(f)]
    if words:
        tests = [(n, f) for n, f in tests if any(w in n for w in words)]
    passed = failed = skipped = 0
    for name, fn in tests:
        env = Env()
        t0 = time.monotonic()
        try:
            fn(env)
        except Skip as e:
            skipped += 1
            print(f"skip {name}: {e}")
            continue
        except Exception as e:  # noqa: BLE001 — report every failure the same way
            failed += 1
            tb = traceback.extract_tb(e.__traceback__)
            where = f"line {tb[-1].lineno}" if tb else "?"
            detail = str(e) or type(e).__name__
            if isinstance(e, (pexpect.TIMEOUT, pexpect.EOF)):
                # pexpect's text ends with the child's recent output.
                detail = type(e).__name__ + ": " + detail[-600:]
            print(f"FAIL {name} ({where}): {detail}")
        else:
            passed += 1
            print(f"ok   {name} ({time.monotonic() - t0:.1f} s)")
        finally:
            env.close()
    if skipped:
        print(f"({skipped} skipped)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/python3
"""The drills end to end: `nndb drill check` on malformed files (each error
at file:line), a scripted learner in the REPL (pty) and through the Jupyter
kernel (jupyter_client) — a wrong prediction, a failed attempt, a hint, the
fix, the quiz, reflect, export — with the exported evidence validated
against docs/drill-evidence.schema.json; progress that survives kill -9;
two sessions saving at once. Prints "N passed, M failed".

    /usr/bin/python3 tests/drills/test_drills.py [NAME...]
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import jsonschema
import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.abspath(os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb")))
SCHEMA = json.load(open(os.path.join(ROOT, "docs", "drill-evidence.schema.json")))
PROMPT = r"(?:\[[\w-]+ \d+/\d+\](?:\x1b\[0m)? )?nndb>(?:\x1b\[0m)? "


class Env:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="nndb-drills-")
        self.home = os.path.join(self.dir, "home")
        self.data = os.path.join(self.dir, "data")
        self.work = os.path.join(self.dir, "work")
        for d in (self.home, self.work):
            os.makedirs(d)

    def vars(self, **extra):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home,
               "XDG_DATA_HOME": self.data, "XDG_STATE_HOME": os.path.join(self.dir, "state"),
               "TERM": "xterm", "NO_COLOR": "1", "LANG": "C.UTF-8", "INPUTRC": "/dev/null",
               "USER": "ada"}
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                env[k] = os.environ[k]
        env.update(extra)
        return env

    def run(self, args, **extra):
        return subprocess.run([NNDB] + args, capture_output=True, text=True, cwd=self.work,
                              env=self.vars(**extra), timeout=120)

    def write(self, name, text):
        p = os.path.join(self.work, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def progress(self, drill_id):
        with open(os.path.join(self.data, "nndb", "drills", drill_id + ".json")) as f:
            return json.load(f)

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


GOOD = """---
id: tiny
title: A tiny drill
level: 1
minutes: 5
teaches: the runner
---

## read: Read this
Some text.

## do: Make x zero
```setup
x = tensor([1.0, 2.0])
```
```check
x.sum().item() == 0.0
```
```reference
x = x - x
```
hint: subtract x from itself

## quiz: Which?
choice: wrong
choice*: right
"""


def test_check_accepts_the_shipped_lessons(env):
    """Several lessons in one `nndb drill check`: the per-lesson lines, the
    summary and the mpirun skip. Every lesson is checked on its own (and its
    wrong fixes counted) by tests/drills/test_lessons.py; here a few cheap
    ones and the ranks lesson stand for the batch."""
    every = sorted(f for f in os.listdir(os.path.join(ROOT, "drills", "lessons")) if f.endswith(".md"))
    assert len(every) >= 4
    # every lesson lists at least two plausible wrong fixes
    for f in every:
        text = open(os.path.join(ROOT, "drills", "lessons", f)).read()
        assert text.count("\n```wrong\n") >= 2, f"{f}: fewer than two ```wrong blocks"
    picked = ["ddp-bugs.md", "gradient-check.md", "loss-at-init.md", "overfit-one-batch.md"]
    lessons = [os.path.join(ROOT, "drills", "lessons", f) for f in picked]
    r = env.run(["drill", "check"] + lessons)
    assert r.returncode == 0, r.stdout + r.stderr
    if shutil.which("mpirun"):
        assert f"{len(lessons)} passed, 0 failed" in r.stdout, r.stdout
    else:  # lessons that run ranks (ddp-bugs, ...) are skipped, saying so
        assert "skip ddp-bugs: it requires mpirun" in r.stdout, r.stdout
        assert (f"{len(lessons) - 1} passed, 0 failed, 1 skipped "
                "(mpirun missing)") in r.stdout, r.stdout
    oks = [line for line in r.stdout.splitlines() if line.startswith("ok ")]
    assert len(oks) == (4 if shutil.which("mpirun") else 3), r.stdout
    for line in oks:
        m = re.search(r"; (\d+) wrong fixes rejected$", line)
        assert m and int(m.group(1)) >= 2, line


def test_malformed_files_get_file_line_errors(env):
    cases = {
        "nofront.md": ("## read: x\ntext\n", "nofront.md:1: a drill starts with front matter"),
        "kind.md": (GOOD.replace("## quiz: Which?", "## exam: Which?"), "kind.md:24: unknown step kind 'exam'"),
        "nocheck.md": (GOOD.replace("```check\nx.sum().item() == 0.0\n```\n", ""), "nocheck.md:12: a do step needs a ```check block"),
        "alwaystrue.md": (GOOD.replace("x.sum().item() == 0.0", "True").replace("id: tiny", "id: alwaystrue"),
                          "alwaystrue.md:17: the check is already true before the reference solution"),
        "raises.md": (GOOD.replace("x = x - x", "x = x - undefined_name").replace("id: tiny", "id: raises"),
                      "raises.md:20: the reference solution raised NameError"),
        "unclosed.md": (GOOD.replace("```reference\nx = x - x\n```", "```reference\nx = x - x\n"),
                        "unclosed.md:19: the ```reference block is not closed"),
        "noright.md": (GOOD.replace("choice*: right", "choice: right"), "noright.md:24: mark the right choice"),
    }
    for name, (text, want) in cases.items():
        p = env.write(name, text)
        r = env.run(["drill", "check", p])
        assert r.returncode == 1, (name, r.stdout, r.stderr)
        assert want in r.stderr, (name, r.stderr)
    p = env.write("tiny.md", GOOD)
    r = env.run(["drill", "check", p])
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout, r.stdout + r.stderr


def test_mutation_pass_rejects_wrong_fixes(env):
    """`nndb drill check` runs each ```wrong block in a fresh session from
    the step's start: the check must stay false after it."""
    ok = GOOD.replace("```reference", "```wrong\nx = x * 2\n```\n```wrong\nx = x[:0]\n```\n```reference")
    p = env.write("tiny.md", ok)
    r = env.run(["drill", "check", "-v", p])
    assert r.returncode == 1, r.stdout + r.stderr  # x[:0] sums to 0: the check tests a symptom
    assert r.stderr.strip() == f"{p}:23: the check holds after this wrong fix: it tests a symptom, not the fix", r.stderr
    p = env.write("tiny.md", ok.replace("x = x[:0]", "x = -x"))
    r = env.run(["drill", "check", "-v", p])
    assert r.returncode == 0 and "2 wrong fixes rejected" in r.stdout, r.stdout + r.stderr
    p = env.write("tiny.md", GOOD.replace("choice: wrong", "```wrong\nx = 0\n```\nchoice: wrong"))
    r = env.run(["drill", "check", p])
    assert "wrong blocks belong to do steps" in r.stderr, r.stderr
    # a directory stands for its lessons
    r = env.run(["drill", "check", env.work])
    assert r.returncode == 1 and "0 passed, 1 failed" in r.stdout, r.stdout + r.stderr
    empty = os.path.join(env.dir, "none")
    os.makedirs(empty)
    r = env.run(["drill", "check", empty])
    assert r.returncode == 1 and f"nndb: no lessons (*.md) in {empty}" in r.stderr, r.stderr
    # the shipped overfit-one-batch: shuffled labels and pure noise both overfit 8 rows
    r = env.run(["drill", "check", "-v", os.path.join(ROOT, "drills", "lessons", "overfit-one-batch.md")])
    assert r.returncode == 0 and "2 wrong fixes rejected" in r.stdout, r.stdout + r.stderr


def test_new_writes_a_skeleton_that_checks(env):
    drills = os.path.join(env.dir, "mine")
    r = env.run(["drill", "new", "my-drill"], NNDB_DRILLS_PATH=drills)
    assert r.returncode == 0, r.stderr
    p = os.path.join(drills, "my-drill.md")
    assert os.path.exists(p)
    r = env.run(["drill", "check", p])
    assert r.returncode == 0, r.stdout + r.stderr
    r = env.run(["drill", "list"], NNDB_DRILLS_PATH=drills)
    assert "my-drill" in r.stdout and "loss-at-init" in r.stdout, r.stdout


def learner_repl(env, drills_path=None):
    extra = {"NNDB_DRILLS_PATH": drills_path} if drills_path else {}
    c = pexpect.spawn(NNDB, ["drill", "start", "loss-at-init"], env=env.vars(**extra), cwd=env.work,
                      encoding="utf-8", timeout=30, dimensions=(40, 160))
    return c


def test_scripted_learner_in_the_repl(env):
    c = learner_repl(env)
    c.expect(r"\[loss-at-init\] step 1 of 5")
    c.expect(PROMPT)
    c.sendline("%drill next")
    c.expect("step 2 of 5")
    c.expect(PROMPT)
    c.sendline("%drill predict about 10, because there are 10 classes")  # a wrong prediction
    c.expect("Prediction recorded")
    c.expect("loss at init: 27.1")  # the do step's setup ran (torch prints 27.10955)
    c.expect(PROMPT)
    # A failed attempt. A one-line compound statement is complete as typed,
    # as in IPython (Python's own REPL would want an empty line after it).
    c.sendline("with no_grad(): model[2].weight.mul_(0.5)")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect("Not yet")
    c.expect(PROMPT)
    c.sendline("%drill hint")
    c.expect("Hint 1 of 2")
    c.expect(PROMPT)
    c.sendline("with no_grad(): model[2].weight.mul_(0.02); model[2].bias.zero_()")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect("The check holds")
    c.expect("step 4 of 5")
    c.expect(PROMPT)
    c.sendline("%drill answer a")
    c.expect("Not quite")
    c.expect(PROMPT)
    c.sendline("%drill answer b")
    c.expect("Right")
    c.expect(PROMPT)
    c.sendline("%drill answer The first loss should be log of the class count; I checked it.")
    c.expect("is done. Your prediction against the evidence")
    c.expect("you predicted: about 10")
    c.expect("the check held after 2 checks and 1 hint; first failed attempt: with no_grad")
    c.expect(PROMPT)
    c.sendline("%drill export json ev.json")
    c.expect("Evidence written to ev.json")
    c.expect(PROMPT)
    c.sendline("%drill export md ev.md")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    ev = json.load(open(os.path.join(env.work, "ev.json")))
    jsonschema.validate(ev, SCHEMA)
    assert ev["status"] == "done" and ev["user"] == "ada"
    steps = ev["steps"]
    assert steps[1]["prediction"]["text"].startswith("about 10")
    fa = steps[2]["failed_attempt"]
    assert "mul_(0.5)" in fa["code"], fa
    assert "mul_(0.02)" in steps[2]["passed"]["code"]
    assert steps[2]["hints_used"] == 1 and steps[2]["attempts"] == 2
    assert [a["correct"] for a in steps[3]["answers"]] == [False, True]
    md = open(os.path.join(env.work, "ev.md")).read()
    assert "### Failed attempt 1" in md and "mul_(0.5)" in md and "): about 10" in md, md
    assert "### Passing attempt" in md and "mul_(0.02)" in md, md
    assert "Answer (right) (" in md and ": b) " in md, md  # the choice's text after its letter
    # the saved progress is the same document
    jsonschema.validate(env.progress("loss-at-init"), SCHEMA)


def overfit_repl(env, **extra):
    c = pexpect.spawn(NNDB, ["drill", "start", "overfit-one-batch"] + extra.pop("args", []),
                      env=env.vars(**extra), cwd=env.work, encoding="utf-8", timeout=120,
                      dimensions=(40, 200))
    c.expect(r"\[overfit-one-batch\] step 1 of 5")
    c.expect(PROMPT)
    for line in ("%drill next", "%drill predict zero inputs, or labels that do not match"):
        c.sendline(line)
        c.expect(PROMPT)
    return c


def test_attempts_are_what_the_learner_changed(env):
    """The issue's walk: a change on one line, its measure on the next, then
    %drill check; the evidence's attempts are those lines, their outputs and
    the check's values, not the line before the check."""
    c = overfit_repl(env, NNDB_DRILL_NAME="Grace Hopper")
    wrong = "data = spirals(300, classes=3, seed=0, bugs=['zero_inputs']); print('rebuilt')"
    c.sendline(wrong)
    c.expect(PROMPT)
    c.sendline("overfit()")
    c.expect(PROMPT)
    c.sendline("%drill check")
    # what it got, on one line, and no stray line break in the condition
    c.expect(r"Not yet: overfit\(\) = 0\.5624, wanted < 0\.05\. %drill hint gives a hint\.\r\n")
    c.expect(PROMPT)
    c.sendline("%drill hint")
    c.expect(PROMPT)
    c.sendline("data = spirals(300, classes=3, seed=0)")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect(r"The check holds: overfit\(\) = [0-9.e-]+ \(wanted < 0\.05\)")
    c.expect(PROMPT)
    c.sendline("%drill answer b")  # a keyword quiz: not accepted, and it has no hints
    c.expect(r"Not quite\. Try again\.\r\n")
    c.expect(PROMPT)
    c.sendline("%drill answer inputs that are all zero")
    c.expect(PROMPT)
    c.sendline("%drill answer It shows the model and data can learn at all.")
    c.expect(PROMPT)
    for line in ("%drill export json ev.json", "%drill export md ev.md"):
        c.sendline(line)
        c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    ev = json.load(open(os.path.join(env.work, "ev.json")))
    jsonschema.validate(ev, SCHEMA)
    assert ev["user"] == "Grace Hopper", ev["user"]
    st = ev["steps"][2]
    assert [r["passed"] for r in st["runs"]] == [False, True], st["runs"]
    fa, ok = st["failed_attempt"], st["passed"]
    assert [i["code"] for i in fa["inputs"]] == [wrong, "overfit()"], fa
    assert fa["inputs"][0]["output"] == "rebuilt\n" and fa["inputs"][1]["value"].startswith("0.5623"), fa
    assert fa["code"] == wrong + "\noverfit()" and fa["got"] == "overfit() = 0.5624, wanted < 0.05", fa
    assert ok["code"] == "data = spirals(300, classes=3, seed=0)", ok
    assert ok["got"].startswith("overfit() = ") and "%drill" not in ok["code"], ok
    md = open(os.path.join(env.work, "ev.md")).read()
    for want in ("- Learner: Grace Hopper", "- Started: ", "- Finished: ",
                 "> `overfit()` trains a fresh MLP",  # the question's text
                 "Setup (the input", "bugs=['zero_inputs'])\ndef overfit():",  # the setup code
                 "Prediction (", "): zero inputs, or labels",
                 "### Failed attempt 1", wrong, "rebuilt", "Value: `0.5623",
                 "was false: `overfit() = 0.5624, wanted < 0.05`",
                 "### Passing attempt", "data = spirals(300, classes=3, seed=0)\n````",
                 "held: `overfit() = ", "Hints taken (1):", "1. Look at the batch itself",
                 "Answer (not accepted) (", "Answer (right) (", "Explanation ("):
        assert want in md, (want, md)
    assert "Check: `overfit() < 0.05\n" not in md and "`overfit() < 0.05`" in md


def test_check_values_and_falsy(env):
    """A failing check names each side of its comparison, or the falsy value."""
    drills = os.path.join(env.dir, "mine")
    os.makedirs(drills)
    text = GOOD.replace("id: tiny", "id: values").replace(
        "x.sum().item() == 0.0", "x.sum().item() == 0.0 and bool(x.eq(0).all())")
    with open(os.path.join(drills, "values.md"), "w") as f:
        f.write(text)
    c = pexpect.spawn(NNDB, ["drill", "start", "values"], env=env.vars(NNDB_DRILLS_PATH=drills),
                      cwd=env.work, encoding="utf-8", timeout=60)
    c.expect(PROMPT)
    c.sendline("%drill next")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect(r"Not yet: x\.sum\(\)\.item\(\) = 3, wanted == 0\.0\. %drill hint")
    c.expect(PROMPT)
    c.sendline("x = tensor([2.0, -2.0])")
    c.expect(PROMPT)
    c.sendline("%drill hint")
    c.expect(PROMPT)
    c.sendline("%drill check")  # the first part holds now; the second is falsy; no hints left
    c.expect(r"Not yet: bool\(x\.eq\(0\)\.all\(\)\) = False\.\r\n")
    c.expect(PROMPT)
    c.sendline("y = undefined_name")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect(PROMPT)
    c.sendline("x = x - x")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect("The check holds")
    c.expect(PROMPT)
    c.sendline("%drill export json ev.json")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    ev = json.load(open(os.path.join(env.work, "ev.json")))
    jsonschema.validate(ev, SCHEMA)
    runs = ev["steps"][1]["runs"]
    assert [r["passed"] for r in runs] == [False, False, False, True], runs
    assert runs[0]["code"] == "" and runs[0]["inputs"] == [], runs[0]
    assert runs[1]["code"] == "x = tensor([2.0, -2.0])", runs[1]
    assert runs[2]["inputs"][0]["error"].startswith("NameError"), runs[2]
    assert runs[3]["code"] == "x = x - x", runs[3]


def test_check_line_with_message(env):
    """`check: EXPR | "message"` in place of a ```check block: a failing
    check says the message, then what it got."""
    drills = os.path.join(env.dir, "mine")
    os.makedirs(drills)
    text = GOOD.replace("id: tiny", "id: msg").replace(
        "```check\nx.sum().item() == 0.0\n```\n", 'check: x.sum().item() == 0.0 | "the sum of x"\n')
    with open(os.path.join(drills, "msg.md"), "w") as f:
        f.write(text)
    r = env.run(["drill", "check", os.path.join(drills, "msg.md")])
    assert r.returncode == 0, r.stdout + r.stderr
    c = pexpect.spawn(NNDB, ["drill", "start", "msg"], env=env.vars(NNDB_DRILLS_PATH=drills),
                      cwd=env.work, encoding="utf-8", timeout=60)
    c.expect(PROMPT)
    c.sendline("%drill next")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect(r"Not yet: the sum of x: x\.sum\(\)\.item\(\) = 3, wanted == 0\.0\. %drill hint")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    bad = GOOD.replace("## quiz: Which?", "## quiz: Which?\ncheck: x == 1")
    p = env.write("bad.md", bad.replace("id: tiny", "id: bad"))
    r = env.run(["drill", "check", p])
    assert "check: belongs to do steps" in r.stderr, r.stderr


def test_commands_behave(env):
    """Mistakes are one line with the fix, never a traceback; help; empty
    answers ask; no hint offered where there is none."""
    c = pexpect.spawn(NNDB, [], env=env.vars(), cwd=env.work, encoding="utf-8", timeout=60,
                      dimensions=(40, 200))
    c.expect(PROMPT)

    def said(line):
        c.sendline(line)
        c.expect(PROMPT)
        text = re.sub(r"\x1b\[[?0-9;]*[a-zA-Z]|\r", "", c.before)
        return text.split("\n", 1)[1] if "\n" in text else ""

    out = said("%drill help")
    for cmd in ("%drill list", "%drill start ID", "%drill check", "%drill hint", "%drill answer",
                "%drill whoami", "%drill export", "%drill reset", "%drill watch", "%drill help"):
        assert cmd in out, (cmd, out)
    out = said("%drill status")  # no drill open: progress across the lessons
    assert "No drill is open" in out and re.search(r"loss-at-init .* not started", out), out
    out = said("%drill check")
    assert "no drill is running" in out and "Traceback" not in out and out.count("\n") == 1, out
    out = said("%drill watch maybe")
    assert out.strip() == "%drill watch takes on or off (nothing toggles it), not 'maybe'", out
    out = said("%drill frobnicate")
    assert "unknown %drill command 'frobnicate': %drill help lists them" in out, out
    assert "Traceback" not in out and out.count("\n") == 1, out
    said("%drill start loss-at-init")
    out = said("%drill check")
    assert "step 1 is a read step: nothing to check (%drill next)" in out and "Traceback" not in out, out
    said("%drill next")
    out = said("%drill next")
    assert out.strip() == "finish step 2 first (predict): %drill predict TEXT", out
    said("%drill predict 2.3")
    out = said("%drill answer x")
    assert out.strip() == "step 3 is a do step: no answer is asked", out
    out = said("%drill whoami Ada Lovelace")
    assert "signed Ada Lovelace" in out, out
    c.sendline("with no_grad(): model[2].weight.mul_(0.02); model[2].bias.zero_()")
    c.expect(PROMPT)
    said("%drill check")
    c.sendline("%drill answer")  # empty: it asks, as %drill predict does
    c.expect("Your answer: ")
    c.sendline("b")
    c.expect("Right")
    c.expect(PROMPT)
    c.sendline("%drill answer ")
    c.expect("Your answer: ")
    c.sendline("")  # nothing given: one line saying how
    c.expect(PROMPT)
    assert "write the answer after the command: %drill answer YOUR WORDS" in c.before, c.before
    # another drill while this one is open: it asks, and "n" stays
    c.sendline("%drill start overfit-one-batch")
    c.expect(r"You are on step 5 of 5 of loss-at-init; leave it for overfit-one-batch \(y/\[n\]\)\? ")
    c.sendline("n")
    c.expect("Still on loss-at-init.")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    ev = env.progress("loss-at-init")
    assert ev["user"] == "Ada Lovelace"
    # each %drill cell is logged under the step it ran in, not the next one
    steps = [e["step"] for e in ev["evidence"]
             if e["kind"] == "input" and e["code"].startswith("%drill answer")]
    assert steps == [3, 4, 5], steps


def test_watch_prompt_and_hidden_bugs(env):
    """%drill watch runs the check after each statement; the prompt shows
    the drill and step; the setup's data set keeps its planted bug out of
    its repr and description (the learner's own data sets do not)."""
    c = overfit_repl(env)
    c.sendline("%drill watch")
    c.expect("Watching: the check runs after each statement")
    c.expect(r"\[overfit-one-batch 3/5\]\S* nndb>")
    c.sendline("print(repr(data)); print(data.description); print(data.split()[0])")
    c.expect(PROMPT)
    shown = c.before
    assert re.search(r"\[watch\] not yet: overfit\(\) = 0\.56\d*, wanted < 0\.05", shown), shown
    assert "Dataset('spirals'" in shown and "bugs=" not in shown and "planted" not in shown, shown
    assert "zero" not in shown, shown
    c.sendline("print(spirals(10, bugs=['zero_inputs']))")
    c.expect(r"bugs=\['zero_inputs'\]")
    c.expect(PROMPT)
    c.sendline("data = spirals(300, classes=3, seed=0)")
    c.expect(r"\[watch\] the check holds: overfit\(\) = .*%drill check records it and goes on")
    c.expect(PROMPT)
    c.sendline("%drill check")
    c.expect("The check holds")
    c.expect(r"\[overfit-one-batch 4/5\]\S* nndb>")
    c.sendline("%drill watch off")
    c.expect("Not watching.")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    ev = env.progress("overfit-one-batch")
    # watching records nothing: the one attempt is the learner's own check
    assert ev["steps"][2]["attempts"] == 1, ev["steps"][2]
    assert "spirals(300, classes=3, seed=0)" in ev["steps"][2]["passed"]["code"]


def test_cli_list_report_and_parse_errors(env):
    r = env.run(["drill", "list"])
    assert r.returncode == 0 and "overfit-one-batch" in r.stdout, r.stdout
    r = env.run(["--help"])
    for sub in ("list", "start ID", "notebook ID", "report [--csv] DIR", "check [-v]", "new ID"):
        assert sub in r.stdout, (sub, r.stdout)
    assert not os.path.exists(env.data), os.listdir(env.data)  # nothing created
    empty = os.path.join(env.dir, "empty")
    os.makedirs(empty)
    r = env.run(["drill", "report", empty])
    assert r.returncode == 1 and r.stderr.strip().startswith(f"nndb: no evidence found in {empty}"), r.stderr
    # an unclosed front matter: the root cause, once, and nothing after it
    p = env.write("open.md", GOOD.replace("teaches: the runner\n---\n", "teaches: the runner\n"))
    r = env.run(["drill", "check", p])
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 1 and len(lines) == 1, r.stderr
    assert lines[0].startswith(p + ":1: the front matter is not closed: add a line '---' before line 8 (## read: Read this)"), lines
    # --name signs the evidence
    c = pexpect.spawn(NNDB, ["drill", "start", "loss-at-init", "--name", "Bo Lee"], env=env.vars(),
                      cwd=env.work, encoding="utf-8", timeout=60)
    c.expect(PROMPT)
    c.sendline("%drill whoami")
    c.expect("Your evidence is signed Bo Lee")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    assert env.progress("loss-at-init")["user"] == "Bo Lee"


def test_reset_asks_first(env):
    c = learner_repl(env)
    c.expect(PROMPT)
    c.sendline("%drill next")
    c.expect(PROMPT)
    c.sendline("%drill reset loss-at-init")
    c.expect(r"Delete your progress and evidence for loss-at-init \(y/\[n\]\)\? ")
    c.sendline("n")
    c.expect("Nothing done")
    c.expect(PROMPT)
    assert env.progress("loss-at-init")["step"] == 1
    c.sendline("%drill reset loss-at-init -f")
    c.expect("Progress of loss-at-init deleted")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)
    assert not os.path.exists(os.path.join(env.data, "nndb", "drills", "loss-at-init.json"))


def test_resume_after_kill_9(env):
    c = learner_repl(env)
    c.expect(PROMPT)
    c.sendline("%drill next")
    c.expect(PROMPT)
    c.sendline("%drill predict 2.3")
    c.expect(PROMPT)
    # a save per iteration (each %drill check records an attempt); kill -9 mid-stream
    c.sendline("for i in range(100000):")
    c.sendline("    %drill check")
    c.sendline("")
    c.expect("Not yet")
    time.sleep(0.5)
    os.kill(c.pid, signal.SIGKILL)
    c.close(force=True)
    p = env.progress("loss-at-init")  # whole and valid, whatever instant the kill hit
    jsonschema.validate(p, SCHEMA)
    assert p["step"] == 2 and p["steps"][2]["attempts"] >= 2, p["steps"][2]
    c = learner_repl(env)
    c.expect("Resuming loss-at-init at step 3 of 5")
    c.expect("loss at init: 27.1")
    c.expect(PROMPT)
    c.sendcontrol("d")
    c.expect(pexpect.EOF)


TWO = """---
id: two
title: Two sessions
minutes: 1
teaches: locking
---

## do: Set x to 2
```setup
x = 1
```
```check
x == 2
```
```reference
x = 2
```
"""


def test_two_sessions_save_at_once(env):
    # a drill whose first step is a do step, so each %drill check saves
    # (an attempt), whichever session started or resumed first
    drills = os.path.join(env.dir, "mine")
    os.makedirs(drills)
    with open(os.path.join(drills, "two.md"), "w") as f:
        f.write(TWO)
    script = "%drill start two\nfor i in range(200):\n    %drill check\n"
    p = env.write("two.nn", script)
    procs = [subprocess.Popen([NNDB, "run", p], cwd=env.work, env=env.vars(NNDB_DRILLS_PATH=drills),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for pr in procs:
        pr.wait(timeout=120)
    for pr in procs:
        assert pr.returncode == 0, pr.stderr.read() if pr.stderr else ""
    data = env.progress("two")
    jsonschema.validate(data, SCHEMA)
    assert 200 <= data["steps"][0]["attempts"] <= 400, data["steps"][0]["attempts"]
    leftovers = [f for f in os.listdir(os.path.join(env.data, "nndb", "drills")) if ".tmp." in f]
    assert not leftovers, leftovers


def test_scripted_learner_through_the_kernel(env):
    sys.path.insert(0, os.path.join(ROOT, "tests", "kernel"))
    from jupyter_client.manager import KernelManager
    prefix = os.path.join(env.dir, "prefix")
    subprocess.run([NNDB, "install-kernel", "--prefix", prefix], check=True, capture_output=True)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    km = KernelManager(kernel_name="nndb")
    km.start_kernel(env=env.vars())
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=30)

        def run(code):
            outs = []
            reply = kc.execute_interactive(code, timeout=60, output_hook=outs.append)
            return reply["content"], outs

        rep, outs = run("%drill start label-bugs")
        assert rep["status"] == "ok", rep
        md = [o["content"]["data"] for o in outs if o["msg_type"] == "display_data"]
        assert md and "text/markdown" in md[0] and "label-bugs" in md[0]["text/markdown"]
        run("%drill next")
        run("%drill predict about one third")
        rep, outs = run("%drill check")
        text = "".join(o["content"].get("text", "") for o in outs if o["msg_type"] == "stream")
        assert "Not yet" in text, text
        run("%drill hint")
        run("y_fixed = (train.y + 2) % 3")
        rep, outs = run("%drill check")
        text = "".join(o["content"].get("text", "") for o in outs if o["msg_type"] == "stream")
        assert "The check holds" in text, text
        run("%drill answer b")
        run("%drill answer Shifted labels make val accuracy fall below chance.")
        rep, outs = run("%drill export json " + os.path.join(env.work, "k.json"))
        assert rep["status"] == "ok", rep
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    ev = json.load(open(os.path.join(env.work, "k.json")))
    jsonschema.validate(ev, SCHEMA)
    assert ev["status"] == "done"
    assert "failed_attempt" in ev["steps"][2]


def test_report_over_a_class(env):
    klass = os.path.join(env.dir, "class")
    os.makedirs(klass)
    for user, attempt in (("ada", "model[2].weight.mul_(0.5)"), ("bob", "model[2].weight.mul_(0.5)"),
                          ("cy", "model[2].bias.zero_()")):
        c = pexpect.spawn(NNDB, ["drill", "start", "loss-at-init"],
                          env=env.vars(USER=user, XDG_DATA_HOME=os.path.join(env.dir, user)),
                          cwd=env.work, encoding="utf-8", timeout=30)
        c.expect(PROMPT)
        for line in ("%drill next", f"%drill predict {user} thinks 2.3",
                     f"with no_grad(): {attempt}", "%drill check", "%drill hint",
                     f"%drill export json {klass}/{user}.json"):
            c.sendline(line)  # a one-line compound statement is complete, as in IPython
            c.expect(PROMPT)
        c.sendcontrol("d")
        c.expect(pexpect.EOF)
    r = env.run(["drill", "report", klass])
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "# Drill report: 3 records" in out, out
    assert "| loss-at-init | ada | in progress |" in out and "| loss-at-init | cy |" in out, out
    assert "| loss-at-init | bob | bob thinks 2.3 | 0 of 1 checks held after a failed attempt |" in out, out
    assert "| loss-at-init | `with no_grad(): model[2].weight.mul_(0.5)` | 2 |" in out, out
    assert "## Totals per learner" in out and "## Totals per lesson" in out, out
    # nobody finished: 0 of the lesson's 10 points (its front matter's points:)
    assert re.search(r"\| ada \| 0 \| 1 \| 0 \| 1 \| [0-9.]+ \| 0 of 10 \|", out), out
    assert re.search(r"\| loss-at-init \| 3 \| 0 \| 1\.0 \| [0-9.]+ \| 10 \|", out), out
    r = env.run(["drill", "report", "--csv", klass])
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("drill,learner,status") and len(lines) == 4, r.stdout
    assert lines[1].split(",")[4] == "1", lines[1]  # one hint


def test_every_lesson_walked_in_the_repl(env):
    """A scripted learner through each shipped lesson in a pty: predict, one
    failed check, a hint, the reference solution (run into the session with
    IPython's %run -i, which %load was in the old interpreter), the
    right quiz answer after a wrong one, reflect, export; the evidence holds
    the failed attempt and validates."""
    import re
    lessons = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "drills", "lessons")) if f.endswith(".md"))
    for lesson in lessons:
        text = open(os.path.join(ROOT, "drills", "lessons", lesson + ".md")).read()
        if re.search(r"^requires:.*mpirun", text, re.M) and not shutil.which("mpirun"):
            print(f"  (skipped {lesson}: it requires mpirun, which is not on PATH)")
            continue
        parts = re.split(r"^## (read|predict|do|quiz|reflect):.*$", text, flags=re.M)
        steps = list(zip(parts[1::2], parts[2::2]))
        c = pexpect.spawn(NNDB, ["drill", "start", lesson], env=env.vars(), cwd=env.work,
                          encoding="utf-8", timeout=60, dimensions=(40, 160))
        c.expect(PROMPT)
        for i, (kind, body) in enumerate(steps):
            if kind == "read":
                c.sendline("%drill next")
            elif kind == "predict":
                c.sendline("%drill predict a first guess")
            elif kind == "do":
                c.sendline("%drill check")
                c.expect("Not yet")
                c.expect(PROMPT)
                c.sendline("%drill hint")
                c.expect("Hint 1 of")
                c.expect(PROMPT)
                ref = re.search(r"^```reference\n(.*?)^```", body, re.S | re.M).group(1)
                path = env.write(f"{lesson}-{i}.py", ref)
                c.sendline(f"%run -i {path}")
                c.expect(PROMPT)
                c.sendline("%drill check")
                c.expect("The check holds")
            elif kind == "quiz":
                choices = re.findall(r"^choice(\*?): ", body, re.M)
                if choices:
                    right = "abcdefgh"[choices.index("*")]
                    wrong = "abcdefgh"[(choices.index("*") + 1) % len(choices)]
                else:
                    right = re.search(r"^example: (.*)$", body, re.M).group(1)
                    wrong = re.search(r"^wrong: (.*)$", body, re.M).group(1)
                c.sendline(f"%drill answer {wrong}")
                c.expect("Not quite")
                c.expect(PROMPT)
                c.sendline(f"%drill answer {right}")
                c.expect("Right")
            elif kind == "reflect":
                c.sendline("%drill answer It was the data, and I checked it.")
            c.expect(PROMPT)
        c.sendline(f"%drill export json {lesson}.json")
        c.expect("Evidence written")
        c.expect(PROMPT)
        c.sendcontrol("d")
        c.expect(pexpect.EOF)
        ev = json.load(open(os.path.join(env.work, lesson + ".json")))
        jsonschema.validate(ev, SCHEMA)
        assert ev["status"] == "done", (lesson, [s["done"] for s in ev["steps"]])
        for st, (kind, _) in zip(ev["steps"], steps):
            if kind == "do":
                assert "failed_attempt" in st and st["hints_used"] == 1, (lesson, st)


def main(argv):
    tests = [(n, f) for n, f in globals().items() if n.startswith("test_") and callable(f)]
    if argv:
        tests = [(n, f) for n, f in tests if any(w in n for w in argv)]
    passed = failed = 0
    for name, fn in tests:
        env = Env()
        t0 = time.monotonic()
        try:
            fn(env)
        except Exception as e:  # noqa: BLE001
            failed += 1
            tb = traceback.extract_tb(e.__traceback__)
            detail = str(e) or type(e).__name__
            if isinstance(e, (pexpect.TIMEOUT, pexpect.EOF)):
                detail = type(e).__name__ + ": " + detail[-900:]
            print(f"FAIL {name} (line {tb[-1].lineno if tb else '?'}): {detail[:2000]}")
        else:
            passed += 1
            print(f"ok   {name} ({time.monotonic() - t0:.1f} s)")
        finally:
            env.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

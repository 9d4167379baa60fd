#!/usr/bin/python3
"""The lessons and nndb's own library:

- `nndb drill check LESSON` (each setup runs, each check is false before its
  reference solution and true after) for every lesson in drills/lessons/.
- nndb.data makes the datasets the old interpreter made, row for row: one
  script, run as an .nn script by `nndb run` (the prelude's bare names) and
  as a .py script by `nndb python` (from nndb.data import *), must print
  what the old interpreter printed for it (tests/drills/old/datasets.out,
  recorded with the old interpreter's `nndb run` before it was retired).
- plot and hist print the same text outside a session (a script) as the
  old interpreter did (old/plot.out), and old/train_mlp.nn (the
  examples/train_mlp.nn of that day: spirals, MLP, num_params, plot with
  logy) prints old/train_mlp.out.

Prints "N passed, M failed".

    /usr/bin/python3 tests/drills/test_lessons.py [NAME...]
    NNDB=build/drills/nndb /usr/bin/python3 tests/drills/test_lessons.py
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.abspath(os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb")))
OLD = os.path.join(ROOT, "tests", "drills", "old")
# the line plot() adds in a script now: where it saved its picture
SAVED = re.compile(r" saved to \S+/figures/figure-\d+-\d+\.png$", re.M)
ENV = dict(os.environ, LANG="C.UTF-8", NO_COLOR="1")


def run(args, timeout=600, **kw):
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=ENV,
                          timeout=timeout, **kw)


def lesson_tests():
    tests = []
    for path in sorted(glob.glob(os.path.join(ROOT, "drills", "lessons", "*.md"))):
        name = os.path.basename(path)[:-3]

        def test(path=path, name=name):
            p = run([NNDB, "drill", "check", path])
            out = p.stdout + p.stderr
            assert p.returncode == 0 and f"ok   {name}:" in out, \
                f"drill check {name} failed ({p.returncode}):\n{out}"
            m = re.search(r"ok   %s:.*; (\d+) wrong fixes rejected$" % re.escape(name), out, re.M)
            assert m and int(m.group(1)) >= 2, f"{name}: fewer than two wrong fixes rejected:\n{out}"
        test.__name__ = f"drill_check_{name.replace('-', '_')}"
        tests.append(test)
    return tests


DATA_SCRIPT = """\
for ds in [spirals(300, classes=3, seed=0, bugs=['leakage'], leak_fraction=0.2),
           moons(100, noise=0.2, seed=3),
           blobs(90, centers=4, dim=3, seed=1, bugs=['nan'], nan_row=5),
           xor(40, bugs=['shuffled_labels']),
           regression(50, in_dim=3, out_dim=2, bugs=['unnormalised'], scale_column=1),
           copy_task(32, bugs=['all_padding']),
           words(block_size=4, seed=2, bugs=['relabel'], relabel_from=3, relabel_to=4),
           spirals(60, bugs=['transposed', 'zero_inputs', 'off_by_one'])]:
    print(repr(ds))
    print(ds.description)
    print(ds.x.double().sum().item(), ds.y.double().sum().item(), ds.x[7].tolist(),
          ds.y[7].tolist())
    print(ds.nan_row, ds.nan_col, ds.bugs, ds.num_classes, len(ds))
    tr, va, te = ds.split(0.7, 0.2, seed=5)
    print(repr(tr), repr(va), repr(te))
    print(tr.x.double().sum().item(), tr.description)
    if tr.leaked_rows is not None:
        print(tr.leaked_rows.tolist()[:5], tr.leaked_from.tolist()[:5])
    b = tr.plant(bugs='off_by_one') if ds.num_classes else tr
    print(b.y[:10].tolist())
    print(repr(ds.subset([3, 1, 3])))
    print(ds[2])
v = words().vocab
print(v, len(v), v.itos[3], v.stoi['z'], v.decode(v.encode('zebra')))
"""

PLOT_SCRIPT = """\
plot([3.0, 2.0, float("nan"), 1.2, 1.0], [3.1, 2.5, 2.2, 2.1, 2.0], labels=["train", "val"],
     title="loss", logy=True)
hist([0.1 * i for i in range(50)] + [float("inf")], bins=7, title="w")
plot(tensor([1.0, 4.0, 9.0]))
plot([[1, 2, 3], [3, 2, 1]], xlabel="step")
"""


def recorded(name):
    with open(os.path.join(OLD, name + ".out"), encoding="utf-8") as f:
        return f.read()


def same_as_old(body, imports, name):
    """[body] as an .nn script under `nndb run` (the prelude's bare names)
    and as a .py script under `nndb python` with [imports] first: both print
    what the old interpreter printed (old/NAME.out)."""
    want = recorded(name)
    with tempfile.TemporaryDirectory() as d:
        nn, py = os.path.join(d, name + ".nn"), os.path.join(d, name + ".py")
        with open(nn, "w") as f:
            f.write(body)
        with open(py, "w") as f:
            f.write(imports + body)
        a = run([NNDB, "run", nn], timeout=120)
        b = run([NNDB, "python", py], timeout=120)
    assert a.returncode == 0, a.stderr
    assert b.returncode == 0, b.stderr
    # plot() and hist() now also save their picture (drawn with matplotlib)
    # and say where; the text they print is the old interpreter's
    ran, py_ran = SAVED.sub("", a.stdout), SAVED.sub("", b.stdout)
    if name == "plot":
        assert SAVED.search(a.stdout), "plot() in a script saves its picture and says where"
    assert ran == want, f"old interpreter:\n{want}\nnndb run (.nn):\n{a.stdout}"
    assert py_ran == want, f"old interpreter:\n{want}\nnndb python (.py):\n{b.stdout}"


def test_datasets_match_the_old_interpreter():
    same_as_old(DATA_SCRIPT, "from nndb.data import *\n", "datasets")


def test_plot_text_matches_the_old_interpreter():
    same_as_old(PLOT_SCRIPT, "from nndb.plot import plot, hist\nfrom torch import tensor\n",
                "plot")


def test_train_mlp_example_matches_the_old_interpreter():
    """old/train_mlp.nn (examples/train_mlp.nn when the old interpreter was
    retired: spirals, MLP, num_params, plot with logy) prints what the old
    interpreter printed."""
    p = run([NNDB, "run", os.path.join(OLD, "train_mlp.nn")], timeout=120)
    assert p.returncode == 0, p.stderr
    want = recorded("train_mlp")
    got = SAVED.sub("", p.stdout)  # its plot() also saves the picture (matplotlib)
    assert got == want, f"old interpreter:\n{want}\nnndb run:\n{p.stdout}"


def test_dataset_errors():
    p = run([NNDB, "python", "-c", """
from nndb.data import spirals, copy_task
for call in ["spirals(leak_fraction=0.2)", "spirals(foo=1)", "spirals(bugs=['nope'])",
             "spirals(n=2)", "spirals(bugs=3)", "spirals().plant()",
             "copy_task().plant(bugs=['nan'])", "spirals()[300]", "spirals()['a']"]:
    try:
        eval(call)
        print(call, "no error")
    except Exception as e:
        print(type(e).__name__, e)
"""], timeout=120)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == ("ValueError leak_fraction= is a parameter of the 'leakage' bug, which "
                        "bugs= does not list"), lines[0]
    assert lines[1] == "TypeError spirals() got an unexpected keyword argument 'foo'"
    assert lines[2].startswith("ValueError unknown bug 'nope': the bugs are 'shuffled_labels'")
    assert lines[3] == "ValueError spirals: n must be at least 3, got 2", lines[3]
    assert lines[4] == "TypeError bugs must be a list of bug names, not int"
    assert lines[5] == "ValueError plant() needs bugs=[...], at least one name"
    assert lines[6].startswith("TypeError ") or lines[6].startswith("ValueError "), lines[6]
    assert lines[7] == "IndexError index 300 is out of range for a dataset of 300"
    assert lines[8] == "TypeError Dataset indices must be integers, not str"


def main():
    if not os.access(NNDB, os.X_OK):
        print(f"no {NNDB} (make build/nndb)")
        print("0 passed, 1 failed")
        return 1
    tests = lesson_tests() + [test_datasets_match_the_old_interpreter,
                              test_plot_text_matches_the_old_interpreter,
                              test_train_mlp_example_matches_the_old_interpreter,
                              test_dataset_errors]
    wanted = sys.argv[1:]
    passed = failed = 0
    for t in tests:
        if wanted and not any(w in t.__name__ for w in wanted):
            continue
        try:
            t()
            print(f"ok   {t.__name__}")
            passed += 1
        except Exception:
            print(f"FAIL {t.__name__}")
            traceback.print_exc()
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

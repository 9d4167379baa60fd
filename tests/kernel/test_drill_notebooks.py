"""`nndb drill notebook ID` for every shipped lesson: the notebook is valid
nbformat, opens on the nndb kernel, and, with its work cells filled by a
scripted learner (a prediction, the reference solution, the right answer),
runs top to bottom through nbclient with no error and ends the drill."""
import os
import re
import shutil
import subprocess
import tempfile

import nbformat
import pytest
from nbclient import NotebookClient

import harness

LESSONS = os.path.join(harness.ROOT, "drills", "lessons")
pytestmark = pytest.mark.skipif(not harness.IS_NNDB, reason="drills are nndb's")


def fence(text, kind):
    m = re.search(r"^```" + kind + r"\n(.*?)^```", text, re.S | re.M)
    return m.group(1) if m else None


def steps_of(text):
    """(kind, body) per step, in order."""
    parts = re.split(r"^## (read|predict|do|quiz|reflect):.*$", text, flags=re.M)
    return list(zip(parts[1::2], parts[2::2]))


@pytest.mark.parametrize("lesson", sorted(f[:-3] for f in os.listdir(LESSONS) if f.endswith(".md")))
def test_generated_notebook_runs(lesson, tmp_path):
    out = tmp_path / f"{lesson}.ipynb"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    r = subprocess.run([harness.NNDB, "drill", "notebook", lesson, "-o", str(out)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    nb = nbformat.read(str(out), as_version=4)
    nbformat.validate(nb)
    assert nb.nbformat_minor == 5 and nb.metadata.kernelspec.name == "nndb"
    text = open(os.path.join(LESSONS, lesson + ".md")).read()
    if re.search(r"^requires:.*mpirun", text, re.M) and not shutil.which("mpirun"):
        pytest.skip(f"{lesson} requires mpirun, which is not on PATH")
    steps = steps_of(text)
    work = [c for c in nb.cells if c.cell_type == "code"][1:]  # after %drill start
    assert len(work) == len(steps)
    for cell, (kind, body) in zip(work, steps):
        if kind == "predict":
            cell.source = "%drill predict a scripted prediction"
        elif kind == "do":  # one failed check and a hint first, then the fix
            cell.source = "%drill check\n%drill hint\n" + fence(body, "reference") + "%drill check"
        elif kind == "quiz":
            right = re.search(r"^choice\*: ", body, re.M)
            if right:
                choices = re.findall(r"^choice\*?: ", body, re.M)
                idx = [i for i, c in enumerate(choices) if c.startswith("choice*")][0]
                cell.source = f"%drill answer {'abcdefgh'[idx]}"
            else:
                cell.source = "%drill answer " + re.search(r"^example: (.*)$", body, re.M).group(1)
        elif kind == "reflect":
            cell.source = "%drill answer A scripted explanation."
    cell = nbformat.v4.new_code_cell(f"%drill export json {tmp_path / 'ev.json'}")
    nb.cells.append(cell)
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path / "data")
    try:
        NotebookClient(nb, kernel_name=harness.KERNEL, timeout=180,
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        if old is None:
            os.environ.pop("XDG_DATA_HOME", None)
        else:
            os.environ["XDG_DATA_HOME"] = old
    for c in nb.cells:
        for o in c.get("outputs", []):
            assert o.output_type != "error", f"{lesson}: {o.get('ename')}: {o.get('evalue')}"
    import json
    import jsonschema
    ev = json.load(open(tmp_path / "ev.json"))
    schema = json.load(open(os.path.join(harness.ROOT, "docs", "drill-evidence.schema.json")))
    jsonschema.validate(ev, schema)
    assert ev["status"] == "done", [s["done"] for s in ev["steps"]]
    for st, (kind, _) in zip(ev["steps"], steps):
        if kind == "do":
            assert "failed_attempt" in st and st["hints_used"] == 1 and st["attempts"] == 2, st


def run_notebook(nb, tmp_path):
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path / "data")
    try:
        NotebookClient(nb, kernel_name=harness.KERNEL, timeout=180,
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        if old is None:
            os.environ.pop("XDG_DATA_HOME", None)
        else:
            os.environ["XDG_DATA_HOME"] = old


WRONG = "data = spirals(300, classes=3, seed=0, bugs=['zero_inputs'])\nprint('tried', overfit())"
FIX = "data = spirals(300, classes=3, seed=0)"


@pytest.mark.parametrize("order", ["check-inside", "check-alone"])
def test_handed_out_notebook_labels_attempts(order, tmp_path):
    """The handed-out notebook, filled as a learner does: the work and
    %drill check in one cell, or %drill check alone in the cell after the
    work (the wrong change, then the fix). The evidence's attempts are the work of those cells, never the
    cell before or the quiz after."""
    import json
    import jsonschema
    out = tmp_path / "o.ipynb"
    r = subprocess.run([harness.NNDB, "drill", "notebook", "overfit-one-batch", "-o", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    nb = nbformat.read(str(out), as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[3].source == "# your work here, then:\n%drill check"
    code[2].source = "%drill predict zero inputs"
    if order == "check-inside":
        code[3].source = WRONG + "\n%drill check"
        extra = [FIX + "\n%drill check"]
    else:
        code[3].source = WRONG
        extra = ["%drill check", FIX, "%drill check"]
    at = nb.cells.index(code[3]) + 1
    for i, src in enumerate(extra):
        nb.cells.insert(at + i, nbformat.v4.new_code_cell(src))
    code[4].source = "%drill answer inputs that are all zero"
    code[5].source = "%drill answer It shows that the model can learn at all."
    nb.cells.append(nbformat.v4.new_code_cell(
        f"%drill export json {tmp_path / 'ev.json'}\n%drill export md {tmp_path / 'ev.md'}"))
    run_notebook(nb, tmp_path)
    texts = ["".join(o.get("text", "") for o in c.get("outputs", [])) for c in nb.cells
             if c.cell_type == "code"]
    assert any("Not yet: overfit() = 0.5624, wanted < 0.05." in t for t in texts), texts
    ev = json.load(open(tmp_path / "ev.json"))
    schema = json.load(open(os.path.join(harness.ROOT, "docs", "drill-evidence.schema.json")))
    jsonschema.validate(ev, schema)
    st = ev["steps"][2]
    fa = st["failed_attempt"]
    assert fa["code"] == WRONG and fa["output"].startswith("tried 0.56"), fa
    assert "Not yet" not in fa["output"], fa
    assert st["failed_attempt"]["got"] == "overfit() = 0.5624, wanted < 0.05"
    assert st["passed"]["code"] == FIX and st["passed"]["got"].startswith("overfit() = "), st["passed"]
    assert ev["steps"][3]["done"] and ev["status"] == "done"
    # nothing of the do step was logged under the quiz
    quiz_inputs = [e["code"] for e in ev["evidence"] if e["kind"] == "input" and e["step"] == 4]
    assert not any("spirals" in c for c in quiz_inputs), quiz_inputs
    md = open(tmp_path / "ev.md").read()
    assert "### Passing attempt" in md and FIX + "\n````" in md, md

"""The differential notebook suite: every notebook here runs through nbclient
twice, once in the nndb kernel and once in Debian's ipykernel (kernel
python3, where `import torch` is PyTorch 1.13), and the outputs are compared
cell by cell.

A notebook is a `.ipynb` file (run unchanged) or a `.py` file in jupytext's
percent format (`# %%` starts a code cell, `# %% [markdown]` a markdown
cell, `# %% tags=["shape"]` a tagged code cell), built into a notebook here.

What is compared, per code cell, after both runs:
- the sequence of outputs: streams (consecutive pieces of one stream joined,
  carriage returns applied as a terminal does, so a tqdm bar is its last
  state, trailing newlines dropped: they show nothing), results and displays (text/plain, and every other text MIME type
  the reference sends), errors (ename and evalue);
- a picture (image/png or image/svg+xml) wherever the reference has one
  (the pictures themselves are not compared: fonts and antialiasing);
- memory addresses (0x...) and tqdm's timings and rates are masked;
- a cell tagged "shape" (unseeded random numbers) is compared by the shape
  of its text: every number becomes N;
- a cell tagged "close" compares its numbers to a relative 1e-5 (and its
  text otherwise exactly): for float32 results printed with all their
  digits, where nndb's sums (in double) and PyTorch's (a float cascade)
  part in the last bits; its comment lines must say so;
- a cell tagged "differs" is run but not compared: its first comment lines
  must say why nndb differs there (checked: a "differs" cell without a
  reason fails).

nndb may send more than the reference (the HTML table of a tensor, a PNG
beside an SVG): extra MIME types in an output are allowed.

Prints one line per notebook cell that differs (with both texts), then
"N passed, M failed" (one test per code cell). Executed notebooks are
written to build/notebooks/NAME.nndb.ipynb and NAME.python3.ipynb.

    tests/notebooks/run.sh [NAME ...]        only these notebooks
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
OUTDIR = os.path.join(ROOT, "build", "notebooks")
KERNELS = ("python3", "nndb")  # the reference first
TIMEOUT = int(os.environ.get("NNDB_NOTEBOOK_TIMEOUT", "240"))
PICTURES = ("image/png", "image/svg+xml")


def setup_env(tmp):
    """A private Jupyter world in tmp: HOME, config, runtime, IPython's
    profile, matplotlib's cache; kernelspecs for nndb and ipykernel."""
    home = os.path.join(tmp, "home")
    os.makedirs(home, exist_ok=True)
    os.environ.update(
        HOME=home,
        JUPYTER_CONFIG_DIR=os.path.join(tmp, "config"),
        JUPYTER_DATA_DIR=os.path.join(tmp, "data"),
        JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"),
        IPYTHONDIR=os.path.join(tmp, "ipython"),
        XDG_STATE_HOME=os.path.join(tmp, "state"),
        XDG_CACHE_HOME=os.path.join(tmp, "cache"),
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        NO_COLOR="1",
    )
    os.environ.pop("MPLBACKEND", None)
    prefix = os.path.join(tmp, "prefix")
    p = subprocess.run([NNDB, "install-kernel", "--prefix", prefix], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"nndb install-kernel failed: {(p.stderr or p.stdout)[-400:]}")
    # ipykernel under Debian's python (not whatever python3 is first on PATH).
    spec_dir = os.path.join(prefix, "share", "jupyter", "kernels", "python3")
    os.makedirs(spec_dir, exist_ok=True)
    with open(os.path.join(spec_dir, "kernel.json"), "w") as f:
        json.dump({"argv": ["/usr/bin/python3", "-m", "ipykernel_launcher", "-f",
                            "{connection_file}"],
                   "display_name": "Python 3 (ipykernel)", "language": "python"}, f)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")


def read_percent(path):
    """A notebook from jupytext's percent format."""
    import nbformat
    nb = nbformat.v4.new_notebook()
    cells = []
    kind, tags, lines = None, [], []

    def flush():
        if kind is None:
            return
        text = "\n".join(lines).strip("\n")
        if kind == "markdown":
            text = "\n".join(ln[2:] if ln.startswith("# ") else ln.lstrip("#")
                             for ln in text.split("\n"))
            cells.append(nbformat.v4.new_markdown_cell(text))
        else:
            c = nbformat.v4.new_code_cell(text)
            if tags:
                c.metadata["tags"] = tags
            cells.append(c)

    for ln in open(path).read().split("\n"):
        if ln.startswith("# %%"):
            flush()
            head = ln[4:].strip()
            kind = "markdown" if head.startswith("[markdown]") else "code"
            m = re.search(r"tags=(\[.*\])", head)
            tags = json.loads(m.group(1)) if m else []
            lines = []
        else:
            lines.append(ln)
    flush()
    nb.cells = cells
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def load(path):
    import nbformat
    if path.endswith(".py"):
        return read_percent(path)
    return nbformat.read(path, as_version=4)


def execute(job):
    """Run one notebook in one kernel (in a worker process); returns the
    executed notebook as JSON text and the seconds it took."""
    path, kernel, env, workdir = job
    os.environ.update(env)
    import nbformat
    from nbclient import NotebookClient
    nb = load(path)
    t0 = time.time()
    err = None
    try:
        NotebookClient(nb, kernel_name=kernel, timeout=TIMEOUT, allow_errors=True,
                       resources={"metadata": {"path": workdir}}).execute()
    except Exception as e:  # a dead kernel, a timeout: reported as the notebook's failure
        err = f"{type(e).__name__}: {str(e)[-600:]}"
    return nbformat.writes(nb), time.time() - t0, err


# --- normalising outputs -------------------------------------------------

_ADDR = re.compile(r"0x[0-9a-fA-F]+")
# tqdm's "[elapsed<left, rate]", and the spaces after it: tqdm pads a status
# line to the length of the one it overwrites, which depends on timing
_TQDM_TIME = re.compile(r"\[\d+:\d\d(:\d\d)?<[^\],]*,\s*[^\]]*\] *")
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def terminal(text):
    """Carriage returns applied: each line is what a terminal shows."""
    out = []
    for line in text.split("\n"):
        if "\r" in line:
            parts = [p for p in line.split("\r")]
            shown = ""
            for p in parts:
                shown = p + shown[len(p):]
            line = shown
        out.append(line)
    return "\n".join(out)


def mask(text, shape=False):
    text = _ADDR.sub("0x...", text)
    text = _TQDM_TIME.sub("[TIME]", text)
    if shape:
        text = _NUMBER.sub("N", text)
        text = re.sub(r"[ \t]+", "", text)
    return text


def _text(v):
    return "".join(v) if isinstance(v, list) else v


# What the reference kernel prints that belongs to this machine, not to the
# notebook: tqdm.auto (imported by PyTorch's torch.hub) warns under ipykernel
# when ipywidgets is not installed.
_REFERENCE_NOISE = re.compile(
    r"^\S*tqdm/auto\.py:\d+: TqdmWarning: IProgress not found\..*\n"
    r"  from \.autonotebook import tqdm as notebook_tqdm\n", re.M)


def normalise(outputs, shape=False):
    """[(kind, payload)] for a cell's outputs; pictures as a flag."""
    merged = []
    for o in outputs:
        if o["output_type"] == "stream" and o["name"] == "stderr":
            text = _REFERENCE_NOISE.sub("", _text(o["text"]))
            if not text:
                continue
            o = dict(o, text=text)
        if o["output_type"] == "stream":
            if merged and merged[-1][0] == "stream:" + o["name"]:
                merged[-1] = (merged[-1][0], merged[-1][1] + _text(o["text"]))
            else:
                merged.append(("stream:" + o["name"], _text(o["text"])))
        else:
            merged.append((o["output_type"], o))
    norm = []
    for kind, v in merged:
        if kind.startswith("stream:"):
            # Trailing newlines show nothing; ipykernel's buffering may send
            # a bar's closing newline as a stream output of its own.
            v = mask(terminal(v), shape).rstrip("\n")
            if v:
                if norm and norm[-1][0] == kind:
                    norm[-1] = (kind, norm[-1][1] + "\n" + v)
                else:
                    norm.append((kind, v))
        elif kind == "error":
            norm.append((kind, {"ename": v["ename"], "evalue": mask(v["evalue"], shape)}))
        else:  # execute_result, display_data
            data = {}
            for mime, val in v.get("data", {}).items():
                if mime in PICTURES:
                    data["picture"] = True
                elif mime == "application/json":
                    data[mime] = json.dumps(val, sort_keys=True)
                elif mime.startswith("text/"):
                    data[mime] = mask(_text(val), shape)
            norm.append(("result" if kind == "execute_result" else "display", data))
    return norm


def _close(a, b):
    """Texts equal but for numbers within a relative 1e-5."""
    if not isinstance(a, str) or not isinstance(b, str):
        return a == b
    if _NUMBER.sub("N", a) != _NUMBER.sub("N", b):
        return False
    for x, y in zip(_NUMBER.finditer(a), _NUMBER.finditer(b)):
        x, y = float(x.group(0)), float(y.group(0))
        if abs(x - y) > 1e-5 * max(abs(x), abs(y), 1e-3):
            return False
    return True


def compare_cell(ref, got, shape, close=False):
    """None when the nndb cell matches the reference, else a message."""
    r = normalise(ref.get("outputs", []), shape)
    g = normalise(got.get("outputs", []), shape)
    same = _close if close else (lambda a, b: a == b)
    problems = []
    if [k for k, _ in r] != [k for k, _ in g]:
        problems.append(f"outputs {[k for k, _ in r]} (reference) vs {[k for k, _ in g]} (nndb)")
    for (kr, vr), (kg, vg) in zip(r, g):
        if kr != kg:
            break
        if kr in ("result", "display"):
            for mime, val in vr.items():
                if mime not in vg:
                    problems.append(f"{kr}: no {mime} (reference has {str(val)[:200]!r})")
                elif not same(vg[mime], val):
                    problems.append(f"{kr} {mime}:\n  reference: {val!r}\n  nndb:      {vg[mime]!r}")
        elif not (same(vr, vg) if kr.startswith("stream:") else vr == vg):
            problems.append(f"{kr}:\n  reference: {vr!r}\n  nndb:      {vg!r}")
    return "\n".join(problems) or None


def selftest():
    """The comparison itself: differences it must see, and what it masks."""
    def cell(*outs):
        return {"outputs": list(outs)}
    res = lambda text: {"output_type": "execute_result", "data": {"text/plain": text}}
    pic = {"output_type": "display_data", "data": {"text/plain": "<Figure>", "image/png": "x"}}
    txt = lambda text, name="stdout": {"output_type": "stream", "name": name, "text": text}
    must_differ = [
        (cell(res("1")), cell(res("2")), False, False),
        (cell(res("a"), pic), cell(pic, res("a")), False, False),      # order
        (cell(pic), cell({"output_type": "display_data", "data": {"text/plain": "<Figure>"}}),
         False, False),                                                 # no picture
        (cell(txt("loss 2.5")), cell(txt("loss 2.6")), False, True),   # beyond 1e-5
        (cell(txt("a b")), cell(txt("a c")), True, False),
    ]
    must_match = [
        (cell(res("<A at 0x7f01>")), cell(res("<A at 0x5612>")), False, False),
        (cell(txt("10%|#  \r100%|##| 2/2 [00:01<00:00, 1.5it/s]\n", "stderr")),
         cell(txt("100%|##| 2/2 [00:00<00:00, 99.0it/s]", "stderr")), False, False),
        (cell(txt("tensor([ 0.12, -1.50])")), cell(txt("tensor([-0.77,  2.25])")), True, False),
        (cell(txt("0 3.741694211959839")), cell(txt("0 3.741694450378418")), False, True),
    ]
    bad = [i for i, (a, b, sh, cl) in enumerate(must_differ) if compare_cell(a, b, sh, cl) is None]
    bad += [f"match {i}: {compare_cell(a, b, sh, cl)}" for i, (a, b, sh, cl) in enumerate(must_match)
            if compare_cell(a, b, sh, cl) is not None]
    return bad


def main(argv):
    import nbformat
    names = argv[1:]
    paths = sorted(os.path.join(HERE, f) for f in os.listdir(HERE)
                   if (f.endswith(".ipynb") or (f.endswith(".py") and f != os.path.basename(__file__)))
                   and (not names or os.path.splitext(f)[0] in names))
    if not paths:
        print("no notebooks")
        print("0 passed, 1 failed")
        return 1
    bad = selftest()
    if bad:
        print(f"FAIL the comparison's self-test: {bad}")
        failed_selftest = 1
    else:
        failed_selftest = 0
    tmp = tempfile.mkdtemp(prefix="nndb-notebooks-")
    os.makedirs(OUTDIR, exist_ok=True)
    passed, failed = 1 - failed_selftest, failed_selftest
    try:
        setup_env(tmp)
        env = {k: v for k, v in os.environ.items()}
        jobs = []
        for p in paths:
            for k in KERNELS:
                wd = os.path.join(tmp, "work", k)
                os.makedirs(wd, exist_ok=True)
                jobs.append((p, k, env, wd))
        workers = int(os.environ.get("NNDB_NOTEBOOK_JOBS", "2"))
        t0 = time.time()
        with concurrent.futures.ProcessPoolExecutor(workers) as pool:
            results = dict(zip([(j[0], j[1]) for j in jobs], pool.map(execute, jobs)))
        wall = time.time() - t0
        for p in paths:
            name = os.path.splitext(os.path.basename(p))[0]
            nbs = {}
            for k in KERNELS:
                text, secs, err = results[(p, k)]
                with open(os.path.join(OUTDIR, f"{name}.{k}.ipynb"), "w") as f:
                    f.write(text)
                nbs[k] = nbformat.reads(text, as_version=4)
                print(f"{name}: {k} ran in {secs:.1f} s")
                if err:
                    print(f"FAIL {name}: the {k} run stopped: {err}")
                    failed += 1
            ref = [c for c in nbs["python3"].cells if c.cell_type == "code"]
            got = [c for c in nbs["nndb"].cells if c.cell_type == "code"]
            for i, (cr, cg) in enumerate(zip(ref, got)):
                tags = cr.metadata.get("tags", [])
                label = f"{name} cell {i + 1} (`{cr.source.splitlines()[0] if cr.source else ''}`)"
                if ("differs" in tags or "close" in tags) and not any(
                        ln.startswith("#") for ln in cr.source.splitlines()):
                    print(f"FAIL {label}: tagged {tags} without a comment saying why")
                    failed += 1
                    continue
                if "differs" in tags:
                    reason = [ln for ln in cr.source.splitlines() if ln.startswith("#")]
                    if reason:
                        print(f"KNOWN {label}: {' '.join(ln.lstrip('# ') for ln in reason)}")
                        passed += 1
                    else:
                        print(f"FAIL {label}: tagged differs without a comment saying why")
                        failed += 1
                    continue
                problem = compare_cell(cr, cg, "shape" in tags, "close" in tags)
                if problem:
                    print(f"FAIL {label}:\n{problem}")
                    failed += 1
                else:
                    passed += 1
            # Every picture the reference drew, counted, so the log shows it.
            npics = sum(1 for c in ref for o in c.get("outputs", [])
                        if any(m in o.get("data", {}) for m in PICTURES))
            print(f"{name}: {len(ref)} code cells, {npics} pictures in the reference")
        print(f"FIGURE notebooks wall time {wall:.1f} s ({len(jobs)} runs, {workers} at a time)")
    except Exception as e:
        print(f"FAIL setup: {type(e).__name__}: {e}")
        failed += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

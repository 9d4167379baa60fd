"""The examples: each notebook in examples/ executed top to bottom by nbclient
against the nndb kernel (as CI and nbconvert do), with its outputs checked;
each examples/*.py script run by `nndb run` (plain Python: it imports what it uses). Also the installed kernelspec
itself, as jupyter_client reads it.
"""
import glob
import json
import os
import re
import shutil
import subprocess

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

import harness

EXAMPLES = os.path.join(harness.ROOT, "examples")
pytestmark = pytest.mark.skipif(not harness.IS_NNDB, reason="the examples are nndb code")


def run_notebook(name):
    path = os.path.join(EXAMPLES, name)
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, \
                f"{name}: commit notebooks with outputs cleared"
    assert nb.metadata.kernelspec.name == "nndb"
    NotebookClient(nb, kernel_name=harness.KERNEL, timeout=120,
                   resources={"metadata": {"path": EXAMPLES}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    for i, c in enumerate(code):
        for o in c.outputs:
            assert o.output_type != "error", \
                f"{name} cell {i}: {o.get('ename')}: {o.get('evalue')}"
        assert c.execution_count == i + 1
    return nb, code


def text_of(cell):
    parts = []
    for o in cell.outputs:
        if o.output_type == "stream":
            parts.append(o.text)
        elif o.output_type in ("execute_result", "display_data"):
            parts.append(o.data.get("text/plain", ""))
    return "".join(parts)


def mimes(cell, output_type):
    return [set(o.data) for o in cell.outputs if o.output_type == output_type]


def test_tour_notebook(prefix):
    nb, code = run_notebook("tour_tensors_autograd.ipynb")
    # x: a tensor shown as the cell's value, with its HTML table.
    assert mimes(code[0], "execute_result") and \
        {"text/plain", "text/html"} <= mimes(code[0], "execute_result")[0]
    assert text_of(code[0]).startswith("tensor([[1., 2.],")
    assert text_of(code[1]).strip() == "torch.Size([2, 2]) torch.float32"
    assert "[12., 26.]" in text_of(code[2])
    assert text_of(code[3]).strip() == "56.0 14.0"
    assert "grad_fn=<SumBackward0>" in text_of(code[4])
    assert text_of(code[5]).split("\n")[:2] == ["tensor([ 2., -4.,  6.])", "True"]
    # The histogram is a picture (matplotlib's PNG), not the cell's value.
    pics = pictures_of(code[6])
    assert len(pics) == 1 and not mimes(code[6], "execute_result")
    # manual_seed(0); randn(1000): torch prints the same (mean 0.029, std 1.029).
    assert "mean 0.029  std 1.029" in text_of(code[6])
    assert "relu(input, inplace=False)" in text_of(code[7])  # help(F.relu)
    who = text_of(code[8])
    for name in ("a", "loss", "w", "x", "y"):
        assert re.search(rf"^{name}\s+Tensor", who, re.M), who


def test_train_mlp_notebook(prefix):
    nb, code = run_notebook("train_mlp.ipynb")
    model = code[1]  # the cell's value, as PyTorch prints a module
    assert "text/plain" in mimes(model, "execute_result")[0]
    assert "Linear(in_features=2, out_features=64, bias=True)" in text_of(model)
    steps = re.findall(r"step +(\d+)  loss ([0-9.]+)", text_of(code[2]))
    assert [int(s) for s, _ in steps] == [0, 100, 200]
    assert abs(float(steps[0][1]) - 1.0986) < 0.15, steps  # starts near ln 3
    plot = code[3]
    pics = pictures_of(plot)
    assert len(pics) == 1 and "training loss" in pics[0]["text/plain"]
    assert not mimes(plot, "execute_result"), "plot() returns None"
    m = re.search(r"final loss ([0-9.]+)  accuracy ([0-9.]+)", text_of(code[4]))
    assert m, text_of(code[4])
    assert float(m.group(1)) < 0.05, m.group(0)
    assert float(m.group(2)) > 0.97, m.group(0)


def pictures_of(cell):
    """The bundles of a cell's pictures: matplotlib's PNG (plot(), hist(),
    live_plot() draw with it when it is installed) or an SVG."""
    return [o.data for o in cell.outputs
            if o.output_type in ("display_data", "execute_result")
            and ("image/svg+xml" in o.data or "image/png" in o.data)]


def test_inspect_training_notebook(prefix):
    nb, code = run_notebook("inspect_training.ipynb")
    m = re.search(r"initial loss ([0-9.]+); a uniform guess gives log\(27\) = 3.296", text_of(code[0]))
    assert m and float(m.group(1)) > 6, text_of(code[0])  # confidently wrong
    act = code[1]
    assert {"text/plain", "text/html"} <= mimes(act, "execute_result")[0]
    html = act.outputs[0].data["text/html"]  # per-layer histograms, as sparklines
    assert "<th>histogram</th>" in html and re.search("[\u2581-\u2588]{24}</td>", html), html
    assert re.search(r"model\.3 +Tanh", text_of(act))
    m = re.search(r"initial loss ([0-9.]+)\ntanh saturated: before ([0-9.]+), after ([0-9.]+)",
                  text_of(code[2]))
    assert m, text_of(code[2])
    assert abs(float(m.group(1)) - 3.296) < 0.1  # near log(27) once the init is fixed
    assert float(m.group(2)) > 0.5 and float(m.group(3)) < float(m.group(2)) / 2
    train = code[3]
    # One live plot output, updated in place (nbclient applies the updates).
    displays = [o for o in train.outputs if o.output_type == "display_data"]
    assert len(displays) == 1 and "image/png" in displays[0].data
    assert displays[0].metadata is not None
    m = re.search(r"loss after 300 steps ([0-9.]+)", text_of(train))
    assert m and float(m.group(1)) < 3.0, text_of(train)
    plot = pictures_of(code[4])
    assert len(plot) == 1 and "1e-3 guide" in plot[0]["text/plain"]
    assert "model.2.weight" in plot[0]["text/plain"]
    assert "log10 upd:data" in text_of(code[5]) and "model.4.weight" in text_of(code[5])
    assert text_of(code[6]).startswith("gradcheck: passed")
    assert "10/6000" in text_of(code[6])
    prof = [o for o in code[7].outputs if o.output_type == "display_data"]
    assert prof and "<table>" in prof[0].data["text/html"]
    assert re.search(r"^linear +fwd +2 ", prof[0].data["text/plain"], re.M)


@pytest.mark.parametrize("script", sorted(os.path.basename(p)
                                          for p in glob.glob(os.path.join(EXAMPLES, "*.py"))))
def test_example_script_runs(script):
    p = subprocess.run([harness.NNDB, "run", os.path.join(EXAMPLES, script)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-1000:]
    assert "Error" not in p.stderr, p.stderr[-1000:]
    if script == "train_mlp.py":
        m = re.search(r"final loss ([0-9.]+)", p.stdout)
        assert m and float(m.group(1)) < 0.05, p.stdout[-400:]


def test_installed_kernelspec(prefix):
    spec_dir = os.path.join(prefix, "share", "jupyter", "kernels", "nndb")
    with open(os.path.join(spec_dir, "kernel.json")) as f:
        raw = json.load(f)
    assert os.path.isabs(raw["argv"][0]) and os.access(raw["argv"][0], os.X_OK)
    assert "{connection_file}" in raw["argv"]
    assert raw["display_name"] == "nndb"
    assert raw["language"] == "python"  # as ipykernel's: Python, with torch at hand
    assert raw["interrupt_mode"] in ("signal", "message")
    for size in (32, 64):
        logo = os.path.join(spec_dir, f"logo-{size}x{size}.png")
        with open(logo, "rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n", logo
        assert int.from_bytes(head[16:20], "big") == size
        assert int.from_bytes(head[20:24], "big") == size
    specs = KernelSpecManager().get_all_specs()
    assert specs["nndb"]["resource_dir"] == spec_dir
    assert specs[harness.KERNEL_MESSAGE_MODE]["spec"]["interrupt_mode"] == "message"
    assert specs[harness.KERNEL_SIGNAL_MODE]["spec"]["interrupt_mode"] == "signal"


def test_debug_mlp_notebook(prefix):
    nb, code = run_notebook("debug_mlp.ipynb")
    stop = [o for o in code[1].outputs if o.output_type == "display_data"
            and "stopped" in o.data.get("text/plain", "")]
    assert len(stop) == 1, text_of(code[1])
    assert "forward linear, op 3 of this statement, in model.2" in stop[0].data["text/plain"]
    assert "<table" in stop[0].data["text/html"] and "model.2.weight" in stop[0].data["text/html"]
    back = [o for o in code[2].outputs if o.output_type == "display_data"
            and "stopped" in o.data.get("text/plain", "")]
    assert len(back) == 3 and all("backward linear" in o.data["text/plain"] for o in back)
    svgs = [o.data["image/svg+xml"] for o in code[3].outputs
            if o.output_type == "display_data" and "image/svg+xml" in o.data]
    assert len(svgs) == 1 and "model.0" in svgs[0] and "cross_entropy" in svgs[0]
    nan = text_of(code[4])
    assert "stopped (breakpoint 3, nan): forward linear" in nan, nan
    assert "NaN in the leaf tensor bad (input 0 of linear) at index [5, 1]" in nan, nan


@pytest.mark.parametrize("name", sorted(os.path.basename(p)
                                        for p in glob.glob(os.path.join(EXAMPLES, "*.ipynb"))))
def test_example_opens_without_changes(name, prefix):
    """A notebook front end that opens the example and starts its kernel
    writes the kernel's language_info and the kernelspec into the metadata,
    and saves in the current nbformat: if any of that differs from the file,
    the notebook opens as "(unsaved changes)"."""
    path = os.path.join(EXAMPLES, name)
    with open(path) as f:
        text = f.read()
    nb = nbformat.reads(text, as_version=4)
    nbformat.validate(nb)
    assert (nb.nbformat, nb.nbformat_minor) == (nbformat.current_nbformat,
                                                nbformat.current_nbformat_minor)
    assert nbformat.writes(nb) + "\n" == text, "not as nbformat writes it"
    k = harness.Kernel()
    try:
        rep, _ = k.request("shell", "kernel_info_request")
    finally:
        k.close()
    assert dict(nb.metadata.language_info) == rep["content"]["language_info"]
    spec = KernelSpecManager().get_kernel_spec(nb.metadata.kernelspec.name)
    assert dict(nb.metadata.kernelspec) == {"name": "nndb", "display_name": spec.display_name,
                                            "language": spec.language}


@pytest.mark.skipif(not shutil.which("mpirun"), reason="ddp_bugs.ipynb runs ranks: mpirun missing")
def test_ddp_bugs_notebook(prefix):
    """dist_run from the kernel: each bug's symptom streamed from both ranks,
    then its fix."""
    nb, code = run_notebook("ddp_bugs.ipynb")
    hello = text_of(code[0])
    assert "[rank 0] rank 0 of 2" in hello and "[rank 1] rank 1 of 2" in hello, hello
    one = text_of(code[1])
    assert one.count("ratio 2.000") == 2 and "grad norm, DDP / one process: 2.0" in one, one
    assert "fixed: 1.0" in one, one
    two = text_of(code[2])
    assert "first diverged parameter: 0.weight" in two and "fixed: None" in two, two
    assert "which differs on rank 1 from rank 0" in two, two
    three = text_of(code[3])
    assert "repeats epoch 0's order: True" in three and "fixed: False" in three, three


def pngs_of(cell):
    return [o.data["image/png"] for o in cell.outputs
            if o.output_type in ("display_data", "execute_result") and "image/png" in o.data]


def test_cnn_fashion_mnist_notebook(prefix):
    """Fashion-MNIST from Debian's package, pictures as PNG, a CNN trained in
    the kernel, evaluated in eval mode, its feature maps and a matplotlib figure."""
    import base64
    nb, code = run_notebook("cnn_fashion_mnist.ipynb")
    assert "60000 training and 10000 test images" in text_of(code[0]), text_of(code[0])
    grid = pngs_of(code[1])  # show_images: one picture, shown once
    assert len(grid) == 1 and base64.b64decode(grid[0])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not mimes(code[1], "execute_result"), "show_images() returns None"
    assert "<16 images 1x28x28 from shape [16, 1, 28, 28], 0..255>" in text_of(code[1])
    assert "Ankle boot T-shirt/top T-shirt/top Dress" in text_of(code[1])
    assert "Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))" in text_of(code[2])
    m = re.search(r"first loss ([0-9.]+), last 10 steps ([0-9.]+)", text_of(code[3]))
    assert m and abs(float(m.group(1)) - 2.30) < 0.3 and float(m.group(2)) < 0.8, text_of(code[3])
    assert len(pictures_of(code[3])) == 1  # the loss curve
    m = re.search(r"test accuracy on 1000 images: ([0-9.]+)", text_of(code[4]))
    assert m and float(m.group(1)) > 0.7, text_of(code[4])
    assert "Ankle boot (8, 28, 28)" in text_of(code[5])
    assert len(pngs_of(code[5])) == 1 and "8 images 1x28x28" in text_of(code[5])
    assert len(pngs_of(code[6])) == 1  # the matplotlib figure

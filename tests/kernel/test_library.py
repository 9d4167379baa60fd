"""nndb's own library in the kernel: the datasets of nndb.data, plot and hist
(one bundle: the engine's SVG, its PNG and its text), progress bars drawn by
the kernel, lr_find's report, and the prelude names the drills use.

    NNDB=build/library/nndb tests/kernel/run.sh -k test_library
"""
import pytest

import harness
from harness import ok, outputs, result_text, stdout_of

pytestmark = pytest.mark.skipif(not harness.IS_NNDB, reason="nndb's own library")


def displays(io):
    return [m["content"]["data"] for m in outputs(io)
            if m["msg_type"] in ("display_data", "update_display_data")]


def test_datasets_in_the_prelude(k):
    rep, io = k.execute("ds = spirals(300, classes=3, seed=0, bugs=['off_by_one'])\n"
                        "train, val, test = ds.split(0.8, 0.1)\n"
                        "print(len(train), len(val), len(test), train.bugs)\nds")
    ok(rep)
    assert stdout_of(io) == "240 30 30 ['off_by_one']\n"
    (res,) = outputs(io, "execute_result")
    data = res["content"]["data"]
    assert data["text/plain"] == ("Dataset('spirals', n=300, x=[300, 2] float32, y=[300] int64, "
                                  "num_classes=3, bugs=['off_by_one'])")
    assert "labels off by one" in data["text/html"]


def test_dataset_with_torch_dataloader(k):
    rep, io = k.execute("manual_seed(0)\n"
                        "shapes = [tuple(xb.shape) for xb, yb in "
                        "DataLoader(moons(100), batch_size=32, shuffle=True)]\nshapes")
    ok(rep)
    assert result_text(io) == "[(32, 2), (32, 2), (32, 2), (4, 2)]"


def test_copy_task_and_words(k):
    rep, io = k.execute("c = copy_task(64, length=8, vocab=10, bugs=['all_padding'], "
                        "padding_fraction=0.1)\n"
                        "w = words(block_size=3)\n"
                        "(c.mask.sum(dim=1) == 0).sum().item(), len(c.padded_rows), "
                        "w.vocab.decode(w.vocab.encode('hello')), w.num_classes")
    ok(rep)
    assert result_text(io) == "(6, 6, 'hello', 27)"


def test_a_bug_parameter_without_its_bug_is_an_error(k):
    rep, io = k.execute("spirals(leak_fraction=0.2)")
    c = rep["content"]
    assert c["ename"] == "ValueError"
    assert c["evalue"] == ("leak_fraction= is a parameter of the 'leakage' bug, which bugs= "
                           "does not list")


def _png_size(b64):
    import base64
    import struct
    raw = base64.b64decode(b64)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", raw[:8]
    return struct.unpack(">II", raw[16:24])


def test_plot_is_one_bundle_of_a_matplotlib_png_and_sparklines(k):
    rep, io = k.execute("plot([3.0, 2.0, 1.5, 1.2, 1.0], [3.1, 2.5, 2.2, 2.1, 2.0], "
                        "labels=['train', 'val'], title='loss')")
    ok(rep)
    assert result_text(io) is None
    (data,) = displays(io)
    # matplotlib's picture, as plt.plot's figures: a PNG, no engine SVG.
    assert set(data) == {"text/plain", "image/png"}, set(data)
    w, h = _png_size(data["image/png"])
    assert 300 < w < 1000 and 200 < h < 800, (w, h)
    text = data["text/plain"]
    assert text.startswith("loss\ntrain  ") and "min 1  max 3  last 1  (5 points)" in text
    # pyplot's own figures are not touched.
    rep, io = k.execute("import matplotlib.pyplot as plt\nlen(plt.get_fignums())")
    assert result_text(io) == "0"
    # In the figure format the notebook asks for.
    rep, io = k.execute("%config InlineBackend.figure_format = 'svg'\nplot([1.0, 2.0])")
    (data,) = displays(io)
    k.execute("%config InlineBackend.figure_format = 'png'")
    assert "<svg" in data["image/svg+xml"]


def test_plot_without_matplotlib_is_the_engine_svg(k):
    rep, io = k.execute("import nndb.plot as _p\n_p.use_matplotlib = False\n"
                        "try:\n    plot([3.0, 2.0, 1.0], labels=['train'])\n"
                        "finally:\n    _p.use_matplotlib = None")
    ok(rep)
    (data,) = displays(io)
    assert data["image/svg+xml"].startswith("<svg") and ">train</text>" in data["image/svg+xml"]


def test_hist(k):
    rep, io = k.execute("manual_seed(0)\nhist(randn(1000), bins=10, title='w')")
    ok(rep)
    (data,) = displays(io)
    assert set(data) == {"text/plain", "image/png"}, set(data)
    assert data["text/plain"].startswith("w\n") and "n=1000  mean=" in data["text/plain"]
    rep, io = k.execute("hist([1.0, 2.0], bins=0)")
    assert rep["content"]["ename"] == "ValueError"


def test_progress_updates_one_display(k):
    rep, io = k.execute("total = 0\nfor i in progress(range(5), desc='steps'):\n"
                        "    total += i\ntotal")
    ok(rep)
    assert result_text(io) == "10"
    shown = [m for m in outputs(io) if m["msg_type"] in ("display_data", "update_display_data")]
    assert shown[0]["msg_type"] == "display_data"
    assert shown[-1]["content"]["data"]["text/plain"].endswith("5/5")
    assert "steps" in shown[-1]["content"]["data"]["text/plain"]
    assert len({m["content"]["transient"]["display_id"] for m in shown}) == 1


def test_lr_find_reports_and_restores_the_model(k):
    rep, io = k.execute("d = spirals(300, classes=3, seed=0)\nmanual_seed(4)\n"
                        "m = Sequential(Linear(2, 64), Tanh(), Linear(64, 3))\n"
                        "before = [p.clone() for p in m.parameters()]\n"
                        "r = lr_find(m, cross_entropy, (d.x, d.y), SGD, steps=60)\n"
                        "same = all((a == b).all().item() for a, b in zip(before, m.parameters()))\n"
                        "same, len(r.lrs) == len(r.losses), 1e-6 <= r.suggestion < 1\n")
    ok(rep)
    assert result_text(io) == "(True, True, True)"
    rep, io = k.execute("r")
    (res,) = outputs(io, "execute_result")
    data = res["content"]["data"]
    assert data["text/plain"].startswith("lr_find: ")
    assert "suggested lr" in data["text/plain"] and "<svg" in data["text/html"]

"""A conv layer's feature maps as a picture in the notebook (issue 21):
show_feature_maps on a small CNN's first layer sends one display_data with
a PNG of the grid's size (6 maps of 12x12, enlarged 8 times, 2 pixels
apart), and the same call at a debugger stop on that layer shows the
stopped layer's output. nndb's own functions: skipped under ipykernel.

    tests/kernel/run.sh -k feature_maps
"""
import base64
import struct

import pytest

import harness
from harness import ok, outputs

pytestmark = pytest.mark.skipif(not harness.IS_NNDB, reason="show_feature_maps is nndb's own")

SETUP = ("import torch; from torch import nn\n"
         "torch.manual_seed(0)\n"
         "cnn = nn.Sequential(nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),\n"
         "                    nn.Flatten(), nn.Linear(6 * 6 * 6, 3))\n"
         "x = torch.randn(2, 1, 12, 12)\n")
# show_images' layout: 96 // 12 = 8 times enlarged, 6 maps in one row, 2 pixels between
SIZE = (6 * (12 * 8 + 2) + 2, 12 * 8 + 2 + 2)


@pytest.fixture(scope="module")
def k(kernel):
    rep, _ = kernel.execute(SETUP)
    ok(rep)
    return kernel


def _pngs(iopub):
    out = []
    for m in outputs(iopub, "display_data"):
        png = m["content"]["data"].get("image/png")
        if png:
            raw = base64.b64decode(png)
            assert raw[:8] == b"\x89PNG\r\n\x1a\n", raw[:8]
            out.append((struct.unpack(">II", raw[16:24]), m["content"]["data"]["text/plain"]))
    return out


def test_show_feature_maps_is_one_png_grid(k):
    rep, iopub = k.execute("show_feature_maps(cnn[0](x))")
    ok(rep)
    assert not outputs(iopub, "execute_result"), "show_feature_maps() returns None"
    (pic,) = _pngs(iopub)
    assert pic[0] == SIZE, pic
    assert pic[1].startswith("<6 feature maps 12x12"), pic[1]


def test_feature_maps_at_a_stop(k):
    k.execute("%break cnn.0")
    rep, iopub = k.execute("loss = cnn(x).sum()", stdin_answers=["show_feature_maps(out)", "c"])
    k.execute("%break clear")
    ok(rep)
    pics = _pngs(iopub)
    assert [p[0] for p in pics] == [SIZE], pics

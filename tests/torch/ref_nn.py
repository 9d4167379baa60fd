"""PyTorch reference cases for the neural-network ops (engine/ops/ops_nn.c).

Owned by the nn-ops engineer. Writes build/ref/nn.txt; the C side is
tests/unit/test_torch_nn.c, whose table maps every case name written here to
a C function computing the same thing with nndb's ops.

Naming: <op>_<variant>_<dtype>. Every case runs in float32 and float64 and
compares the output and the gradient of sum(out * up) for each float input
(so float targets of mse/bce/cross_entropy with probabilities get theirs
too). Dropout is not here: PyTorch's generator is not ours; its statistics
and mask consistency are tested in test_nn_ops.c.

torch 1.13 (Debian) has no F.scaled_dot_product_attention, so attention is
written out as softmax(q k^T * scale + mask) v with the causal mask aligned
top-left (row i sees keys 0..i), which is what later PyTorch's is_causal does.
"""
import math
import os
import sys
import warnings

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refgen import RefFile  # noqa: E402

# mse_loss warns when the target broadcasts; that case is deliberate.
warnings.filterwarnings("ignore", category=UserWarning)

ref = RefFile("nn")
f64, i64 = torch.float64, torch.int64
DTS = [("f32", torch.float32), ("f64", f64)]
INF = float("inf")


def rnd(shape, dt):
    return torch.randn(shape, dtype=f64).to(dt)


def sdpa(q, k, v, causal, scale=None):
    d = q.shape[-1]
    s = (q @ k.transpose(-2, -1)) * (scale if scale else 1.0 / math.sqrt(d))
    if causal:
        keep = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        s = s.masked_fill(~keep, -INF)
    return torch.softmax(s, -1) @ v


for sfx, dt in DTS:
    def case(name, fn, *inputs):
        ref.case(f"{name}_{sfx}", fn, *inputs)

    # ---- softmax / log_softmax ----
    x34 = rnd((3, 4), dt)
    x234 = rnd((2, 3, 4), dt)
    case("softmax_dim1", lambda x: torch.softmax(x, 1), x34)
    case("softmax_dim0", lambda x: torch.softmax(x, 0), x34)
    case("softmax_3d_mid", lambda x: torch.softmax(x, 1), x234)
    case("log_softmax_dim1", lambda x: torch.log_softmax(x, -1), x34)
    case("log_softmax_3d_first", lambda x: torch.log_softmax(x, 0), x234)
    # A mask: row 0 hides two entries (probability 0, no gradient), row 2 hides
    # all of them (nan, as PyTorch gives).
    xm = rnd((3, 4), dt)
    xm[0, 1] = -INF
    xm[0, 3] = -INF
    xm[2, :] = -INF
    case("softmax_mask", lambda x: torch.softmax(x, 1), xm)
    xlm = rnd((2, 4), dt)
    xlm[1, 0] = -INF
    case("log_softmax_mask", lambda x: torch.log_softmax(x, 1), xlm)

    # ---- cross_entropy ----
    logits = rnd((5, 4), dt)
    tgt = torch.tensor([0, 3, -100, 2, 1], dtype=i64)
    for red in ("mean", "sum", "none"):
        case(f"ce_{red}", lambda x, t, r=red: F.cross_entropy(x, t, reduction=r), logits, tgt)
        case(f"ce_ls_{red}",
             lambda x, t, r=red: F.cross_entropy(x, t, reduction=r, label_smoothing=0.1),
             logits, tgt)
    tgt2 = torch.tensor([0, 2, 2, 3, 1], dtype=i64)
    case("ce_ignore2", lambda x, t: F.cross_entropy(x, t, ignore_index=2), logits, tgt2)
    x3 = rnd((2, 3, 4), dt)
    t3 = torch.tensor([[0, 2, 1, -100], [1, 1, 0, 2]], dtype=i64)
    case("ce_3d_mean", lambda x, t: F.cross_entropy(x, t), x3, t3)
    case("ce_3d_none", lambda x, t: F.cross_entropy(x, t, reduction="none"), x3, t3)
    case("ce_3d_ls_sum",
         lambda x, t: F.cross_entropy(x, t, reduction="sum", label_smoothing=0.25), x3, t3)
    case("ce_1d", lambda x, t: F.cross_entropy(x, t), rnd((4,), dt), torch.tensor(2))
    probs = torch.softmax(rnd((5, 4), dt), 1)
    case("ce_probs_mean", lambda x, t: F.cross_entropy(x, t), logits, probs)
    case("ce_probs_ls_none",
         lambda x, t: F.cross_entropy(x, t, reduction="none", label_smoothing=0.2), logits, probs)

    # ---- nll_loss ----
    lp = torch.log_softmax(rnd((5, 4), dt), 1)
    case("nll_mean", lambda x, t: F.nll_loss(x, t), lp, tgt)
    case("nll_none", lambda x, t: F.nll_loss(x, t, reduction="none"), lp, tgt)
    case("nll_3d_sum", lambda x, t: F.nll_loss(x, t, reduction="sum"), x3, t3)

    # ---- mse_loss ----
    a, b = rnd((3, 4), dt), rnd((3, 4), dt)
    for red in ("mean", "sum", "none"):
        case(f"mse_{red}", lambda x, t, r=red: F.mse_loss(x, t, reduction=r), a, b)
    case("mse_bcast", lambda x, t: F.mse_loss(x, t), a, rnd((4,), dt))

    # ---- binary_cross_entropy (+ with logits) ----
    p = torch.rand((3, 4), dtype=f64).clamp(0.05, 0.95).to(dt)
    y = torch.rand((3, 4), dtype=f64).to(dt)
    for red in ("mean", "sum", "none"):
        case(f"bce_{red}", lambda x, t, r=red: F.binary_cross_entropy(x, t, reduction=r), p, y)
        case(f"bcel_{red}",
             lambda x, t, r=red: F.binary_cross_entropy_with_logits(x, t, reduction=r), a, y)
    # Hard 0/1 probabilities: each log is clamped at -100.
    pe = torch.tensor([0.0, 1.0, 0.5, 1.0], dtype=dt)
    ye = torch.tensor([0.0, 1.0, 1.0, 0.0], dtype=dt)
    ref.case(f"bce_edge_{sfx}", lambda x, t: F.binary_cross_entropy(x, t, reduction="none"),
             pe, ye, grad=False)
    big = torch.tensor([-800.0, -30.0, 0.0, 30.0, 800.0], dtype=dt)
    case("bcel_large", lambda x, t: F.binary_cross_entropy_with_logits(x, t, reduction="none"),
         big, torch.tensor([1.0, 0.0, 0.5, 1.0, 0.0], dtype=dt))

    # ---- embedding ----
    w = rnd((5, 3), dt)
    idx = torch.tensor([[4, 0, 4], [2, 4, 0]], dtype=i64)
    case("embedding_repeat", lambda w_, i: F.embedding(i, w_), w, idx)
    case("embedding_1d", lambda w_, i: F.embedding(i, w_), w, torch.tensor([1, 1, 3]))

    # ---- layer_norm ----
    xl = rnd((2, 3, 4), dt) * 3 + 1
    case("ln_plain", lambda x: F.layer_norm(x, (4,), eps=1e-5), xl)
    case("ln_affine", lambda x, w_, b_: F.layer_norm(x, (4,), w_, b_, eps=1e-5), xl,
         rnd((4,), dt), rnd((4,), dt))
    case("ln_2d_affine", lambda x, w_, b_: F.layer_norm(x, (3, 4), w_, b_, eps=1e-3), xl,
         rnd((3, 4), dt), rnd((3, 4), dt))
    case("ln_weight_only", lambda x, w_: F.layer_norm(x, (4,), w_, None, eps=1e-5), xl,
         rnd((4,), dt))

    # ---- scaled dot-product attention ----
    q, k, v = rnd((2, 2, 3, 4), dt), rnd((2, 2, 5, 4), dt), rnd((2, 2, 5, 3), dt)
    case("sdpa_full", lambda q_, k_, v_: sdpa(q_, k_, v_, False), q, k, v)
    case("sdpa_causal", lambda q_, k_, v_: sdpa(q_, k_, v_, True), q, k, v)
    qs, ks, vs = rnd((4, 6, 8), dt), rnd((4, 6, 8), dt), rnd((4, 6, 8), dt)
    case("sdpa_causal_square", lambda q_, k_, v_: sdpa(q_, k_, v_, True), qs, ks, vs)
    case("sdpa_scale", lambda q_, k_, v_: sdpa(q_, k_, v_, False, 0.3), qs, ks, vs)

ref.close()

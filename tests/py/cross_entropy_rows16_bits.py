# Cross-entropy over rows of few classes (a classifier's [N, C], C < 16)
# gives PyTorch's bits when nndb takes sixteen rows at once on AVX-512
# machines (ops_rows.c, pt512_cross_entropy16 and its gradient), as well as
# on the eight-row and one-row paths that take the rest: row counts around
# 16 and 8, every class count below 16, targets ignored (the default index
# and an ignore_index that is a class), planted -inf, +inf, NaN, huge and
# tiny logits, mean, sum and none, with and without grad. Each result
# prints as an md5 of its bytes (NaNs hash as one value).
import hashlib
import struct

import torch
import torch.nn.functional as F


def h(t):
    v = [u if u == u else float("nan") for u in t.detach().reshape(-1).tolist()]
    return hashlib.md5(struct.pack("<%df" % len(v), *v)).hexdigest()[:16]


torch.manual_seed(0)
for c in range(1, 16):
    for n in (8, 15, 16, 17, 24, 31, 32, 40, 64, 100):
        x = torch.randn(n, c) * 3
        t = torch.randint(0, c, (n,))
        t[::5] = -100
        if n >= 16 and c >= 2:
            x[1, c // 2] = float("-inf")
            x[2, :] = float("-inf")
            x[3, c - 1] = float("inf")
            x[4, 0] = float("nan")
            x[5, (c - 1) // 2] = 1e30
            x[6, :] = 0.0
            x[7, 1] = -0.0
            x[8, :] = x[8, :] * 1e-30
            x[9, 0] = 88.0
            x[11, c - 1] = -88.0
            x[12, :] = 1e-40
        x.requires_grad_()
        out = []
        for red in ("mean", "sum", "none"):
            g = torch.randn(n) if red == "none" else torch.tensor(0.37)
            loss = F.cross_entropy(x, t, reduction=red)
            (dx,) = torch.autograd.grad(loss, x, g)
            with torch.no_grad():
                loss_ng = F.cross_entropy(x, t, reduction=red)
            out += [h(loss), h(loss_ng), h(dx)]
        # an ignore_index that is also a class, over finite logits (an
        # ignored row holding +inf or NaN gets NaN in PyTorch's gradient,
        # 0 in nndb's: not what this script is about)
        xf = torch.nan_to_num(x.detach(), nan=0.0, posinf=50.0, neginf=-50.0).requires_grad_()
        loss = F.cross_entropy(xf, t.clamp(min=0), ignore_index=0)
        (dx,) = torch.autograd.grad(loss, xf)
        out += [h(loss), h(dx)]
        print("c", c, "n", n, " ".join(out))

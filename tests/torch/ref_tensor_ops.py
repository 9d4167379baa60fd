"""PyTorch reference cases for the tensor ops of issue 11 (engine/ops/ops_math.c,
ops_scan.c, ops_index.c, ops_norm.c).

Writes build/ref/tensor_ops.txt; the C side is tests/unit/test_torch_tensor_ops.c,
whose table maps every case name to a C function computing the same thing with
nndb's ops. Every case runs in float32 and float64 and compares the output and
the gradient of sum(out * up) for each float input.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refgen import RefFile  # noqa: E402

ref = RefFile("tensor_ops")
f64, i64 = torch.float64, torch.int64
DTS = [("f32", torch.float32), ("f64", f64)]


def rnd(shape, dt):
    return torch.randn(shape, dtype=f64).to(dt)


for sfx, dt in DTS:
    def case(name, fn, *inputs):
        ref.case(f"{name}_{sfx}", fn, *inputs)

    x34 = rnd((3, 4), dt)
    pos = (torch.rand((3, 4), dtype=f64) * 4 + 0.1).to(dt)
    case("sin", torch.sin, x34)
    case("cos", torch.cos, x34)
    case("log2", torch.log2, pos)
    case("log10", torch.log10, pos)
    xn = rnd((2, 3), dt)
    xn[0, 1] = float("nan")
    xn[1, 0] = float("inf")
    xn[1, 2] = -float("inf")
    case("nan_to_num", lambda x: torch.nan_to_num(x, nan=0.5, posinf=3.0, neginf=-2.0), xn)
    x234 = rnd((2, 3, 4), dt)
    case("tril", lambda x: torch.tril(x), x234)
    case("tril_m1", lambda x: torch.tril(x, -1), x34)
    case("triu_p1", lambda x: torch.triu(x, 1), x234)
    case("cumsum_d1", lambda x: torch.cumsum(x, 1), x234)
    case("cumsum_d0", lambda x: torch.cumsum(x, 0), x34)
    case("cumprod_d1", lambda x: torch.cumprod(x, 1), x234)
    xz = rnd((3, 5), dt)
    xz[0, 2] = 0.0
    xz[1, 0] = 0.0
    xz[1, 3] = 0.0
    xz[2, 4] = 0.0
    case("cumprod_zeros", lambda x: torch.cumprod(x, 1), xz)
    case("sort_d1", lambda x: torch.sort(x, 1).values, x34)
    case("sort_desc_d0", lambda x: torch.sort(x, 0, descending=True).values, x34)
    case("topk2", lambda x: torch.topk(x, 2, dim=1).values, x34)
    case("topk_small", lambda x: torch.topk(x, 2, dim=0, largest=False).values, x34)
    gi = torch.tensor([[0, 3, 3], [1, 1, 0], [2, 0, 2]], dtype=i64)
    case("gather_d1", lambda x, i: torch.gather(x, 1, i), x34, gi)
    gi0 = torch.tensor([[2, 0, 1, 1], [0, 0, 2, 1]], dtype=i64)
    case("gather_d0", lambda x, i: torch.gather(x, 0, i), x34, gi0)
    si = torch.tensor([[0, 2], [3, 1], [1, 0]], dtype=i64)
    src = rnd((3, 2), dt)
    case("scatter_d1", lambda x, i, s: torch.scatter(x, 1, i, s), x34, si, src)
    sai = torch.tensor([[0, 0], [3, 3], [1, 1]], dtype=i64)
    case("scatter_add_d1", lambda x, i, s: torch.scatter_add(x, 1, i, s), x34, sai, src)
    case("index_select_d0", lambda x, i: torch.index_select(x, 0, i), x34,
         torch.tensor([2, 0, 2], dtype=i64))
    case("flip_01", lambda x: torch.flip(x, (0, 2)), x234)
    case("repeat_23", lambda x: x.repeat(2, 1, 3), x234)
    case("repeat_new_dim", lambda x: x.repeat(2, 1, 1), x34)
    case("repeat_interleave_d1", lambda x: torch.repeat_interleave(x, 2, dim=1), x34)
    case("repeat_interleave_flat", lambda x: torch.repeat_interleave(x, 3), x34)
    a23, b34 = rnd((2, 3), dt), rnd((3, 4), dt)
    case("einsum_mm", lambda a, b: torch.einsum("ij,jk->ik", a, b), a23, b34)
    q, k = rnd((2, 2, 3, 4), dt), rnd((2, 2, 5, 4), dt)
    case("einsum_attn", lambda a, b: torch.einsum("bhqd,bhkd->bhqk", a, b), q, k)
    case("einsum_bmm", lambda a, b: torch.einsum("bij,bjk->bik", a, b), rnd((2, 3, 4), dt),
         rnd((2, 4, 2), dt))
    case("einsum_dot", lambda a, b: torch.einsum("i,i->", a, b), rnd((5,), dt), rnd((5,), dt))
    case("einsum_t", lambda a: torch.einsum("ij->ji", a), a23)
    case("einsum_sum_outer", lambda a, b: torch.einsum("ij,kl->ik", a, b), a23, b34)
    # batch norm, training and eval; group norm
    xb = rnd((6, 4), dt) * 2 + 1
    wb, bb = rnd((4,), dt), rnd((4,), dt)
    case("bn_train_2d", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), xb, wb,
         bb)
    xb3 = rnd((3, 4, 5), dt)
    case("bn_train_3d", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), xb3,
         wb, bb)
    rm, rv = rnd((4,), dt), torch.rand((4,), dtype=f64).to(dt) + 0.5
    case("bn_eval", lambda x, w, b, m, v: F.batch_norm(x, m.detach(), v.detach(), w, b, training=False), xb, wb, bb,
         rm, rv)
    case("bn_plain", lambda x: F.batch_norm(x, None, None, training=True, eps=1e-3), xb)
    xg = rnd((2, 6, 5), dt)
    wg, bg = rnd((6,), dt), rnd((6,), dt)
    case("gn_affine", lambda x, w, b: F.group_norm(x, 3, w, b), xg, wg, bg)
    case("gn_plain_4d", lambda x: F.group_norm(x, 2, eps=1e-3), rnd((2, 4, 3, 2), dt))

ref.f.close()

"""PyTorch reference cases for the reductions (engine/ops/ops_reduce.c).

Each case name matches a C function in tests/unit/test_torch_reduce.c that
computes the same thing with nndb's ops. Non-contiguous inputs are made inside
the function (a transpose) on both sides.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from refgen import RefFile  # noqa: E402

INF = float("inf")


def rn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


def ties(*shape, dtype=torch.float32):
    """Small integers: many equal values, so max/min meet ties."""
    return torch.randint(0, 3, shape).to(dtype)


def vnorm(x, p, dim=None, keepdim=False):
    return torch.linalg.vector_norm(x, p, dim=dim, keepdim=keepdim)


def main():
    r = RefFile("reduce")
    f64 = torch.float64

    # sum
    r.case("sum_all", lambda x: x.sum(), rn(3, 4))
    r.case("sum_dim1", lambda x: x.sum(1), rn(3, 4))
    r.case("sum_dims02_keepdim", lambda x: x.sum((0, 2), keepdim=True), rn(2, 3, 4))
    r.case("sum_neg_dim_f64", lambda x: x.sum(-1), rn(2, 3, 4, dtype=f64))
    r.case("sum_noncontig", lambda x: x.t().sum(1), rn(3, 5))
    r.case("sum_empty_dim", lambda x: x.sum(0), rn(0, 3))
    r.case("sum_empty_all", lambda x: x.sum(), rn(0, 3))
    r.case("sum_int64", lambda x: x.sum(1), torch.randint(-5, 5, (3, 4)))
    r.case("sum_bool", lambda x: x.sum(), torch.rand(3, 4) > 0.5)
    r.case("sum_large_f32", lambda x: x.sum(0), rn(3000, 3))

    # mean
    r.case("mean_all", lambda x: x.mean(), rn(3, 4))
    r.case("mean_dim0_keepdim", lambda x: x.mean(0, keepdim=True), rn(3, 4))
    r.case("mean_dims_f64", lambda x: x.mean((-1, 0)), rn(2, 3, 4, dtype=f64))
    r.case("mean_noncontig", lambda x: x.t().mean(0), rn(3, 5))
    r.case("mean_empty", lambda x: x.mean(0), rn(0, 3))

    # max / min / argmax / argmin
    r.case("max_all", lambda x: x.max(), rn(3, 4))
    r.case("max_all_ties", lambda x: x.max(), ties(3, 4))
    r.case("min_all_ties_f64", lambda x: x.min(), ties(2, 5, dtype=f64))
    r.case("max_dim_values", lambda x: x.max(1)[0], rn(3, 4))
    r.case("max_dim_indices", lambda x: x.max(1)[1], rn(3, 4))
    r.case("max_dim_ties", lambda x: x.max(0)[0], ties(4, 3))
    r.case("max_dim_ties_indices", lambda x: x.max(0)[1], ties(4, 3))
    r.case("min_dim_keepdim_f64", lambda x: x.min(-1, keepdim=True)[0], rn(2, 3, 4, dtype=f64))
    r.case("min_dim_noncontig", lambda x: x.t().min(1)[0], rn(3, 5))
    r.case("max_dim_int64", lambda x: x.max(0)[0], torch.randint(-9, 9, (3, 4)))
    r.case("argmax_dim", lambda x: x.argmax(1), rn(3, 4))
    r.case("argmax_all", lambda x: x.argmax(), rn(3, 4))
    r.case("argmin_keepdim", lambda x: x.argmin(0, keepdim=True), ties(4, 3))
    r.case("max_nan", lambda x: x.max(1)[0], torch.tensor([[1.0, float("nan"), 2.0], [0.0, 3.0, 1.0]]))

    # var / std
    r.case("var_dim", lambda x: x.var(1), rn(3, 5))
    r.case("var_all_corr0", lambda x: torch.var(x, None, correction=0), rn(3, 4))
    r.case("var_keepdim_f64", lambda x: x.var((0, 2), keepdim=True), rn(2, 3, 4, dtype=f64))
    r.case("var_corr2", lambda x: torch.var(x, 1, correction=2), rn(3, 5))
    r.case("std_dim", lambda x: x.std(0), rn(4, 3))
    r.case("std_all_f64", lambda x: x.std(), rn(3, 4, dtype=f64))
    r.case("std_corr0_noncontig", lambda x: torch.std(x.t(), 1, correction=0), rn(3, 5))

    # logsumexp
    r.case("lse_dim", lambda x: x.logsumexp(1), rn(3, 4))
    r.case("lse_all_f64", lambda x: x.logsumexp((0, 1)), rn(3, 4, dtype=f64))
    r.case("lse_keepdim", lambda x: x.logsumexp(-1, keepdim=True), rn(2, 3, 4))
    r.case("lse_large", lambda x: x.logsumexp(1), rn(2, 3) * 100 + 1000)
    m = rn(3, 4)
    m[1] = -INF
    m[2, 0] = -INF
    r.case("lse_neg_inf", lambda x: x.logsumexp(1), m)
    r.case("lse_noncontig", lambda x: x.t().logsumexp(0), rn(3, 5))
    r.case("lse_empty", lambda x: x.logsumexp(0), rn(0, 3))

    # norm
    r.case("norm_2", lambda x: vnorm(x, 2), rn(3, 4))
    r.case("norm_2_dim_f64", lambda x: vnorm(x, 2, 1), rn(3, 4, dtype=f64))
    r.case("norm_1_dim", lambda x: vnorm(x, 1, 0), rn(3, 4))
    r.case("norm_inf_dim", lambda x: vnorm(x, INF, 1), rn(3, 4))
    r.case("norm_inf_ties", lambda x: vnorm(x, INF), torch.tensor([[1.0, -3.0], [3.0, 2.0]]))
    r.case("norm_3_f64", lambda x: vnorm(x, 3, (0, 1), keepdim=True), rn(3, 4, dtype=f64))
    r.case("norm_1p5", lambda x: vnorm(x, 1.5, -1), rn(3, 4))
    r.case("norm_0p5_f64", lambda x: vnorm(x, 0.5, 1), rn(3, 4, dtype=f64))
    z = rn(3, 4)
    z[1] = 0
    r.case("norm_2_zero_row", lambda x: vnorm(x, 2, 1), z)
    r.case("norm_noncontig", lambda x: vnorm(x.t(), 2, 1), rn(3, 5))
    r.close()


if __name__ == "__main__":
    main()

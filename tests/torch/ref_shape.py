"""PyTorch reference cases for the shape and indexing ops (engine/ops/ops_shape.c).

Each case name matches a C function in tests/unit/test_torch_shape.c that
computes the same thing with nndb's ops. Non-contiguous inputs are made inside
the function (a transpose or a step slice) on both sides.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from refgen import RefFile  # noqa: E402


def rn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


def rev_cat(pieces, dim):
    """Join split/chunk pieces in reverse order, so that every piece's
    position and size shows in the output."""
    return torch.cat(list(reversed(pieces)), dim)


def main():
    r = RefFile("shape")
    f64 = torch.float64

    # reshape / view / flatten
    r.case("reshape_infer", lambda x: x.reshape(4, -1), rn(2, 3, 4))
    r.case("reshape_noncontig", lambda x: x.t().reshape(-1), rn(3, 4))
    r.case("reshape_to_scalar", lambda x: x.reshape(()), rn(1, 1))
    r.case("reshape_f64", lambda x: x.reshape(3, 2, 2) * 2, rn(12, dtype=f64))
    r.case("view_split_dim", lambda x: x.view(2, 3, 2), rn(6, 2))
    r.case("flatten_from1", lambda x: x.flatten(1), rn(2, 3, 4))
    r.case("flatten_mid_neg", lambda x: x.flatten(-3, -2), rn(2, 3, 4, 5))

    # permute / transpose
    r.case("permute_neg", lambda x: x.permute(-1, 0, 1), rn(2, 3, 4))
    r.case("transpose_neg", lambda x: x.transpose(-1, -3), rn(2, 3, 4))
    r.case("permute_then_reshape", lambda x: x.permute(1, 0, 2).reshape(3, 8), rn(2, 3, 4))

    # squeeze / unsqueeze
    r.case("squeeze_all", lambda x: x.squeeze(), rn(1, 3, 1, 2))
    r.case("squeeze_neg", lambda x: x.squeeze(-2), rn(1, 3, 1, 2))
    r.case("squeeze_noop", lambda x: x.squeeze(1), rn(1, 3, 1, 2))
    r.case("unsqueeze_neg", lambda x: x.unsqueeze(-1), rn(2, 3))
    r.case("unsqueeze_mid", lambda x: x.unsqueeze(1), rn(2, 3))

    # expand
    r.case("expand_new_dims", lambda x: x.expand(2, 3, 4), rn(3, 1))
    r.case("expand_keep", lambda x: x.expand(-1, 5), rn(3, 1))
    r.case("expand_transposed", lambda x: x.t().expand(2, 4, 3), rn(3, 4))
    r.case("expand_scalar", lambda x: x.expand(2, 3), rn(()))

    # contiguous
    r.case("contiguous_t", lambda x: x.t().contiguous(), rn(3, 4))

    # slice
    r.case("slice_step", lambda x: x[:, 1:6:2], rn(5, 6))
    r.case("slice_neg", lambda x: x[-4:-1], rn(5, 6))
    r.case("slice_clamp", lambda x: x[:, -100:100], rn(5, 6))
    r.case("slice_step3_open", lambda x: x[1::3], rn(8, 2))
    r.case("slice_empty", lambda x: x[3:1], rn(5, 2))
    r.case("slice_of_transposed", lambda x: x.t()[1:3], rn(3, 4))
    r.case("slice_twice", lambda x: x[:, 1:][::2], rn(5, 4, dtype=f64))

    # select
    r.case("select_neg", lambda x: x.select(1, -1), rn(2, 3, 4))
    r.case("select_first", lambda x: x[0], rn(3, 4, dtype=f64))
    r.case("select_to_scalar", lambda x: x[2], rn(4))

    # cat / stack / split / chunk
    r.case("cat3_dim1", lambda a, b, c: torch.cat([a, b, c], 1), rn(2, 1), rn(2, 3), rn(2, 2))
    r.case("cat_neg_dim", lambda a, b: torch.cat([a, b], -1), rn(2, 3, 1), rn(2, 3, 2))
    r.case("cat_six", lambda a, b, c, d, e, f: torch.cat([a, b, c, d, e, f], 0),
           rn(1, 2), rn(2, 2), rn(1, 2), rn(3, 2), rn(1, 2), rn(2, 2))
    r.case("cat_promote", lambda a, b: torch.cat([a, b], 0), rn(2, 2), rn(1, 2, dtype=f64))
    r.case("cat_noncontig", lambda a, b: torch.cat([a.t(), b], 0), rn(3, 2), rn(1, 3))
    r.case("cat_legacy_empty", lambda a, b: torch.cat([a, b], 0), rn(0), rn(2, 3))
    r.case("stack_dim1", lambda a, b, c: torch.stack([a, b, c], 1), rn(2, 3), rn(2, 3), rn(2, 3))
    r.case("stack_neg", lambda a, b: torch.stack([a, b], -1), rn(2, 3), rn(2, 3))
    r.case("split_dim1", lambda x: rev_cat(torch.split(x, 3, 1), 1), rn(2, 7))
    r.case("chunk_dim0", lambda x: rev_cat(torch.chunk(x, 3, 0), 0), rn(7, 2))
    r.case("chunk_even_neg", lambda x: rev_cat(torch.chunk(x, 4, -1), -1), rn(2, 6))

    # advanced integer indexing
    n = 5
    y = torch.tensor([2, 0, 3, 3, 1])
    r.case("index_logits", lambda x, i, j: x[i, j], rn(n, 4), torch.arange(n), y)
    r.case("index_repeat", lambda x, i: x[i], rn(3, 4), torch.tensor([0, 2, 0, 0]))
    r.case("index_dim1_neg_2d", lambda x, i: x[:, i], rn(3, 5, 2),
           torch.tensor([[-1, 0], [2, -5]]))
    r.case("index_broadcast2", lambda x, i, j: x[:, i, j], rn(2, 4, 5, 3),
           torch.tensor([[0], [3], [1]]), torch.tensor([4, 0]))
    r.case("index_scalar_idx", lambda x, i: x[i], rn(4, 3, dtype=f64), torch.tensor(-2))
    r.case("index_noncontig", lambda x, i: x.t()[i], rn(3, 4), torch.tensor([3, 1, 3]))
    r.case("index_int64", lambda x, i: x[i], torch.arange(12).reshape(4, 3),
           torch.tensor([1, 1, 3]), grad=False)
    r.case("index_bool_tensor", lambda x, i: x[:, i], torch.rand(3, 4) > 0.5,
           torch.tensor([0, 3]), grad=False)

    # boolean masks
    x = rn(3, 4)
    r.case("masked_full", lambda x, m: x[m], x, x > 0)
    r.case("masked_leading", lambda x, m: x[m], rn(4, 3), torch.tensor([True, False, True, True]))
    r.case("masked_noncontig", lambda x, m: x.t()[m], rn(3, 4), torch.rand(4, 3) > 0.4)
    r.case("masked_none", lambda x, m: x[m], rn(2, 3), torch.zeros(2, 3, dtype=torch.bool))
    r.case("masked_int64", lambda x, m: x[m], torch.arange(6).reshape(2, 3),
           torch.tensor([[True, False, True], [False, True, True]]), grad=False)

    # in-place assignment (forward only: not recorded)
    def index_put(x, i, j, v):
        out = x.clone()
        out[i, j] = v
        return out

    def masked_fill(x, m, v):
        out = x.clone()
        out[m] = v
        return out

    r.case("index_put_bcast", index_put, rn(3, 4), torch.tensor([0, 2]), torch.tensor([[1], [3]]),
           rn(2), grad=False)
    r.case("index_put_nan", index_put, rn(3, 4), torch.tensor(0), torch.tensor(1),
           torch.tensor(float("nan")), grad=False)
    r.case("masked_fill_leading", masked_fill, rn(3, 2), torch.tensor([True, False, True]),
           rn(2), grad=False)
    r.case("masked_fill_full_int", masked_fill, torch.arange(6).reshape(2, 3),
           torch.tensor([[True, False, True], [False, False, True]]), torch.tensor(-7),
           grad=False)
    r.close()


if __name__ == "__main__":
    main()

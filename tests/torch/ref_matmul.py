"""PyTorch reference cases for matmul and linear (engine/ops/ops_matmul.c).

Each case name matches a C function in tests/unit/test_torch_matmul.c that
computes the same thing with nndb's ops. Transposed operands are made inside
the function on both sides.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from refgen import RefFile  # noqa: E402


def rn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


def main():
    r = RefFile("matmul")
    f64 = torch.float64

    r.case("mm_2d", lambda a, b: a @ b, rn(3, 4), rn(4, 5))
    r.case("mm_2d_f64", lambda a, b: a @ b, rn(3, 4, dtype=f64), rn(4, 5, dtype=f64))
    r.case("mm_dot", lambda a, b: a @ b, rn(7), rn(7))
    r.case("mm_mv", lambda a, b: a @ b, rn(3, 4), rn(4))
    r.case("mm_vm", lambda a, b: a @ b, rn(3), rn(3, 4))
    r.case("mm_batch_shared", lambda a, b: a @ b, rn(2, 3, 4), rn(4, 5))
    r.case("mm_shared_batch", lambda a, b: a @ b, rn(3, 4), rn(2, 4, 5))
    r.case("mm_bmm_f64", lambda a, b: a @ b, rn(2, 3, 4, dtype=f64), rn(2, 4, 2, dtype=f64))
    r.case("mm_broadcast", lambda a, b: a @ b, rn(2, 1, 3, 4), rn(3, 4, 2))
    r.case("mm_broadcast_f64", lambda a, b: a @ b, rn(1, 2, 3, 4, dtype=f64), rn(3, 1, 4, 2, dtype=f64))
    r.case("mm_vec_batch", lambda a, b: a @ b, rn(4), rn(2, 4, 3))
    r.case("mm_batch_vec", lambda a, b: a @ b, rn(2, 3, 4), rn(4))
    r.case("mm_at_b", lambda a, b: a.t() @ b, rn(4, 3), rn(4, 5))
    r.case("mm_a_bt", lambda a, b: a @ b.t(), rn(3, 4), rn(5, 4))
    r.case("mm_at_bt_f64", lambda a, b: a.t() @ b.t(), rn(4, 3, dtype=f64), rn(5, 4, dtype=f64))
    r.case("mm_batch_transposed", lambda a, b: a.transpose(-1, -2) @ b, rn(2, 4, 3), rn(2, 4, 5))
    r.case("mm_empty_k", lambda a, b: a @ b, rn(2, 0), rn(0, 3))
    r.case("mm_empty_batch", lambda a, b: a @ b, rn(0, 2, 3), rn(3, 4))
    r.case("mm_int64", lambda a, b: a @ b, torch.randint(-5, 5, (3, 4)), torch.randint(-5, 5, (4, 2)))
    r.case("mm_big_f32", lambda a, b: a @ b, rn(17, 64), rn(64, 33))
    r.case("mm_sum_after", lambda a, b: (a @ b).sum(), rn(2, 3, 4), rn(4, 5))

    r.case("linear_bias", F.linear, rn(4, 3), rn(5, 3), rn(5))
    r.case("linear_nobias", F.linear, rn(4, 3), rn(5, 3))
    r.case("linear_3d", F.linear, rn(2, 3, 4), rn(6, 4), rn(6))
    r.case("linear_1d", F.linear, rn(3), rn(2, 3), rn(2))
    r.case("linear_f64", F.linear, rn(5, 4, dtype=f64), rn(3, 4, dtype=f64), rn(3, dtype=f64))
    r.case("linear_wt", lambda x, w, b: F.linear(x, w.t(), b), rn(4, 3), rn(3, 5), rn(5))
    r.case("linear_xt_f64", lambda x, w: F.linear(x.t(), w), rn(3, 4, dtype=f64), rn(2, 3, dtype=f64))
    r.case("linear_mean_after", lambda x, w, b: F.linear(x, w, b).mean(), rn(8, 16), rn(4, 16), rn(4))
    r.close()


if __name__ == "__main__":
    main()

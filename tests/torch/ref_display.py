"""Reference tensor reprs for tests/unit/test_display.c: each case gives a
tensor's dtype, shape and values, how to dress it (requires_grad, a grad_fn,
a transposed view), and torch's repr of it, line by line.

Format:  case NAME DTYPE FLAG NDIM D0 D1 ...
         values V ...
         expect NLINES
         <NLINES lines of repr>
FLAG: plain | rg (leaf requiring grad) | mul (leaf * 1, grad_fn MulBackward0)
      | t (the transpose of the given 2-D tensor, a strided view).
"""
import math
import os

import torch

torch.manual_seed(0)
_DT = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.bool: "bool"}

out_dir = os.environ.get("NNDB_REF_DIR", "build/ref")
os.makedirs(out_dir, exist_ok=True)
f = open(os.path.join(out_dir, "display.txt"), "w")
names = set()


def val(v, fl):
    if not fl:
        return str(int(v))
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(float(v))


def case(name, t, flag="plain"):
    assert name not in names
    names.add(name)
    base = t.detach().clone()
    fl = base.is_floating_point()
    vals = [val(v, fl) for v in base.reshape(-1).tolist()]
    shown = base
    if flag == "rg":
        shown = base.clone().requires_grad_(True)
    elif flag == "mul":
        shown = base.clone().requires_grad_(True) * 1
    elif flag == "t":
        shown = base.t()
    text = repr(shown)
    lines = text.split("\n")
    f.write(f"case {name} {_DT[base.dtype]} {flag} {base.dim()} {' '.join(str(s) for s in base.shape)}\n")
    f.write("values " + " ".join(vals) + "\n")
    f.write(f"expect {len(lines)}\n")
    for l in lines:
        f.write(l + "\n")


T = torch.tensor
nan, inf = float("nan"), float("inf")
case("randn_3x4", torch.randn(3, 4))
case("randn_2x3x4", torch.randn(2, 3, 4))
case("randn_5", torch.randn(5))
case("scalar_int_valued", T(3.0))
case("scalar_half", T(-0.5))
case("scalar_zero", T(0.0))
case("scalar_nan", T(nan))
case("scalar_int64", T(7))
case("scalar_bool", T(True))
case("scalar_f64", T(2.5, dtype=torch.float64))
case("zeros_2x3", torch.zeros(2, 3))
case("ones_3", torch.ones(3))
case("arange_int", torch.arange(10))
case("arange_float", torch.arange(10.0))
case("small_and_one", T([1e-5, 1.0]))
case("big_and_one", T([1e10, 1.0]))
case("int_big_ratio", T([1.0, 10000.0]))
case("int_1e8", T([123456789.0]))
case("fixed_mixed", T([0.1, 1000.5]))
case("nonfinite", T([nan, 1.0, inf, -inf]))
case("nonfinite_frac", T([nan, 1.5, -inf]))
case("all_nan", T([[nan, nan], [nan, nan]]))
case("int64_neg", T([-3, 10, 250]))
case("int64_big", T([2**40, -(2**35), 7]))
case("bool_1d", T([True, False, True]))
case("bool_2d", T([[True, False], [False, True]]))
case("empty", T([]))
case("empty_0x3", torch.zeros(0, 3))
case("empty_int", torch.zeros(0, dtype=torch.int64))
case("empty_int_2x0", torch.zeros(2, 0, dtype=torch.int64))
case("f64_randn", torch.randn(2, 3, dtype=torch.float64))
case("f64_ints", T([1.0, 2.0], dtype=torch.float64))
case("wrap_40", torch.randn(40))
case("wrap_int_60", torch.arange(60) * 1000)
case("wrap_2d_wide", torch.randn(3, 15))
case("summ_1001", torch.randn(1001))
case("summ_40x40", torch.randn(40, 40))
case("summ_10x200", torch.randn(10, 200))
case("summ_arange_2000", torch.arange(2000))
case("summ_3d", torch.randn(20, 10, 10))
case("four_d", torch.randn(2, 2, 2, 2))
case("leaf_rg", torch.randn(2, 2), "rg")
case("leaf_rg_f64", torch.randn(3, dtype=torch.float64), "rg")
case("grad_fn_mul", torch.randn(2, 3), "mul")
case("grad_fn_wide", torch.randn(2, 8), "mul")
case("grad_fn_f64_wide", torch.randn(2, 7, dtype=torch.float64), "mul")
case("transposed", torch.randn(3, 4), "t")
case("one_elem_2d", T([[5.0]]))
case("scaled_100", torch.randn(3, 4) * 100)
case("tiny", T([1e-20, 3e-21]))
case("neg_zero", T([-0.0, 1.0]))
case("neg_zero_frac", T([-0.0, 1.5]))
case("mixed_sci_neg", T([-1e-5, 2.5, 1e3]))
case("big_int_valued", T([1e9, 2e9]))
case("rounding", T([0.00005, 0.12345, 1.99995]))
case("huge_f64", T([1e300, -1e-300], dtype=torch.float64))
case("randn_6x6_t", torch.randn(6, 6), "t")
case("summ_bool", torch.rand(1200) > 0.5)
case("int_cols", T([[1, -200], [30000, 4]]))
f.close()

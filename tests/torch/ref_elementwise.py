"""PyTorch reference cases for the elementwise ops (engine/ops/ops_elementwise.c).

Owned by the elementwise tester. Writes build/ref/elementwise.txt; the C side
is tests/unit/test_torch_elementwise.c, whose table maps every case name
written here to a C function computing the same thing with nndb's ops.

Naming: <op>_<variant>_<dtype>. Variants: plain [2, 3] inputs; "bcast" ([3, 1]
with [4]); "0d" (a 0-dim second operand of the same dtype); "nc" (inputs laid
out as transposed views: the C side rebuilds them with nn_tensor_view_raw
over a transposed buffer, so the kernels and the backward see strides that
are not row-major; the gradient is that of the view leaf itself). Edge cases
(log of 0, NaN, division by 0, integer arithmetic, promotion) have their own
names.
"""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refgen import RefFile  # noqa: E402

ref = RefFile("elementwise")
f32, f64, i64 = torch.float32, torch.float64, torch.int64
DTS = [("f32", f32), ("f64", f64)]


def data(shape, dt, dom="any"):
    """Random inputs in the op's domain, kept away from kinks and poles."""
    x = torch.randn(shape, dtype=f64)
    if dom == "pos":
        x = x.abs() + 0.2
    elif dom == "away0":
        x = torch.where(x.abs() < 0.2, x.sign() * 0.2 + x, x)
        x = torch.where(x == 0, torch.full_like(x, 0.3), x)
    elif dom == "gt-1":
        x = x.abs() * 0.8 - 0.6
    return x.to(dt)


def noncontig(x):
    """The same values laid out as the transpose of a contiguous buffer."""
    return x.t().contiguous().t()


# ---- binary ops ----
BINARY = {
    "add": (torch.add, "any", "any"),
    "sub": (torch.sub, "any", "any"),
    "mul": (torch.mul, "any", "any"),
    "div": (torch.div, "any", "away0"),
    "pow": (torch.pow, "pos", "any"),
    "maximum": (torch.maximum, "any", "any"),
    "minimum": (torch.minimum, "any", "any"),
}

for name, (fn, da, db) in BINARY.items():
    for sfx, dt in DTS:
        ref.case(f"{name}_{sfx}", fn, data((2, 3), dt, da), data((2, 3), dt, db))
        ref.case(f"{name}_bcast_{sfx}", fn, data((3, 1), dt, da), data((4,), dt, db))
        ref.case(f"{name}_0d_{sfx}", fn, data((2, 3), dt, da), data((), dt, db))
        ref.case(f"{name}_nc_{sfx}", fn, noncontig(data((2, 3), dt, da)),
                 noncontig(data((2, 3), dt, db)))
    # The 0-dim operand first, broadcasting against [2, 3].
    ref.case(f"{name}_0dfirst_f64", fn, data((), f64, da), data((2, 3), f64, db))

# maximum/minimum ties split the gradient; NaN propagates and, in PyTorch,
# passes the full gradient to both sides.
for sfx, dt in DTS:
    a = torch.tensor([1.0, 2.0, -3.0, 0.5], dtype=dt)
    b = torch.tensor([1.0, 1.0, -3.0, 4.0], dtype=dt)
    ref.case(f"maximum_ties_{sfx}", torch.maximum, a, b)
    ref.case(f"minimum_ties_{sfx}", torch.minimum, a, b)
    a = torch.tensor([math.nan, 1.0, 2.0, math.nan], dtype=dt)
    b = torch.tensor([1.0, math.nan, 2.5, math.nan], dtype=dt)
    ref.case(f"maximum_nan_{sfx}", torch.maximum, a, b)
    ref.case(f"minimum_nan_{sfx}", torch.minimum, a, b)

# ---- scalar-operand ops (wrapped Python numbers) ----
SCALAR = {
    "add_scalar_2p5": (lambda a: a + 2.5, "any"),
    "mul_scalar_m3": (lambda a: a * -3.0, "any"),
    "pow_scalar_2": (lambda a: a ** 2.0, "any"),
    "pow_scalar_3": (lambda a: a ** 3.0, "any"),
    "pow_scalar_0p5": (lambda a: a ** 0.5, "pos"),
    "pow_scalar_m1p5": (lambda a: a ** -1.5, "pos"),
    "pow_scalar_0": (lambda a: a ** 0.0, "any"),
    "pow_scalar_1": (lambda a: a ** 1.0, "any"),
}
for name, (fn, dom) in SCALAR.items():
    for sfx, dt in DTS:
        ref.case(f"{name}_{sfx}", fn, data((2, 3), dt, dom))
        ref.case(f"{name}_nc_{sfx}", fn, noncontig(data((2, 3), dt, dom)))

# ---- unary ops ----
UNARY = {
    "neg": (torch.neg, "any"),
    "exp": (torch.exp, "any"),
    "log": (torch.log, "pos"),
    "log1p": (torch.log1p, "gt-1"),
    "sqrt": (torch.sqrt, "pos"),
    "rsqrt": (torch.rsqrt, "pos"),
    "abs": (torch.abs, "away0"),
    "sign": (torch.sign, "away0"),
    "clamp_both": (lambda a: torch.clamp(a, -0.5, 0.7), "any"),
    "clamp_lo": (lambda a: torch.clamp(a, min=-0.3), "any"),
    "clamp_hi": (lambda a: torch.clamp(a, max=0.4), "any"),
    "relu": (torch.relu, "away0"),
    "leaky_relu": (lambda a: F.leaky_relu(a, 0.1), "away0"),
    "tanh": (torch.tanh, "any"),
    "sigmoid": (torch.sigmoid, "any"),
    "gelu": (F.gelu, "any"),
    "gelu_tanh": (lambda a: F.gelu(a, approximate="tanh"), "any"),
    "silu": (F.silu, "any"),
    "softplus": (F.softplus, "any"),
    "softplus_b2t1": (lambda a: F.softplus(a, beta=2.0, threshold=1.0), "any"),
}
for name, (fn, dom) in UNARY.items():
    for sfx, dt in DTS:
        ref.case(f"{name}_{sfx}", fn, data((2, 3), dt, dom))
        ref.case(f"{name}_nc_{sfx}", fn, noncontig(data((2, 3), dt, dom)))
    ref.case(f"{name}_0d_f32", fn, data((), f32, dom))
    # Wider values: large |x| exercises saturation (sigmoid, tanh, softplus).
    if dom != "gt-1":
        ref.case(f"{name}_wide_f64", fn, data((7,), f64, dom) * 6)

# ---- edge cases ----
inf, nan = math.inf, math.nan
for sfx, dt in DTS:
    ref.case(f"log_edges_{sfx}", torch.log, torch.tensor([0.0, -1.0, 1.0, inf], dtype=dt))
    ref.case(f"sqrt_edges_{sfx}", torch.sqrt, torch.tensor([-1.0, 0.0, 4.0, inf], dtype=dt))
    ref.case(f"rsqrt_edges_{sfx}", torch.rsqrt, torch.tensor([-1.0, 0.0, 4.0, inf], dtype=dt))
    ref.case(f"log1p_edges_{sfx}", torch.log1p, torch.tensor([-1.0, -2.0, 1e-10, 0.0], dtype=dt))
    ref.case(f"div_zero_{sfx}", torch.div, torch.tensor([1.0, -1.0, 0.0, 2.0], dtype=dt),
             torch.tensor([0.0, 0.0, 0.0, -0.0], dtype=dt))
    ref.case(f"exp_edges_{sfx}", torch.exp, torch.tensor([-inf, inf, 800.0, -800.0], dtype=dt))
    ref.case(f"pow_zero_base_{sfx}", torch.pow, torch.tensor([0.0, 0.0, 0.0, 2.0], dtype=dt),
             torch.tensor([2.0, 0.0, 0.5, 0.0], dtype=dt))
    # relu, clamp, abs, sign at NaN: values propagate; PyTorch's gradients
    # pass through relu (threshold on the output) and stop at clamp.
    nans = torch.tensor([nan, -1.0, 2.0], dtype=dt)
    ref.case(f"relu_nan_{sfx}", torch.relu, nans)
    ref.case(f"clamp_nan_{sfx}", lambda a: torch.clamp(a, -0.5, 0.5), nans)
    ref.case(f"abs_nan_{sfx}", torch.abs, nans)
    ref.case(f"sign_nan_{sfx}", torch.sign, nans)
    ref.case(f"sigmoid_nan_{sfx}", torch.sigmoid, nans)
    ref.case(f"tanh_edges_{sfx}", torch.tanh, torch.tensor([-inf, inf, 30.0, -30.0], dtype=dt))
    ref.case(f"sigmoid_edges_{sfx}", torch.sigmoid,
             torch.tensor([-inf, inf, 100.0, -100.0], dtype=dt))
    # clamp exactly at a bound: PyTorch lets the gradient through there.
    ref.case(f"clamp_at_bounds_{sfx}", lambda a: torch.clamp(a, -0.5, 0.5),
             torch.tensor([-0.5, 0.5, 0.0, 1.0], dtype=dt))

# ---- integer arithmetic and promotion ----
ia = torch.tensor([7, -7, 3, 0], dtype=i64)
ib = torch.tensor([2, 2, -4, 5], dtype=i64)
ref.case("int_add", torch.add, ia, ib)
ref.case("int_sub", torch.sub, ia, ib)
ref.case("int_mul", torch.mul, ia, ib)
ref.case("int_div", torch.div, ia, ib)  # true division: float32
ref.case("int_maximum", torch.maximum, ia, ib)
ref.case("int_minimum", torch.minimum, ia, ib)
ref.case("int_pow", torch.pow, ia, torch.tensor([2, 3, 0, 1], dtype=i64))
ref.case("int_neg", torch.neg, ia)
ref.case("int_abs", torch.abs, ia)
ref.case("int_sign", torch.sign, ia)
ref.case("int_exp", torch.exp, torch.tensor([0, 1, 2], dtype=i64))  # float32
ref.case("int_sqrt", torch.sqrt, torch.tensor([0, 4, 9], dtype=i64))
ref.case("int_bcast_add", torch.add, torch.tensor([[1], [2], [3]], dtype=i64),
         torch.tensor([10, 20, 30, 40], dtype=i64))
ref.case("int_mul_wrapped_float", lambda a: a * 2.5, ia)  # float32
ref.case("int_add_wrapped_int", lambda a: a + 3, ia)  # stays int64
ref.case("int_mul_f32", torch.mul, ia, torch.tensor([0.5, 1.5, 2.0, 3.0], dtype=f32))
ref.case("int_mul_0d_f64", torch.mul, ia, torch.tensor(2.5, dtype=f64))  # float64
ref.case("bool_add_int", torch.add, torch.tensor([True, False, True, False]), ib)
ref.case("f32_mul_wrapped", lambda a: a * 2.5, data((2, 3), f32))  # stays float32
ref.case("f32_mul_f64", torch.mul, data((2, 3), f32), data((2, 3), f64))  # float64
ref.case("f64_mul_f32", torch.mul, data((2, 3), f64), data((2, 3), f32))
ref.case("f32_add_f64_bcast", torch.add, data((3, 1), f32), data((4,), f64))
# A 0-dim tensor does not widen a dimensioned tensor of the same category.
ref.case("f32_mul_0d_f64", torch.mul, data((2, 3), f32), data((), f64))
ref.case("f32_div_int", torch.div, data((2, 3), f32), torch.tensor([1, 2, 3], dtype=i64))

# ---- where ----
cond = torch.tensor([[True, False, True], [False, False, True]])
for sfx, dt in DTS:
    ref.case(f"where_{sfx}", torch.where, cond, data((2, 3), dt), data((2, 3), dt))
    ref.case(f"where_bcast_{sfx}", torch.where, torch.tensor([[True], [False], [True]]),
             data((4,), dt), data((3, 1), dt))
    ref.case(f"where_nc_{sfx}", torch.where, cond, noncontig(data((2, 3), dt)),
             noncontig(data((2, 3), dt)))
ref.case("where_mixed", torch.where, cond, data((2, 3), f32), data((2, 3), f64))

# ---- to(dtype) ----
ref.case("to_f32_f64", lambda a: a.to(f64), data((2, 3), f32))
ref.case("to_f64_f32", lambda a: a.to(f32), data((2, 3), f64))
ref.case("to_f32_f32", lambda a: a.to(f32), data((2, 3), f32))
ref.case("to_f32_i64", lambda a: a.to(i64),
         torch.tensor([1.5, -1.5, 2.7, -0.2, 0.0, 100.9], dtype=f32))
ref.case("to_f64_bool", lambda a: a.to(torch.bool), torch.tensor([0.5, 0.0, nan, -2.0], dtype=f64))
ref.case("to_i64_f32", lambda a: a.to(f32), ia)
ref.case("to_bool_f64", lambda a: a.to(f64), torch.tensor([True, False, True]))
ref.case("to_nc_f32_f64", lambda a: a.to(f64), noncontig(data((2, 3), f32)))

# ---- comparisons, logic, tests (no gradient) ----
CMP = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt,
       "ge": torch.ge}
for name, fn in CMP.items():
    for sfx, dt in DTS:
        a = torch.tensor([[1.0, 2.0, nan], [-1.0, inf, 0.0]], dtype=dt)
        b = torch.tensor([[1.0, 3.0, nan], [-2.0, inf, -0.0]], dtype=dt)
        ref.case(f"{name}_{sfx}", fn, a, b, grad=False)
        ref.case(f"{name}_bcast_{sfx}", fn, data((3, 1), dt).round(), data((4,), dt).round(),
                 grad=False)
    ref.case(f"{name}_int", fn, ia, ib, grad=False)
    ref.case(f"{name}_int_f32", fn, ia, torch.tensor([7.0, -7.5, 3.5, 0.0]), grad=False)
    ref.case(f"{name}_wrapped", lambda a, fn=fn: fn(a, 2.5),
             torch.tensor([1.0, 2.5, 3.0], dtype=f32), grad=False)

LOGIC_A = torch.tensor([[0.0, 1.0, -2.0], [nan, 0.0, 3.0]])
LOGIC_B = torch.tensor([[0.0, 0.0, 5.0], [0.0, 1.0, nan]])
ref.case("logical_and_f32", torch.logical_and, LOGIC_A, LOGIC_B, grad=False)
ref.case("logical_or_f32", torch.logical_or, LOGIC_A, LOGIC_B, grad=False)
ref.case("logical_not_f32", torch.logical_not, LOGIC_A, grad=False)
BA = torch.tensor([True, True, False, False])
BB = torch.tensor([True, False, True, False])
ref.case("logical_and_bool", torch.logical_and, BA, BB, grad=False)
ref.case("logical_or_bool", torch.logical_or, BA, BB, grad=False)
ref.case("logical_not_bool", torch.logical_not, BA, grad=False)
ref.case("logical_and_int_bcast", torch.logical_and, torch.tensor([[0], [3]], dtype=i64),
         torch.tensor([1, 0, -1], dtype=i64), grad=False)
ref.case("logical_not_int", torch.logical_not, ia, grad=False)
ref.case("logical_not_nc", torch.logical_not, noncontig(LOGIC_A), grad=False)

SPECIAL = [nan, inf, -inf, 0.0, 1.0, -3.5]
for name, fn in {"isnan": torch.isnan, "isinf": torch.isinf, "isfinite": torch.isfinite}.items():
    for sfx, dt in DTS:
        ref.case(f"{name}_{sfx}", fn, torch.tensor(SPECIAL, dtype=dt).reshape(2, 3), grad=False)
    ref.case(f"{name}_int", fn, ia, grad=False)
    ref.case(f"{name}_nc_f32", fn, noncontig(torch.tensor(SPECIAL).reshape(2, 3)), grad=False)

ref.close()

# torch.special and the special functions of torch: values and gradients
# printed exactly (tolist gives every bit of float32 and float64 values), in
# float32 and float64, including the edges (0, -0, 1, infinities, NaN,
# negative integers, poles), and gradcheck in float64. The same script runs
# under PyTorch 1.13 and under nndb; the outputs must be equal.
import math

import torch
import torch.special as S


def grid(lo, hi, n=29):
    return [lo + (hi - lo) * i / (n - 1) + 0.0123 for i in range(n)]


EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 2.5, 1e-8, 30.0, math.inf, -math.inf, math.nan]


def approx(values, dt):
    # For the functions whose algorithm differs from PyTorch's (erfcx, and
    # what is built on it) and the few-ulp ones: equal to 4 (float32) or 9
    # (float64) digits.
    digits = 4 if dt == torch.float32 else 9
    return ["%.*g" % (digits, v) for v in values]


def show(name, fn, values, grad=True, fn_name=True, exact=True):
    for dt in (torch.float32, torch.float64):
        x = torch.tensor(values, dtype=dt)
        fmt = (lambda v: v.tolist()) if exact else (lambda v: approx(v.tolist(), dt))
        try:
            y = fn(x)
            print(name, dt, fmt(y))
        except Exception as e:  # the same error under both
            print(name, dt, "error", type(e).__name__, e)
            continue
        if grad:
            xg = torch.tensor([v for v in values if math.isfinite(v)], dtype=dt, requires_grad=True)
            w = torch.tensor([(-1) ** i * (0.5 + i % 7 / 8) for i in range(xg.numel())], dtype=dt)
            (fn(xg) * w).sum().backward()
            print(" grad", fmt(xg.grad), fn(xg).grad_fn.name() if fn_name else "")


pos = grid(0.05, 12.0)
unit = grid(-0.97, 0.97)
wide = grid(-9.0, 9.0)
prob = grid(0.001, 0.97)

show("digamma", torch.digamma, pos + grid(-4.7, -0.3) + EDGES)
show("psi", S.psi, pos)
show("lgamma", torch.lgamma, pos + grid(-4.7, -0.3) + EDGES)
show("gammaln", S.gammaln, pos)
for n in (0, 1, 2, 3, 5):
    show("polygamma%d" % n, lambda x: torch.polygamma(n, x), pos + EDGES, exact=n < 3)
    show("special.polygamma%d" % n, lambda x: S.polygamma(n, x), pos, grad=False)
show("polygamma method", lambda x: x.polygamma(2), pos)
# mvlgamma's node is a Python Function here (its name differs from torch's)
show("mvlgamma", lambda x: torch.mvlgamma(x + 3, 3), pos, fn_name=False)
show("multigammaln", lambda x: S.multigammaln(x + 1, 2), pos, fn_name=False)
show("erfinv", torch.erfinv, unit + [0.0, -0.0, 0.99999, 1.0, -1.0, 1.5, math.nan])
show("special.erfinv", S.erfinv, unit)
show("erfc", torch.erfc, wide + EDGES)
show("erfcx", S.erfcx, wide + EDGES, exact=False)
show("erfcx large", S.erfcx, grid(20, 40) + [1e5, 1e9], exact=False, grad=False)
show("i0", torch.i0, wide + grid(8, 30) + EDGES)
show("i0e", S.i0e, wide + grid(8, 30) + EDGES, exact=False)
show("i1", S.i1, wide + grid(8, 30) + EDGES, exact=False)
show("i1e", S.i1e, wide + grid(8, 30) + EDGES, exact=False)
# ndtr is composed from erf as in PyTorch (its node is a multiplication)
show("ndtr", S.ndtr, wide + EDGES, fn_name=False)
show("ndtri", S.ndtri, prob + [0.0, 1.0, 1e-20, 1 - 1e-7, 0.5, -0.1, math.nan], exact=False)
show("log_ndtr", S.log_ndtr, wide + EDGES, exact=False)
show("log_ndtr tail", S.log_ndtr, grid(-40, -10), exact=False, grad=False)
show("sinc", torch.sinc, wide + EDGES)
show("special.sinc", S.sinc, wide)
show("entr", S.entr, pos + [0.0, -1.0, math.inf, math.nan])
show("exp2", torch.exp2, wide + EDGES)
show("special.exp2", S.exp2, wide)
show("expit", S.expit, wide + EDGES)
show("logit", torch.logit, prob + [0.0, 1.0, -0.5, 2.0, math.nan])
show("logit eps", lambda x: torch.logit(x, eps=0.01), prob + [0.0, 1.0, -0.5, 2.0])
show("special.logit", lambda x: S.logit(x, eps=1e-6), prob)
show("asinh", torch.asinh, wide + EDGES)
show("acosh", torch.acosh, grid(1.0, 9.0) + EDGES)
show("atanh", torch.atanh, unit + EDGES)
show("arcsinh", torch.arcsinh, wide)
show("special.expm1", S.expm1, wide)
show("special.log1p", S.log1p, pos)
show("special.erf", S.erf, wide)
show("special.erfc", S.erfc, wide)
show("special.i0", S.i0, wide)
show("special.round", lambda x: S.round(x * 7), wide, grad=False)

# binary: xlogy, xlog1py, zeta (gradient only for the second argument)
for dt in (torch.float32, torch.float64):
    a = torch.tensor([0.0, 1.0, -2.5, 3.0, 0.0, 2.0, 7.5], dtype=dt)
    b = torch.tensor([0.0, 2.0, 3.5, math.nan, math.nan, -0.5, 1e-9], dtype=dt)
    print("xlogy", dt, torch.xlogy(a, b).tolist(), torch.xlogy(a, 2.5).tolist(),
          torch.xlogy(3.0, b).tolist(), a.xlogy(b).tolist())
    print("xlog1py", dt, S.xlog1py(a, b).tolist(), S.xlog1py(a, 0.5).tolist())
    print("special.xlogy", dt, S.xlogy(a, b).tolist())
    s = torch.tensor([1.0, 2.0, 2.5, 3.0, 0.5, 4.0, 11.0], dtype=dt)
    q = torch.tensor([1.0, 0.5, 3.0, -1.0, 2.0, -2.5, 0.25], dtype=dt)
    print("zeta", dt, S.zeta(s, q).tolist(), S.zeta(s, 2.0).tolist(), S.zeta(3.0, q).tolist())
    x = torch.tensor([0.5, 1.0, 2.0, 3.0], dtype=dt, requires_grad=True)
    y = torch.tensor([0.25, 1.5, 2.0, 7.0], dtype=dt, requires_grad=True)
    (torch.xlogy(x, y) * torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=dt)).sum().backward()
    print(" xlogy grads", x.grad.tolist(), y.grad.tolist())
    x.grad = None
    y.grad = None
    S.xlog1py(x, y).sum().backward()
    print(" xlog1py grads", x.grad.tolist(), y.grad.tolist())
    q = torch.tensor([0.5, 1.5, 2.0, 7.0], dtype=dt, requires_grad=True)
    S.zeta(torch.tensor(3.0, dtype=dt), q).sum().backward()
    print(" zeta grad", q.grad.tolist())

# integers and bools compute in the default float type
print(torch.digamma(torch.tensor([1, 2, 3])).tolist(), torch.erfinv(torch.tensor([0, 0])).dtype)
print(S.i1(torch.tensor([True, False])).tolist(), torch.lgamma(torch.arange(1, 6)).tolist())
# in-place forms
t = torch.tensor([0.25, 0.5, 2.0])
t.digamma_()
t.lgamma_()
print(t.tolist())
t = torch.tensor([0.25, 0.5, 0.75])
t.erfinv_()
t.polygamma_(1)
print(t.tolist())
t = torch.tensor([0.25, 0.5, 0.75])
t.logit_()
t.exp2_()
t.sinc_()
t.i0_()
print(t.tolist())
# out=
o = torch.empty(3)
S.ndtri(torch.tensor([0.1, 0.5, 0.9]), out=o)
print(o.tolist())
# errors in PyTorch's words
for f in (lambda: torch.polygamma(-1, torch.ones(2)), lambda: torch.mvlgamma(torch.ones(2), 0)):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError", e)

# gradcheck in float64 for the differentiable functions
from torch.autograd import gradcheck
x = torch.tensor([0.3, 1.7, 2.9, 4.2], dtype=torch.float64, requires_grad=True)
u = torch.tensor([-0.6, -0.1, 0.2, 0.8], dtype=torch.float64, requires_grad=True)
for name, fn, inp in [("digamma", torch.digamma, x), ("lgamma", torch.lgamma, x),
                      ("polygamma2", lambda t: torch.polygamma(2, t), x), ("erfinv", torch.erfinv, u),
                      ("erfc", torch.erfc, u), ("erfcx", S.erfcx, u), ("i0", torch.i0, u),
                      ("i0e", S.i0e, u), ("i1", S.i1, u), ("i1e", S.i1e, u), ("ndtr", S.ndtr, u),
                      ("ndtri", lambda t: S.ndtri(t.abs() * 0.9 + 0.05), u),
                      ("log_ndtr", S.log_ndtr, u), ("sinc", torch.sinc, u), ("entr", S.entr, x),
                      ("exp2", torch.exp2, u), ("logit", lambda t: torch.logit(t.abs() * 0.9 + 0.05), u),
                      ("asinh", torch.asinh, u), ("acosh", lambda t: torch.acosh(t + 1), x),
                      ("atanh", torch.atanh, u), ("mvlgamma", lambda t: torch.mvlgamma(t + 2, 3), x),
                      ("xlogy", lambda t: torch.xlogy(t, t + 1), x),
                      ("xlog1py", lambda t: S.xlog1py(t, t), x),
                      ("zeta", lambda t: S.zeta(torch.tensor(2.5, dtype=torch.float64), t), x)]:
    print("gradcheck", name, gradcheck(fn, (inp,)))

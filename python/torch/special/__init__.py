"""torch.special: PyTorch's special functions over nndb's C kernels
(engine/ops/ops_special.c; docs/language-tensors.md says where each
algorithm comes from)."""

import math as _math
import sys as _sys

import torch
from torch import _C

__all__ = [
    "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
    "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit",
    "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "digamma", "round",
    "sinc", "softmax", "xlog1py", "xlogy", "zeta",
]


def _out(result, out, name=None):
    # out= as torch._C's functions take it (binding/py_out.c), under PyTorch's
    # name: special_NAME of the calling function unless given
    if out is None:
        return result
    return _C._out_write(result, out, name or "special_" + _sys._getframe(1).f_code.co_name)


def _unary(fn):
    def f(input, *, out=None):
        return _out(fn(input), out, "special_" + fn.__name__)
    return f


erf = _unary(torch.erf)
erfc = _unary(torch.erfc)
erfinv = _unary(torch.erfinv)
expm1 = _unary(torch.expm1)
exp2 = _unary(torch.exp2)
log1p = _unary(torch.log1p)
expit = _unary(torch.sigmoid)
gammaln = _unary(torch.lgamma)
digamma = _unary(torch.digamma)
psi = digamma
i0 = _unary(torch.i0)
sinc = _unary(torch.sinc)
i0e = _unary(_C._special_i0e)
i1 = _unary(_C._special_i1)
i1e = _unary(_C._special_i1e)
ndtri = _unary(_C._special_ndtri)
log_ndtr = _unary(_C._special_log_ndtr)
erfcx = _unary(_C._special_erfcx)
entr = _unary(_C._special_entr)


def ndtr(input, *, out=None):
    # The standard normal CDF, composed as PyTorch 1.13 composes it:
    # (1 + erf(x / sqrt(2))) / 2 (so its values and gradients are torch's).
    # Its docstring is in torch/_torch_docs.py's SPECIAL_DOCS.
    return _out((1 + torch.erf(input * _math.sqrt(0.5))) * 0.5, out)


def round(input, decimals=0, *, out=None):
    return _out(torch.round(input, decimals=decimals), out)


def logit(input, eps=None, *, out=None):
    return _out(torch.logit(input, eps), out)


def polygamma(n, input, *, out=None):
    return _out(torch.polygamma(n, input), out)


def multigammaln(input, p, *, out=None):
    return _out(torch.mvlgamma(input, p), out)


def xlogy(input, other, *, out=None):
    return _out(torch.xlogy(input, other), out)


def xlog1py(input, other, *, out=None):
    return _out(_C._special_xlog1py(input, other), out)


def zeta(input, other, *, out=None):
    return _out(_C._special_zeta(input, other), out)


def gammainc(input, other, *, out=None):
    return _out(torch.igamma(input, other), out)


def gammaincc(input, other, *, out=None):
    return _out(torch.igammac(input, other), out)


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)


def logsumexp(input, dim, keepdim=False, *, out=None):
    return _out(torch.logsumexp(input, dim, keepdim=keepdim), out)



# ---- orthogonal polynomials (PyTorch 1.13's torch.special names) ----
# Elementwise over input and n broadcast together, by the recurrences
# PyTorch's Math.h uses (with its closed forms for large n inside (-1, 1)),
# evaluated per element in double and rounded to the result's type. Not
# differentiable, as in PyTorch. The shifted families are the plain ones at
# 2x - 1.

def _poly_op(fn):
    def op(input, n, *, out=None):
        x = input if torch.is_tensor(input) else torch.tensor(input)
        nt = n if torch.is_tensor(n) else torch.tensor(n)
        dtype = torch.result_type(x, n)
        if not dtype.is_floating_point:
            dtype = torch.get_default_dtype()
        xb, nb = torch.broadcast_tensors(x.detach().to(dtype), nt.detach().to(dtype))
        vals = [fn(a, b) for a, b in zip(xb.reshape(-1).tolist(), nb.reshape(-1).tolist())]
        return _out(torch.tensor(vals, dtype=dtype).reshape(xb.shape), out)
    return op


def _intn(n):
    if n != n:
        return None
    return int(n)


def _cheb_t(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    if abs(x) == 1:
        return 1.0 if x > 0 or n % 2 == 0 else -1.0
    if n > 6 and abs(x) < 1:
        return _math.cos(n * _math.acos(x))
    p, q = 1.0, x
    if n == 0:
        return p
    for _ in range(2, n + 1):
        p, q = q, (x + x) * q - p
    return q


def _cheb_u(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    if abs(x) == 1:
        return float(n + 1) if x > 0 or n % 2 == 0 else -float(n + 1)
    if n > 8 and abs(x) < 1:
        a = _math.acos(x)
        if _math.sin(a) != 0:
            return _math.sin((n + 1) * a) / _math.sin(a)
        return (n + 1) * _math.cos((n + 1) * a) / x
    p, q = 1.0, x + x
    if n == 0:
        return p
    for _ in range(2, n + 1):
        p, q = q, (x + x) * q - p
    return q


def _cheb_v(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    if abs(x) == 1:
        if x > 0:
            return 1.0
        return float(n + n + 1) if n % 2 == 0 else -float(n + n + 1)
    if n > 8 and abs(x) < 1:
        a = _math.acos(x)
        if _math.sin(a / 2) != 1:
            return _math.cos((n + 0.5) * a) / _math.cos(a / 2)
        return float(n + n + 1) if n % 2 == 0 else -float(n + n + 1)
    p, q = 1.0, x + x - 1
    if n == 0:
        return p
    for _ in range(2, n + 1):
        p, q = q, (x + x) * q - p
    return q


def _cheb_w(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    if abs(x) == 1:
        if x > 0:
            return float(n + n + 1)
        return 1.0 if n % 2 == 0 else -1.0
    if n > 8 and abs(x) < 1:
        a = _math.acos(x)
        if _math.cos(a / 2) != 1:
            return _math.sin((n + 0.5) * a) / _math.sin(a / 2)
        if x > 0:
            return float(n + n + 1)
        return 1.0 if n % 2 == 0 else -1.0
    p, q = 1.0, x + x + 1
    if n == 0:
        return p
    for _ in range(2, n + 1):
        p, q = q, (x + x) * q - p
    return q


def _hermite_h(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    p, q = 1.0, x + x
    if n == 0:
        return p
    for k in range(2, n + n, 2):
        p, q = q, (x + x) * q - k * p
    return q


def _hermite_he(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    p, q = 1.0, x
    if n == 0:
        return p
    for k in range(1, n):
        p, q = q, x * q - k * p
    return q


def _laguerre_l(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    if x == 0:
        return 1.0
    p, q = 1.0, 1.0 - x
    if n == 0:
        return p
    for k in range(1, n):
        p, q = q, (((k + k) + (1.0 - x)) * q - k * p) / (k + 1)
    return q


def _legendre_p(x, n):
    n = _intn(n)
    if n is None or x != x:
        return float("nan")
    if n < 0:
        return 0.0
    if abs(x) == 1:
        return 1.0 if x > 0 or n == 0 or n % 2 == 0 else -1.0
    p, q = 1.0, x
    if n == 0:
        return p
    for k in range(1, n):
        p, q = q, ((k + k + 1) * x * q - k * p) / (k + 1)
    return q


def _shifted(fn):
    return lambda x, n: fn(x + x - 1, n)


chebyshev_polynomial_t = _poly_op(_cheb_t)
chebyshev_polynomial_u = _poly_op(_cheb_u)
chebyshev_polynomial_v = _poly_op(_cheb_v)
chebyshev_polynomial_w = _poly_op(_cheb_w)
shifted_chebyshev_polynomial_t = _poly_op(_shifted(_cheb_t))
shifted_chebyshev_polynomial_u = _poly_op(_shifted(_cheb_u))
shifted_chebyshev_polynomial_v = _poly_op(_shifted(_cheb_v))
shifted_chebyshev_polynomial_w = _poly_op(_shifted(_cheb_w))
hermite_polynomial_h = _poly_op(_hermite_h)
hermite_polynomial_he = _poly_op(_hermite_he)
laguerre_polynomial_l = _poly_op(_laguerre_l)
legendre_polynomial_p = _poly_op(_legendre_p)


# The Bessel and Airy functions (engine/ops/special_math.h: Cephes'
# approximations as PyTorch 1.13 writes them); not differentiable, as in
# PyTorch.
bessel_j0 = _unary(_C._special_bessel_j0)
bessel_j1 = _unary(_C._special_bessel_j1)
bessel_y0 = _unary(_C._special_bessel_y0)
bessel_y1 = _unary(_C._special_bessel_y1)
modified_bessel_i0 = _unary(_C._special_modified_bessel_i0)
modified_bessel_i1 = _unary(_C._special_modified_bessel_i1)
modified_bessel_k0 = _unary(_C._special_modified_bessel_k0)
modified_bessel_k1 = _unary(_C._special_modified_bessel_k1)
scaled_modified_bessel_k0 = _unary(_C._special_scaled_modified_bessel_k0)
scaled_modified_bessel_k1 = _unary(_C._special_scaled_modified_bessel_k1)
airy_ai = _unary(_C._special_airy_ai)
spherical_bessel_j0 = _unary(_C._special_spherical_bessel_j0)


__all__ += [
    "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
    "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
    "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p",
    "modified_bessel_i0", "modified_bessel_i1", "spherical_bessel_j0", "airy_ai", "bessel_j0",
    "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_k0", "modified_bessel_k1",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
]

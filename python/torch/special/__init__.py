"""torch.special: PyTorch's special functions over nndb's C kernels
(engine/ops/ops_special.c; docs/language-tensors.md says where each
algorithm comes from)."""

import math as _math

import torch
from torch import _C

__all__ = [
    "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
    "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit",
    "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "digamma", "round",
    "sinc", "softmax", "xlog1py", "xlogy", "zeta",
]


def _out(result, out):
    if out is None:
        return result
    with torch.no_grad():
        out.resize_(result.shape)
        out.copy_(result)
    return out


def _unary(fn):
    def f(input, *, out=None):
        return _out(fn(input), out)
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
    """The standard normal CDF, composed as PyTorch 1.13 composes it:
    (1 + erf(x / sqrt(2))) / 2 (so its values and gradients are torch's)."""
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


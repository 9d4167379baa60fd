"""Tensor updates rounded as ATen's CPU kernels round them, for the
optimizers written in Python (Adadelta, Adamax, NAdam, RAdam, ASGD).

torch 1.13 computes x.add_(y, alpha=a) as one fused multiply-add,
fma(y, a, x), and x.addcmul_(y, z, value=v) as fma(v*y, z, x), with the
scalars rounded to the tensor's type first; x.addcdiv_(y, z, value=v) is
x + (v*y)/z with every operation rounded, and s / t is t.reciprocal() * s.
nndb's elementwise ops round a*y and the sum separately, so to give the same
floats as torch.optim these helpers form the fused results in float64 (the
product of two float32 values is exact there) and round once to float32.
That agrees with a true fused multiply-add except when the float64 sum falls
exactly half-way between two float32 values, about once in 2^29 elements.
Float64 tensors take the plain ops (their double rounding would not help).
"""

import torch


def _scalar(t, value):
    # The scalar as the kernel sees it: rounded to the tensor's type.
    if t.dtype == torch.float32:
        return torch.tensor(value, dtype=torch.float32).item()
    return value


def _fused(x, y, a):
    """fma(y, a, x) for float32 tensors x, y and a (a tensor or a number)."""
    if x.dtype != torch.float32:
        return x + y * a
    a = a.double() if torch.is_tensor(a) else a
    return (x.double() + y.double() * a).float()


def add_(x, y, alpha):
    """x.add_(y, alpha=alpha) as torch rounds it."""
    return x.copy_(_fused(x, y, _scalar(x, alpha)))


def add(x, y, alpha):
    """x.add(y, alpha=alpha) as torch rounds it."""
    return _fused(x, y, _scalar(x, alpha))


def addcmul_(x, y, z, value):
    """x.addcmul_(y, z, value=value) as torch rounds it."""
    return x.copy_(_fused(x, z, y.mul(value)))


def addcdiv_(x, y, z, value):
    """x.addcdiv_(y, z, value=value) as torch rounds it."""
    return x.add_(y.mul(value).div(z))


def rdiv(s, t):
    """s / t for a number s and a tensor t, as torch computes it."""
    return t.reciprocal().mul(s)

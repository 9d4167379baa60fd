"""Complex tensors at the Python level: the queries (is_complex), the views
(.real, .imag, view_as_real, view_as_complex), conj, and the constructors
and functions composed from them (complex, polar, angle, sgn). The engine
holds complex64/complex128 storage and the arithmetic (engine/ops/
ops_complex.c, ops_fft.c); what is composed here is differentiable because
the ops under it are.

conj is materialised: x.conj() is a copy with the imaginary parts negated
(PyTorch sets a lazy conjugate bit; the values are the same, is_conj() is
always False here, and writing into a conj() does not write into x).
"""

import math

import torch
from torch import _C


def is_complex(self):
    return self.dtype.is_complex


def _real(self):
    if self.dtype.is_complex:
        return _C._view_as_real(self).select(-1, 0)
    return self


def _imag(self):
    if self.dtype.is_complex:
        return _C._view_as_real(self).select(-1, 1)
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


def conj(self):
    return _C._conj_physical(self) if self.dtype.is_complex else self


def conj_physical(self):
    return _C._conj_physical(self) if self.dtype.is_complex else self.clone()


def resolve_conj(self):
    return self


def view_as_real(input):
    if not input.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return _C._view_as_real(input)


def view_as_complex(input):
    return _C._view_as_complex(input)


def complex(real, imag, *, out=None):
    """complex(real, imag, *, out=None) -> Tensor

    A complex tensor real + 1j * imag from two float tensors of the same dtype
    (float32 gives complex64, float64 complex128), broadcast.

    Example::

        >>> torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([3.0, -1.0]))
        tensor([1.+3.j, 2.-1.j])
    """
    for t in (real, imag):
        if not isinstance(t, torch.Tensor):
            raise TypeError("complex(): argument 'real' (position 1) must be Tensor, not %s"
                            % type(t).__name__)
    if real.dtype not in (torch.float16, torch.float32, torch.float64) or \
            imag.dtype not in (torch.float16, torch.float32, torch.float64):
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got %s "
                           "and %s" % (_C._scalar_type_name(real.dtype) if hasattr(_C, "_scalar_type_name")
                                       else _name(real.dtype), _name(imag.dtype)))
    if real.dtype != imag.dtype:
        raise RuntimeError("Expected object of scalar type %s but got scalar type %s for second "
                           "argument" % (_name(real.dtype), _name(imag.dtype)))
    if real.dtype == torch.float16:
        raise RuntimeError('"complex_cpu" not implemented for \'ComplexHalf\'')
    re, im = torch.broadcast_tensors(real, imag)
    result = _C._view_as_complex(torch.stack([re, im], -1))
    if out is not None:
        with torch.no_grad():
            out.copy_(result)
        return out
    return result


def _name(dt):
    return {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
            torch.bfloat16: "BFloat16", torch.int64: "Long", torch.int32: "Int",
            torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte", torch.bool: "Bool",
            torch.complex64: "ComplexFloat", torch.complex128: "ComplexDouble"}[dt]


def polar(abs, angle, *, out=None):
    """polar(abs, angle, *, out=None) -> Tensor

    The complex numbers with magnitude abs and argument angle (radians):
    abs * (cos(angle) + 1j * sin(angle)). Both float, of the same dtype.

    Example::

        >>> torch.polar(torch.tensor([2.0]), torch.tensor([0.0]))
        tensor([2.+0.j])
    """
    return complex(abs * torch.cos(angle), abs * torch.sin(angle), out=out)


def angle(input):
    """angle(input) -> Tensor

    The argument (phase) of each element in radians: atan2(imag, real) for a
    complex tensor; for a real one, pi for negatives and 0 otherwise (nan stays
    nan). The result is floating point.

    Example::

        >>> torch.angle(torch.tensor([1j, -1 + 0j, 1 + 1j]))
        tensor([1.5708, 3.1416, 0.7854])
        >>> torch.angle(torch.tensor([-2.0, 3.0]))
        tensor([3.1416, 0.0000])
    """
    # The argument of each element: atan2(imag, real) for complex; pi for negative reals, 0
    # otherwise (NaN stays NaN), with a zero gradient.
    if input.dtype.is_complex:
        return torch.atan2(_imag(input), _real(input))
    x = input if input.is_floating_point() else input.to(torch.get_default_dtype())
    # clamp(0, 0) * 0: zero everywhere but NaN, and no gradient
    return torch.where(x < 0, math.pi, x.clamp(0, 0) * 0)


_sign = torch.Tensor.sgn


def sgn(input):
    if input.dtype.is_complex:
        a = input.abs()
        safe = torch.where(a == 0, torch.ones_like(a), a)
        return torch.where(a == 0, torch.zeros_like(a), 1.0) * (input / safe)
    return _sign(input)


def install(cls, module):
    """Tensor's complex methods on [cls]; the torch functions into the dict [module]."""
    for name, fn in (("is_complex", is_complex), ("conj", conj), ("conj_physical", conj_physical),
                     ("resolve_conj", resolve_conj), ("angle", angle), ("sgn", sgn)):
        setattr(cls, name, fn)
    cls.real = property(_real)
    cls.imag = property(_imag)
    for name, fn in (("is_complex", is_complex), ("conj", conj), ("conj_physical", conj_physical),
                     ("resolve_conj", resolve_conj), ("view_as_real", view_as_real),
                     ("view_as_complex", view_as_complex), ("complex", complex),
                     ("polar", polar), ("angle", angle), ("sgn", sgn), ("real", _real),
                     ("imag", _imag)):
        module[name] = fn


def copy_docs():
    """sgn keeps the docstring of the C sign it wraps (set once the docs are loaded)."""
    sgn.__doc__ = getattr(_C, "sgn", _sign).__doc__ or _sign.__doc__

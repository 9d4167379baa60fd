"""Complex paths of ops whose engine kernels are real: exp, log, log2,
log10, sqrt, rsqrt, reciprocal, sigmoid, tanh, sin, cos, tan, sinh, cosh,
pow, matmul / mm / bmm and where.
The binding calls these (binding/py_ops.c, py_complex_fallback) only when
an operand is complex, so real calls never pass through Python here.

Each is composed from real ops on the real and imaginary parts (.real,
.imag, torch.complex), which carry PyTorch's convention for complex
gradients (the conjugate Wirtinger derivative: for a real loss L of
z = x + iy, z.grad = dL/dx + i dL/dy); a composition of them therefore has
the same gradient as PyTorch's own complex kernels. Values agree with
PyTorch's std::complex formulas to rounding (a few ulps), not bit for bit.
"""
import math

import torch


def _parts(z):
    return (z.real, z.imag) if z.is_complex() else (z, torch.zeros_like(z))


def _complex_dtype(*ts):
    """The complex dtype of a result over tensors / Python numbers, by
    PyTorch's promotion."""
    dt = None
    for t in ts:
        if isinstance(t, torch.Tensor):
            dt = t.dtype if dt is None else torch.promote_types(dt, t.dtype)
    if dt is None or not dt.is_complex:
        dt = torch.complex128 if dt == torch.float64 else torch.complex64
    return dt


def _as_complex(v, dt):
    if isinstance(v, torch.Tensor):
        return v.to(dt) if v.dtype != dt else v
    return torch.tensor(complex(v), dtype=dt)


def exp(input):
    x, y = _parts(input)
    e = torch.exp(x)
    return torch.complex(e * torch.cos(y), e * torch.sin(y))


def log(input):
    return torch.complex(torch.log(torch.abs(input)), torch.angle(input))


def sqrt(input):
    # the principal root: sqrt(|z|) at half the angle
    r = torch.sqrt(torch.abs(input))
    half = torch.angle(input) * 0.5
    return torch.complex(r * torch.cos(half), r * torch.sin(half))


def log2(input):
    return log(input) / math.log(2.0)


def log10(input):
    return log(input) / math.log(10.0)


def rsqrt(input):
    return 1 / sqrt(input)


def sinh(input):
    x, y = _parts(input)
    return torch.complex(torch.sinh(x) * torch.cos(y), torch.cosh(x) * torch.sin(y))


def cosh(input):
    x, y = _parts(input)
    return torch.complex(torch.cosh(x) * torch.cos(y), torch.sinh(x) * torch.sin(y))


def tan(input):
    # tan(x + iy) = (sin 2x + i sinh 2y) / (cos 2x + cosh 2y)
    x, y = _parts(input)
    d = torch.cos(2 * x) + torch.cosh(2 * y)
    return torch.complex(torch.sin(2 * x) / d, torch.sinh(2 * y) / d)


def reciprocal(input):
    return 1 / input


def sigmoid(input):
    return 1 / (1 + exp(-input))


def tanh(input):
    # tanh(x + iy) = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y)
    x, y = _parts(input)
    d = torch.cosh(2 * x) + torch.cos(2 * y)
    return torch.complex(torch.sinh(2 * x) / d, torch.sin(2 * y) / d)


def sin(input):
    x, y = _parts(input)
    return torch.complex(torch.sin(x) * torch.cosh(y), torch.cos(x) * torch.sinh(y))


def cos(input):
    x, y = _parts(input)
    return torch.complex(torch.cos(x) * torch.cosh(y), -(torch.sin(x) * torch.sinh(y)))


def pow(input, exponent):
    dt = _complex_dtype(input, exponent)
    if not isinstance(exponent, torch.Tensor) and isinstance(input, torch.Tensor):
        # ATen's pow_tensor_scalar special cases, which complex inputs take too
        z = _as_complex(input, dt)
        if exponent == 0.5:
            return sqrt(z)
        if exponent == 2:
            return z * z
        if exponent == 3:
            return z * z * z
        if exponent == -0.5:
            return 1 / sqrt(z)
        if exponent == -1:
            return 1 / z
        if exponent == -2:
            return 1 / (z * z)
        if exponent == 1:
            return z.clone()
        if exponent == 0:
            return torch.ones_like(z)
    z = _as_complex(input, dt)
    p = _as_complex(exponent, dt)
    return exp(p * log(z))


def _matmul_parts(f, a, b):
    dt = _complex_dtype(a, b)
    if a.dtype != b.dtype:
        raise RuntimeError("expected scalar type %s but found %s"
                           % (_scalar(a.dtype), _scalar(b.dtype)))
    ar, ai = _parts(a)
    br, bi = _parts(b)
    out = torch.complex(f(ar, br) - f(ai, bi), f(ar, bi) + f(ai, br))
    return out.to(dt) if out.dtype != dt else out


def _scalar(dt):
    return {torch.float32: "Float", torch.float64: "Double", torch.complex64: "ComplexFloat",
            torch.complex128: "ComplexDouble"}.get(dt, str(dt))


def matmul(input, other):
    return _matmul_parts(torch.matmul, input, other)


def mm(input, mat2):
    return _matmul_parts(torch.mm, input, mat2)


def bmm(input, mat2):
    return _matmul_parts(torch.bmm, input, mat2)


def where(condition, input, other):
    dt = _complex_dtype(input, other)
    x = _as_complex(input, dt)
    y = _as_complex(other, dt)
    return torch.complex(torch.where(condition, x.real, y.real),
                         torch.where(condition, x.imag, y.imag))


def mv(input, vec):
    return _matmul_parts(torch.mv, input, vec)

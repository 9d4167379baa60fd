"""torch.fft: PyTorch's discrete Fourier transforms over nndb's three FFT
primitives (torch._C._fft_c2c, _fft_r2c, _fft_c2r in engine/ops/ops_fft.c,
on FFTW). The argument handling here follows PyTorch 1.13's
aten/src/ATen/native/SpectralOps.cpp: how n / s pad or trim the input,
which dims are transformed by default, the normalisation modes, which
transforms conjugate, and its error messages. Gradients come from the
primitives' backwards (PyTorch's formulas) and from the ops around them.
"""

import sys as _sys

import torch
from torch import _C

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]

_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def _norm_mode(norm, forward):
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError('Invalid normalization mode: "%s"' % (norm,))


def _promote(x, require_complex):
    if not isinstance(x, torch.Tensor):
        raise TypeError("fft(): argument 'input' (position 1) must be Tensor, not %s"
                        % type(x).__name__)
    if x.is_complex():
        return x
    dt = x.dtype
    if not dt.is_floating_point:
        dt = torch.get_default_dtype()
    if dt not in (torch.float32, torch.float64):
        raise RuntimeError("Unsupported dtype %s" % _scalar_name(dt))
    if require_complex:
        dt = torch.complex128 if dt == torch.float64 else torch.complex64
    return x if x.dtype == dt else x.to(dt)


def _scalar_name(dt):
    return {torch.float16: "Half", torch.bfloat16: "BFloat16"}.get(dt, str(dt))


def _C_name(dt):
    from torch._complex import _name
    return _name(dt)


def _wrap_dim(d, ndim):
    if ndim == 0:
        raise IndexError("Dimension specified as %d but tensor has no dimensions" % d)
    if d < -ndim or d >= ndim:
        raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but got %d)"
                         % (-ndim, ndim - 1, d))
    return d % ndim


def _resize(x, dims, sizes):
    """Trim or zero-pad x to sizes[i] along dims[i] (resize_fft_input)."""
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        cur = x.shape[d]
        if cur > n:
            x = x.narrow(d, 0, n)
        elif cur < n:
            shape = list(x.shape)
            shape[d] = n - cur
            x = torch.cat([x, torch.zeros(shape, dtype=x.dtype)], d)
    return x


def _check_n(n):
    if n < 1:
        raise RuntimeError("Invalid number of data points (%d) specified" % n)


# ---- one dim ----

def _c2c(name, x, n, dim, norm, forward):
    if not x.is_complex():
        raise RuntimeError("%s expects a complex input tensor, but got %s" % (name, _C_name(x.dtype)))
    dim = _wrap_dim(dim, x.dim())
    size = x.shape[dim] if n is None else n
    _check_n(size)
    if n is not None:
        x = _resize(x, [dim], [n])
    return _C._fft_c2c(x, [dim], _norm_mode(norm, forward), forward)


def _r2c(name, x, n, dim, norm, forward, onesided):
    if isinstance(x, torch.Tensor) and x.is_complex():
        raise RuntimeError("%s expects a real input tensor, but got %s" % (name, _C_name(x.dtype)))
    x = _promote(x, False)
    dim = _wrap_dim(dim, x.dim())
    size = x.shape[dim] if n is None else n
    _check_n(size)
    if n is not None:
        x = _resize(x, [dim], [n])
    ret = _C._fft_r2c(x, [dim], _norm_mode(norm, forward), onesided)
    return ret if forward else ret.conj()


def _c2r(name, x, n, dim, norm, forward):
    x = _promote(x, True)
    dim = _wrap_dim(dim, x.dim())
    size = 2 * (x.shape[dim] - 1) if n is None else n
    _check_n(size)
    if n is not None:
        x = _resize(x, [dim], [n // 2 + 1])
    if forward:
        x = x.conj()
    return _C._fft_c2r(x, [dim], _norm_mode(norm, forward), size)


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    if isinstance(input, torch.Tensor) and input.is_complex():
        return _out(_c2c("fft", input, n, dim, norm, True), out)
    return _out(_r2c("fft", input, n, dim, norm, True, False), out)


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    if isinstance(input, torch.Tensor) and input.is_complex():
        return _out(_c2c("ifft", input, n, dim, norm, False), out)
    return _out(_r2c("ifft", input, n, dim, norm, False, False), out)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_r2c("rfft", input, n, dim, norm, True, True), out)


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_c2r("irfft", input, n, dim, norm, False), out)


def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_c2r("hfft", input, n, dim, norm, True), out)


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_r2c("ihfft", input, n, dim, norm, False, True), out)


# ---- n dims ----

def _as_list(v):
    if v is None:
        return None
    if isinstance(v, int):
        return [v]
    return [int(i) for i in v]


def _shape_and_dims(x, s, dim):
    """canonicalize_fft_shape_and_dim_args: (sizes, dims)."""
    ndim = x.dim()
    s, dim = _as_list(s), _as_list(dim)
    dims = None
    if dim is not None:
        dims = [_wrap_dim(d, ndim) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dim is not None and len(dim) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError("Got shape with %d values but input tensor only has %d dimensions."
                               % (len(s), ndim))
        if dims is None:
            dims = list(range(ndim - len(s), ndim))
        shape = [x.shape[d] if n == -1 else n for n, d in zip(s, dims)]
    elif dims is None:
        dims = list(range(ndim))
        shape = list(x.shape)
    else:
        shape = [x.shape[d] for d in dims]
    for n in shape:
        if n <= 0:
            raise RuntimeError("Invalid number of data points (%d) specified" % n)
    return shape, dims


def _c2r_shape_and_dims(name, x, s, dim):
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise RuntimeError("%s must transform at least one axis" % name)
    s = _as_list(s)
    if s is None or s[-1] == -1:
        last = 2 * (x.shape[dims[-1]] - 1)
    else:
        last = shape[-1]
    _check_n(last)
    shape[-1] = last // 2 + 1
    return shape, dims, last


def _fftn(name, input, s, dim, norm, forward):
    shape, dims = _shape_and_dims(_promote(input, True), s, dim)
    x = _resize(_promote(input, True), dims, shape)
    if not dims:
        return x
    return _C._fft_c2c(x, dims, _norm_mode(norm, forward), forward)


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_fftn("fftn", input, s, dim, norm, True), out)


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_fftn("ifftn", input, s, dim, norm, False), out)


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    if isinstance(input, torch.Tensor) and input.is_complex():
        raise RuntimeError("rfftn expects a real-valued input tensor, but got %s"
                           % _C_name(input.dtype))
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError("rfftn must transform at least one axis")
    x = _resize(_promote(input, False), dims, shape)
    return _out(_C._fft_r2c(x, dims, _norm_mode(norm, True), True), out)


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    shape, dims, last = _c2r_shape_and_dims("irfftn", input, s, dim)
    x = _resize(_promote(input, True), dims, shape)
    return _out(_C._fft_c2r(x, dims, _norm_mode(norm, False), last), out)


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    shape, dims, last = _c2r_shape_and_dims("hfftn", input, s, dim)
    x = _resize(_promote(input, True), dims, shape)
    mode = _norm_mode(norm, True)
    if len(dims) > 1:
        x = _C._fft_c2c(x, dims[:-1], mode, True)
    return _out(_C._fft_c2r(x.conj(), dims[-1:], mode, last), out)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError("ihfftn must transform at least one axis")
    x = _resize(_promote(input, False), dims, shape)
    mode = _norm_mode(norm, False)
    tmp = _C._fft_r2c(x, dims[-1:], mode, True).conj()
    if len(dims) == 1:
        return _out(tmp, out)
    return _out(_C._fft_c2c(tmp, dims[:-1], mode, False), out)


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return fftn(input, s, dim, norm, out=out)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return ifftn(input, s, dim, norm, out=out)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return rfftn(input, s, dim, norm, out=out)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return irfftn(input, s, dim, norm, out=out)


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return hfftn(input, s, dim, norm, out=out)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return ihfftn(input, s, dim, norm, out=out)


def _out(result, out):
    # out= as torch._C's functions take it (binding/py_out.c), under PyTorch's
    # name for the calling function (fft_NAME)
    if out is None:
        return result
    return _C._out_write(result, out, "fft_" + _sys._getframe(1).f_code.co_name)


# ---- helpers ----

def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    dtype = dtype or torch.get_default_dtype()
    result = torch.arange(n, dtype=dtype)
    half = (n + 1) // 2
    if n - half > 0:
        result[half:] = torch.arange(-(n // 2), 0, dtype=dtype)
    result = result * (1.0 / (n * d))
    return result.requires_grad_(requires_grad) if requires_grad else result


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    dtype = dtype or torch.get_default_dtype()
    result = torch.arange(n // 2 + 1, dtype=dtype) * (1.0 / (n * d))
    return result.requires_grad_(requires_grad) if requires_grad else result


def _shift(input, dim, inverse):
    if dim is None:
        dims = list(range(input.dim()))
    else:
        dims = [_wrap_dim(d, input.dim()) for d in _as_list(dim)]
    if not dims:
        return input.clone()
    shifts = [(input.shape[d] + 1) // 2 if inverse else input.shape[d] // 2 for d in dims]
    return torch.roll(input, shifts, dims)


def fftshift(input, dim=None):
    return _shift(input, dim, False)


def ifftshift(input, dim=None):
    return _shift(input, dim, True)

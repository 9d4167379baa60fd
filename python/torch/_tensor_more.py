"""Tensor methods written in Python over the kernels: PyTorch's less common
math (addmm and friends, inverse hyperbolics, logaddexp, xlogy, hypot...),
shape helpers (unfold, tensor_split, rot90, diff, kron...), indexed writes
(index_fill/copy/add, put_, take), the element-wise Python callbacks
(apply_, map_), the dtype queries, and the in-place aliases torch spells
several ways. Each is differentiable where it is in PyTorch because it is
built from differentiable ops.

install(Tensor) adds each only where torch._C._TensorBase has no method of
that name, so a kernel added later in C wins over the composite here.
"""

import collections
import math

import torch
from torch import _C

_METHODS = {}


def _method(fn):
    _METHODS[fn.__name__] = fn
    return fn


def _float_like(x):
    """x as a float tensor (integers go to the default dtype)."""
    return x if x.is_floating_point() else x.to(_C.get_default_dtype())


def _in_double(x, fn):
    """fn over x in float64, back in x's float dtype: the composites then
    round as torch's single kernels do."""
    x = _float_like(x)
    return fn(x.double()).to(x.dtype)


def _dim_index(t, dim, index):
    dim = dim % max(t.dim(), 1)
    return (slice(None),) * dim + (index,)


# ---- queries ----

@_method
def is_complex(input):
    return False


@_method
def is_signed(input):
    return input.dtype.is_signed


@_method
def is_nonzero(input):
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input.item() != 0)


@_method
def is_same_size(input, other):
    return tuple(input.shape) == tuple(other.shape)


@_method
def is_inference(input):
    return False


@_method
def is_pinned(input, device=None):
    return False


@_method
def is_shared(input):
    return False


@_method
def is_neg(input):
    return False


@_method
def is_conj(input):
    return False


@_method
def get_device(input):
    return -1


@_method
def pin_memory(input, device=None):
    return input


@_method
def share_memory_(input):
    return input


def _self(input):
    return input


for _name in ("conj", "resolve_conj", "resolve_neg", "conj_physical"):
    _METHODS[_name] = _self


@property
def _real(input):
    return input


@property
def _imag(input):
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


@property
def _output_nr(input):
    return 0


@property
def _names(input):
    return (None,) * input.dim()


# ---- products ----

def _scaled(input, prod, beta, alpha):
    # self must broadcast to the product's shape (PyTorch expands it)
    ps, ss = tuple(prod.shape), tuple(input.shape)
    if len(ss) > len(ps) or any(s != 1 and s != p for s, p in zip(ss[::-1], ps[::-1])):
        bad = next((len(ps) - 1 - i, s, p) for i, (s, p) in enumerate(zip(ss[::-1], ps[::-1]))
                   if s != 1 and s != p) if len(ss) <= len(ps) else (0, ss[0], ps[0])
        raise RuntimeError(f"The expanded size of the tensor ({bad[2]}) must match the existing "
                           f"size ({bad[1]}) at non-singleton dimension {bad[0]}.  Target sizes: "
                           f"{list(ps)}.  Tensor sizes: {list(ss)}")
    out = prod if alpha == 1 else prod * alpha
    if beta == 0:
        return out
    return out + (input if beta == 1 else input * beta)


@_method
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    _need_tensor("addmm", ("input", 1, input), ("mat1", 2, mat1), ("mat2", 3, mat2))
    return _scaled(input, mat1 @ mat2, beta, alpha)


@_method
def addmv(input, mat, vec, *, beta=1, alpha=1):
    return _scaled(input, mat @ vec, beta, alpha)


@_method
def addr(input, vec1, vec2, *, beta=1, alpha=1):
    return _scaled(input, torch.outer(vec1, vec2), beta, alpha)


@_method
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return _scaled(input, torch.bmm(batch1, batch2).sum(0), beta, alpha)


@_method
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return _scaled(input, torch.bmm(batch1, batch2), beta, alpha)


@_method
def vdot(input, other):
    return torch.dot(input, other)


@_method
def matrix_power(input, n):
    if n < 0:
        raise RuntimeError("nndb: matrix_power with a negative exponent needs inverse(), "
                           "which nndb's engine does not have")
    size = input.shape[-1]
    result = torch.eye(size, dtype=input.dtype).expand(input.shape).clone() if n == 0 else None
    base = input
    while n > 0:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if n:
            base = base @ base
    return result


@_method
def kron(input, other):
    _need_tensor("kron", ("input", 1, input), ("other", 2, other))
    a, b = input, other
    nd = max(a.dim(), b.dim())
    a = a.reshape((1,) * (nd - a.dim()) + tuple(a.shape))
    b = b.reshape((1,) * (nd - b.dim()) + tuple(b.shape))
    # a[i, j] * b[k, l] at (i*K + k, j*L + l): interleave the dims, then merge
    inter_a, inter_b = [], []
    for d in range(nd):
        inter_a += [a.shape[d], 1]
        inter_b += [1, b.shape[d]]
    prod = a.reshape(inter_a) * b.reshape(inter_b)
    return prod.reshape([a.shape[d] * b.shape[d] for d in range(nd)])


def _need_tensor(fname, *named):
    """PyTorch's TypeError for the first of (name, position, value) that is
    not a tensor (the positions of the torch.NAME form)."""
    for name, pos, value in named:
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be Tensor, "
                            f"not {type(value).__name__}")


@_method
def cross(input, other, dim=None):
    _need_tensor("cross", ("input", 1, input), ("other", 2, other))
    if dim is None:
        dim = next((d for d in range(input.dim()) if input.shape[d] == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    d = dim % max(input.dim(), 1)
    if input.dim() != other.dim() or input.shape[d] != 3 or other.shape[d] != 3:
        a = input.shape[d] if input.dim() else 1
        b = other.shape[d] if d < other.dim() else 1
        raise RuntimeError(f"linalg.cross: inputs dimension {d} must have length 3. Got {a} "
                           f"and {b}")
    a0, a1, a2 = input.unbind(dim)
    b0, b1, b2 = other.unbind(dim)
    return torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim)


@_method
def dist(input, other, p=2):
    _need_tensor("dist", ("input", 1, input), ("other", 2, other))
    return (input - other).norm(p)


# ---- element-wise math ----

@_method
def asinh(input):
    return _in_double(input, lambda x: torch.where(
        x < 0, -torch.log(-x + torch.sqrt(x * x + 1)), torch.log(x + torch.sqrt(x * x + 1))))


@_method
def acosh(input):
    return _in_double(input, lambda x: torch.log(x + torch.sqrt(x * x - 1)))


@_method
def atanh(input):
    return _in_double(input, lambda x: 0.5 * (torch.log1p(x) - torch.log1p(-x)))


@_method
def storage(self):
    """storage() -> torch.TypedStorage

    The flat memory this tensor views: every element of it, from the first,
    whatever the tensor's shape, strides and offset; views of one tensor
    share it, and writing to it writes the tensor.

    >>> x = torch.arange(4.)
    >>> x[2:].storage().data_ptr() == x.storage().data_ptr()
    True
    >>> x.t().storage().tolist()
    [0.0, 1.0, 2.0, 3.0]
    """
    return torch.storage.TypedStorage._of(self)


@_method
def storage_type(self):
    """storage_type() -> type

    The legacy storage class of this tensor's dtype.

    >>> torch.zeros(2).storage_type()
    <class 'torch.FloatStorage'>
    """
    return torch.storage._BY_DTYPE[self.dtype]


_METHODS["arcsinh"] = asinh
_METHODS["arccosh"] = acosh
_METHODS["arctanh"] = atanh


@_method
def deg2rad(input):
    return _float_like(input) * (math.pi / 180.0)


@_method
def rad2deg(input):
    return _float_like(input) * (180.0 / math.pi)


@_method
def exp2(input):
    return _in_double(input, lambda x: torch.pow(2.0, x))


@_method
def erfc(input):
    return _in_double(input, lambda x: 1.0 - torch.erf(x))


@_method
def logaddexp(input, other):
    def f(a):
        b = other.double() if isinstance(other, torch.Tensor) else other
        m = torch.maximum(a, b) if isinstance(b, torch.Tensor) else a.clamp(min=b)
        r = m + torch.log1p(torch.exp(-(a - b).abs()))
        # ATen: two equal infinities give that infinity (not inf - inf = NaN)
        return torch.where(torch.isinf(a) & (a == b), a, r)
    return _in_double(input, f)


@_method
def logaddexp2(input, other):
    ln2 = math.log(2.0)
    return (input * ln2).logaddexp(other * ln2) / ln2


@_method
def xlogy(input, other):
    x = _float_like(input)
    y = other if isinstance(other, torch.Tensor) else torch.tensor(other, dtype=x.dtype)
    return torch.where(x == 0, torch.zeros_like(x), x * torch.log(y))


@_method
def sinc(input):
    def f(x):
        px = x * math.pi
        safe = torch.where(x == 0, torch.ones_like(x), px)
        return torch.where(x == 0, torch.ones_like(x), torch.sin(safe) / safe)
    return _in_double(input, f)


@_method
def logit(input, eps=None):
    def f(x):
        if eps is not None:
            x = x.clamp(eps, 1 - eps)
        return torch.log(x / (1 - x))
    return _in_double(input, f)


_FUNCTIONS = {}


def _lazy_function(name, forward, backward):
    """The autograd.Function [name] over [forward] and [backward], made on
    first use (torch.autograd is not imported yet when this module loads)."""
    fn = _FUNCTIONS.get(name)
    if fn is None:
        fn = _FUNCTIONS[name] = type(name, (torch.autograd.Function,), {
            "forward": staticmethod(forward), "backward": staticmethod(backward)})
        # grad_fn is <MvlgammaBackward0>, PyTorch's name, not <...Backward0Backward>
        fn._backward_cls.__name__ = fn._backward_cls.__qualname__ = name
    return fn


def _mvlgamma_function():
    """mvlgamma's autograd.Function, with PyTorch's backward,
    grad * digamma(args).sum(-1)."""
    return _lazy_function("MvlgammaBackward0", _mvlgamma_forward, _mvlgamma_backward)


def _mvlgamma_forward(ctx, x, args, p):
    ctx.save_for_backward(args)
    lg = args.lgamma()
    total = lg[..., 0]
    for j in range(1, p):  # summed in order, as torch's sum over the last dim of p terms
        total = total + lg[..., j]
    return total.add(float(p * (p - 1)) * math.log(math.pi) * 0.25)


def _mvlgamma_backward(ctx, grad):
    args, = ctx.saved_tensors
    d = args.digamma()
    total = d[..., 0]
    for j in range(1, d.shape[-1]):
        total = total + d[..., j]
    return grad * total, None, None


@_method
def mvlgamma(input, p):
    """mvlgamma(input, p) -> Tensor

    The multivariate log-gamma function of dimension p at each element: the sum
    over j = 1..p of lgamma(x + (1 - j) / 2), plus p * (p - 1) / 4 * log(pi).
    Every element must be greater than (p - 1) / 2. (Tensor.multigammaln is
    the same method.)

    Example::

        >>> torch.mvlgamma(torch.tensor([2.5, 3.0]), 2)
        tensor([0.8570, 1.5502])
    """
    # The multivariate log-gamma of dimension p, as torch composes it: lgamma(x + (1 - j) / 2)
    # summed over j = 1..p, plus p (p - 1) / 4 log(pi).
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    dtype = input.dtype if input.is_floating_point() else _C.get_default_dtype()
    args = torch.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=dtype).add(input.unsqueeze(-1).to(dtype))
    return _mvlgamma_function().apply(input, args, p)


_METHODS["multigammaln"] = mvlgamma


@_method
def isposinf(input):
    return input == math.inf


@_method
def isneginf(input):
    return input == -math.inf


@_method
def isreal(input):
    """isreal(input) -> Tensor

    True where an element is real: every element of a real tensor, and
    the elements of a complex tensor whose imaginary part is 0.

    Example::

        >>> torch.isreal(torch.tensor([1.0, 2.0]))
        tensor([True, True])
        >>> torch.isreal(torch.tensor([1 + 0j, 1 + 2j]))
        tensor([ True, False])
    """
    if input.is_complex():
        return input.imag == 0
    return torch.ones_like(input, dtype=torch.bool)


@_method
def ldexp(input, other):
    """ldexp(input, other, *, out=None) -> Tensor

    input * 2 ** other, elementwise and broadcast (other usually integers):
    the inverse of frexp.

    Example::

        >>> torch.ldexp(torch.tensor([1.0, 0.75]), torch.tensor([3, 2]))
        tensor([8., 3.])
    """
    # self * 2**other, composed as torch 1.13 composes it.
    return input * torch.pow(2.0, other)


@_method
def nextafter(input, other):
    """nextafter(input, other, *, out=None) -> Tensor

    The next representable float after each element of input in the direction
    of other (broadcast): the smallest step the dtype can take. Not
    differentiable.

    Example::

        >>> torch.nextafter(torch.tensor([1.0, 1.0]), torch.tensor([2.0, 0.0])) - 1
        tensor([ 1.1921e-07, -5.9605e-08])
    """
    # The next float after self towards other (NumPy's nextafter, which is C's); not
    # differentiable, as in torch.
    import numpy as np
    if not input.is_floating_point():
        raise RuntimeError('"nextafter_cpu" not implemented for \'%s\'' % (
            str(input.dtype).split(".")[1].capitalize()))
    other = other if isinstance(other, torch.Tensor) else torch.tensor(other, dtype=input.dtype)
    a, b = torch.broadcast_tensors(input.detach(), other.detach().to(input.dtype))
    # np.array: nextafter of 0-d arrays gives a numpy scalar, which from_numpy refuses
    return torch.from_numpy(np.array(np.nextafter(a.contiguous().numpy(), b.contiguous().numpy())))


@_method
def hypot(input, other):
    _need_tensor("hypot", ("input", 1, input), ("other", 2, other))
    return _in_double(input, lambda x: torch.sqrt(x * x + other.double() ** 2))


@_method
def copysign(input, other):
    x = _float_like(input)
    neg = torch.signbit(other) if isinstance(other, torch.Tensor) else \
        torch.tensor(math.copysign(1.0, other) < 0)
    return torch.where(neg, -x.abs(), x.abs())


@_method
def signbit(input):
    if not input.is_floating_point():
        return input < 0
    # -0.0 has its sign bit set: 1 / -0.0 is -inf
    return (input < 0) | ((input == 0) & (1.0 / input < 0))


@_method
def heaviside(input, values):
    """heaviside(input, values) -> Tensor

    The Heaviside step function of each element: 0 where input < 0, 1 where
    input > 0, and values (broadcast) where input is 0.

    Example::

        >>> torch.heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([0.5]))
        tensor([0.0000, 0.5000, 1.0000])
    """
    values = values if isinstance(values, torch.Tensor) else torch.tensor(values)
    dtype = torch.result_type(input, values)
    return torch.where(input == 0, values.to(dtype), (input > 0).to(dtype))


@_method
def fmax(input, other):
    return torch.where(torch.isnan(other), input,
                       torch.where(torch.isnan(input), other, torch.maximum(input, other)))


@_method
def fmin(input, other):
    return torch.where(torch.isnan(other), input,
                       torch.where(torch.isnan(input), other, torch.minimum(input, other)))


@_method
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    z = torch.where(torch.isnan(input), torch.zeros_like(input), input)
    r = z.sum() if dim is None else z.sum(dim, keepdim=keepdim)
    return r if dtype is None else r.to(dtype)


@_method
def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    ok = ~torch.isnan(input)
    z = torch.where(ok, input, torch.zeros_like(input))
    if dim is None:
        r = z.sum() / ok.sum()
    else:
        r = z.sum(dim, keepdim=keepdim) / ok.sum(dim, keepdim=keepdim)
    return r if dtype is None else r.to(dtype)


class _frexp(collections.namedtuple("frexp", ["mantissa", "exponent"])):
    __module__ = "torch.return_types"
    __slots__ = ()

    def __repr__(self):
        return (f"torch.return_types.frexp(\nmantissa={self.mantissa!r},\n"
                f"exponent={self.exponent!r})")


@_method
def frexp(input):
    """frexp(input, *, out=None) -> (Tensor mantissa, Tensor exponent)

    Split each float into mantissa * 2 ** exponent with 0.5 <= |mantissa| < 1
    (C's frexp), as a named tuple; exponent is int32. 0, inf and nan give
    themselves and exponent 0.

    Example::

        >>> torch.frexp(torch.tensor([8.0, 0.75, -3.0]))
        torch.return_types.frexp(
        mantissa=tensor([ 0.5000,  0.7500, -0.7500]),
        exponent=tensor([4, 0, 2], dtype=torch.int32))
    """
    # mantissa * 2**exponent == self, 0.5 <= |mantissa| < 1 (C's frexp, element by element
    # through Python's math.frexp, so the bits are C's): exponent int32; 0, inf and NaN give
    # themselves and exponent 0. The mantissa's gradient is PyTorch's, grad / 2**exponent.
    if not input.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    x = input.detach()
    pairs = [math.frexp(v) if math.isfinite(v) else (v, 0) for v in x.reshape(-1).tolist()]
    m = torch.tensor([p[0] for p in pairs], dtype=x.dtype).reshape(x.shape)
    e = torch.tensor([p[1] for p in pairs], dtype=torch.int32).reshape(x.shape)
    if input.requires_grad and torch.is_grad_enabled():
        m = _frexp_function().apply(input, m, e)
    return _frexp(m, e)


# frexp's mantissa has PyTorch's gradient grad / exp2(exponent)
def _frexp_forward(ctx, x, m, e):
    ctx.save_for_backward(e)
    return m.clone()


def _frexp_backward(ctx, grad):
    (e,) = ctx.saved_tensors
    return grad / torch.exp2(e.to(grad.dtype)), None, None


def _frexp_function():
    return _lazy_function("FrexpBackward0", _frexp_forward, _frexp_backward)


# ---- scans ----

def _cummax(values, indices):
    return _C._return_types["cummax"]((values, indices))


def _cummin(values, indices):
    return _C._return_types["cummin"]((values, indices))


class _aminmax(collections.namedtuple("aminmax", ["min", "max"])):
    __module__ = "torch.return_types"
    __slots__ = ()

    def __repr__(self):
        return f"torch.return_types.aminmax(\nmin={self.min!r},\nmax={self.max!r})"


@_method
def aminmax(input, *, dim=None, keepdim=False):
    if dim is None:
        return _aminmax(input.amin(), input.amax())
    if input.dim() == 0 and keepdim:
        return _aminmax(input.amin(dim).reshape(1), input.amax(dim).reshape(1))
    return _aminmax(input.amin(dim, keepdim), input.amax(dim, keepdim))


def _cum_extreme(input, dim, better, kind):
    dim = dim % max(input.dim(), 1)
    if input.dim() == 0:
        return kind(input.clone(), torch.zeros((), dtype=torch.int64))
    n = input.shape[dim]
    vals, idxs = [], []
    best = input.select(dim, 0)
    best_i = torch.zeros(best.shape, dtype=torch.int64)
    for i in range(n):
        cur = input.select(dim, i)
        if i:
            take = better(cur, best) | torch.isnan(cur)
            best = torch.where(take, cur, best)
            best_i = torch.where(take, torch.full(best_i.shape, i, dtype=torch.int64), best_i)
        vals.append(best)
        idxs.append(best_i)
    return kind(torch.stack(vals, dim), torch.stack(idxs, dim))


@_method
def cummax(input, dim):
    return _cum_extreme(input, dim, lambda a, b: a >= b, _cummax)


@_method
def cummin(input, dim):
    return _cum_extreme(input, dim, lambda a, b: a <= b, _cummin)


def _logcumsumexp_value(x, dim):
    # PyTorch's kernel: a scan along dim in double, each step
    # log1p(exp(min - max)) + max of the running value and the next
    # element (the next element itself where both are the same infinity).
    # One max for the whole dim, as this once took, loses the early sums
    # to underflow when the values are far apart ([0, 0, 1000]).
    def f(x):
        if x.dim() == 0:
            return x.clone()
        xs = x.movedim(dim, 0)
        out = torch.empty_like(xs)
        cum = torch.full_like(xs[0], -math.inf)
        for i in range(xs.shape[0]):
            xi = xs[i]
            lo, hi = torch.minimum(xi, cum), torch.maximum(xi, cum)
            cum = torch.where((lo != hi) | torch.isfinite(lo), torch.log1p(torch.exp(lo - hi)) + hi,
                              xi)
            out[i] = cum
        return out.movedim(0, dim)
    return _in_double(x, f)


def _logcumsumexp_function():
    return _lazy_function("LogcumsumexpBackward0", _lcse_forward, _lcse_backward)



# logcumsumexp: the value accumulated in double (PyTorch's kernel
# accumulates float in double too); the gradient by PyTorch 1.13's formula
# (logcumsumexp_backward, after TensorFlow's): the positive and negative
# parts of grad through reverse log-cum-sum-exps, each step in the tensor's
# dtype, so float32 rounds as PyTorch's does.
def _lcse_forward(ctx, x, dim):
    y = _logcumsumexp_value(x, dim)
    ctx.save_for_backward(x, y)
    ctx.dim = dim
    return y


def _lcse_backward(ctx, grad):
    x, y = ctx.saved_tensors
    dim = ctx.dim
    if grad.dim() == 0 or grad.numel() == 0:
        return grad, None
    lowest = torch.full((), torch.finfo(grad.dtype).min, dtype=grad.dtype)
    log_abs = grad.abs().log()
    pos = torch.where(grad > 0, log_abs, lowest)
    neg = torch.where(grad < 0, log_abs, lowest)

    def reverse(t):
        return _logcumsumexp_value(t.flip(dim), dim).flip(dim)
    return (reverse(pos - y) + x).exp() - (reverse(neg - y) + x).exp(), None


@_method
def logcumsumexp(input, dim):
    if input.requires_grad and torch.is_grad_enabled():
        return _logcumsumexp_function().apply(input, dim)
    return _logcumsumexp_value(input, dim)


@_method
def diff(input, n=1, dim=-1, prepend=None, append=None):
    x = input
    if n == 0:
        return input
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, x, append) if p is not None]
        x = torch.cat(parts, dim)
    for _ in range(n):
        m = x.shape[dim]
        if m == 0:
            break
        a, b = x.narrow(dim, 1, m - 1), x.narrow(dim, 0, m - 1)
        x = (a != b) if x.dtype == torch.bool else a - b
    return x


# ---- shapes ----

@_method
def moveaxis(input, source, destination):
    return torch.movedim(input, source, destination)


@_method
def unfold(input, dimension, size, step):
    """unfold(dimension, size, step) -> Tensor

    Sliding windows of length size taken every step elements along dimension,
    as a view: that dimension becomes the number of windows and a new last
    dimension of length size holds each window. (Not torch.nn.functional.unfold,
    which extracts image patches.)

    Example::

        >>> torch.arange(7).unfold(0, 3, 2)
        tensor([[0, 1, 2],
                [2, 3, 4],
                [4, 5, 6]])
    """
    if input.dim() == 0:
        return input.reshape(1)
    n = (input.shape[dimension] - size) // step + 1
    if n < 1:
        raise RuntimeError(f"maximum size for tensor at dimension {dimension % input.dim()} is "
                           f"{input.shape[dimension]} but size is {size}")
    dimension %= input.dim()
    windows = [input.narrow(dimension, i * step, size) for i in range(n)]
    return torch.stack(windows, dimension).movedim(dimension + 1, -1)


@_method
def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    # PyTorch's overloads name the second argument sections, indices or
    # tensor_indices_or_sections; NumPy's name is indices_or_sections
    for alt in (sections, indices, tensor_indices_or_sections):
        if alt is not None:
            indices_or_sections = alt
    if indices_or_sections is None:
        raise TypeError("tensor_split() missing required argument 'sections' (pos 2)")
    size = input.shape[dim]
    if isinstance(indices_or_sections, torch.Tensor):
        if indices_or_sections.dim() > 1 or indices_or_sections.is_floating_point():
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor with "
                               f"{indices_or_sections.dim()} dims")
        indices_or_sections = indices_or_sections.item() if indices_or_sections.dim() == 0 \
            else indices_or_sections.tolist()
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        q, r = divmod(size, n)
        bounds, start = [], 0
        for i in range(n):
            step = q + (1 if i < r else 0)
            bounds.append((start, start + step))
            start += step
    else:
        cuts = [int(i) for i in indices_or_sections]
        edges = [0] + [min(max(c, 0), size) for c in cuts] + [size]
        bounds = [(edges[i], max(edges[i], edges[i + 1])) for i in range(len(edges) - 1)]
    return tuple(input.narrow(dim, a, b - a) for a, b in bounds)


def _split_at(input, sections, dim, name, min_dim):
    if input.dim() < min_dim:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dim} "
                           f"dimension{'s' if min_dim > 1 else ''}, but got a tensor with "
                           f"{input.dim()} dimensions!")
    return input.tensor_split(sections, dim)


@_method
def hsplit(input, sections):
    return _split_at(input, sections, 1 if input.dim() > 1 else 0, "hsplit", 1)


@_method
def vsplit(input, sections):
    return _split_at(input, sections, 0, "vsplit", 2)


@_method
def dsplit(input, sections):
    return _split_at(input, sections, 2, "dsplit", 3)


@_method
def split_with_sizes(input, split_sizes, dim=0):
    return input.split(list(split_sizes), dim)


@_method
def rot90(input, k=1, dims=(0, 1)):
    d0, d1 = dims
    k %= 4
    if k == 1:
        return input.flip(d1).transpose(d0, d1)
    if k == 2:
        return input.flip(d0).flip(d1)
    if k == 3:
        return input.flip(d0).transpose(d0, d1)
    return input.clone()


@_method
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    n = input.shape[-1] + abs(offset)
    eye = torch.eye(n, dtype=input.dtype)
    if offset:
        eye = eye.roll(offset, 1) if offset > 0 else eye.roll(-offset, 0)
        keep = torch.ones(n, dtype=input.dtype)
        keep[n - abs(offset):] = 0
        eye = eye * (keep.unsqueeze(0) if offset < 0 else keep.unsqueeze(1))
    vals = torch.cat([input, torch.zeros(tuple(input.shape[:-1]) + (abs(offset),),
                                        dtype=input.dtype)], -1) if offset else input
    src = vals.unsqueeze(-1) if offset >= 0 else vals.unsqueeze(-2)
    out = src * eye
    if (dim1 % out.dim(), dim2 % out.dim()) != (out.dim() - 2, out.dim() - 1):
        out = out.movedim((-2, -1), (dim1, dim2))
    return out


@_method
def diagflat(input, offset=0):
    return torch.diag(input.reshape(-1), offset)


@_method
def sum_to_size(input, *size):
    if len(size) == 1 and not isinstance(size[0], int):
        size = tuple(size[0])
    lead = input.dim() - len(size)
    r = input.sum(tuple(range(lead))) if lead > 0 else input
    dims = tuple(d for d, s in enumerate(size) if s == 1 and r.shape[d] != 1)
    return r.sum(dims, keepdim=True) if dims else r


# ---- indexed reads and writes ----

@_method
def take(input, index):
    _need_tensor("take", ("input", 1, input), ("index", 2, index))
    return input.reshape(-1)[index]


@_method
def take_along_dim(input, indices, dim=None):
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    dim = dim % max(input.dim(), 1)
    shape = torch.broadcast_shapes(input.shape[:dim] + (1,) + input.shape[dim + 1:],
                                   indices.shape[:dim] + (1,) + indices.shape[dim + 1:])
    x = input.expand(shape[:dim] + (input.shape[dim],) + shape[dim + 1:])
    i = indices.expand(shape[:dim] + (indices.shape[dim],) + shape[dim + 1:])
    return torch.gather(x, dim, i)


def _put(input, index, source, accumulate):
    n = input.numel()
    pos = index.reshape(-1)
    if pos.numel() and (int(pos.min()) < -n or int(pos.max()) >= n):
        bad = int(pos.min()) if int(pos.min()) < -n else int(pos.max())
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                         "elements.")
    pos = torch.where(pos < 0, pos + n, pos)
    src = source.reshape(-1).to(input.dtype)
    flat = input.reshape(-1)
    out = flat.index_add(0, pos, src) if accumulate else flat.scatter(0, pos, src)
    return out.reshape(input.shape)


@_method
def put_(input, index, source, accumulate=False):
    input[...] = _put(input, index, source, accumulate)
    return input


@_method
def put(input, index, source, accumulate=False):
    return _put(input, index, source, accumulate)


@_method
def index_fill_(input, dim, index, value):
    if input.dim() == 0:
        input[...] = value
        return input
    input[_dim_index(input, dim, index.reshape(-1))] = value
    return input


@_method
def index_fill(input, dim, index, value):
    return input.clone().index_fill_(dim, index, value)


@_method
def index_copy_(input, dim, index, source):
    if input.dim() == 0:
        input[...] = source.reshape(())
        return input
    input[_dim_index(input, dim, index.reshape(-1))] = source
    return input


@_method
def index_copy(input, dim, index, source):
    return input.clone().index_copy_(dim, index, source)


def _index_add_src(input, dim, index, source, alpha):
    dim = dim % max(input.dim(), 1)
    src = source if alpha == 1 else source * alpha
    if input.dim() == 0:
        return 0, index.reshape(-1), src.reshape(1).expand(index.numel())
    shape = [1] * input.dim()
    shape[dim] = index.numel()
    idx = index.reshape(shape).expand(src.shape)
    return dim, idx, src.to(input.dtype)


@_method
def index_add_(input, dim, index, source, *, alpha=1):
    dim, idx, src = _index_add_src(input, dim, index, source, alpha)
    if input.dim() == 0:
        input[...] = input + src.sum()
        return input
    try:
        return input.scatter_add_(dim, idx, src)
    except RuntimeError as e:
        raise _index_error(e) from None


@_method
def index_add(input, dim, index, source, *, alpha=1):
    dim, idx, src = _index_add_src(input, dim, index, source, alpha)
    try:
        if input.dim() == 0:
            return input.reshape(1).scatter_add(0, idx, src).reshape(())
        return input.scatter_add(dim, idx, src)
    except RuntimeError as e:
        raise _index_error(e) from None


def _index_error(e):
    # index_add's words for an index out of bounds, as PyTorch's
    return IndexError("index out of range in self") if "out of bounds" in str(e) else e


# ---- Python callbacks ----

@_method
def apply_(input, callable):
    """apply_(callable) -> Tensor

    Replace each element of self by callable(element), in place, calling the
    Python function once per element: slow, CPU tensors only, and not recorded
    by autograd; returns self. Prefer tensor operations.

    Example::

        >>> torch.tensor([1.0, 2.0, 3.0]).apply_(lambda v: v * 10 + 1)
        tensor([11., 21., 31.])
    """
    values = [callable(v) for v in input.reshape(-1).tolist()]
    with torch.no_grad():
        input.copy_(torch.tensor(values, dtype=input.dtype).reshape(input.shape))
    return input


@_method
def map_(input, tensor, callable):
    """map_(tensor, callable) -> Tensor

    self[i] = callable(self[i], tensor[i]) for each element, in place, with
    tensor broadcast to self's shape; one Python call per element (slow, CPU
    only); returns self.

    Example::

        >>> torch.tensor([1.0, 2.0]).map_(torch.tensor([10.0, 20.0]), lambda a, b: a + b)
        tensor([11., 22.])
    """
    other = tensor.expand(input.shape).reshape(-1).tolist()
    values = [callable(a, b) for a, b in zip(input.reshape(-1).tolist(), other)]
    with torch.no_grad():
        input.copy_(torch.tensor(values, dtype=input.dtype).reshape(input.shape))
    return input


# ---- in-place spellings torch accepts as aliases ----

_ALIASES_ = {
    "absolute_": "abs_", "arccos_": "acos_", "arcsin_": "asin_", "arctan_": "atan_",
    "arctan2_": "atan2_", "fix_": "trunc_", "greater_": "gt_", "greater_equal_": "ge_",
    "less_": "lt_", "less_equal_": "le_", "negative_": "neg_", "not_equal_": "ne_",
    "sgn_": "sign_", "swapaxes_": "transpose_", "swapdims_": "transpose_",
}

_INPLACE_OF = ("asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg",
               "exp2", "erfc", "logit", "sinc", "hypot", "mvlgamma", "ldexp", "nextafter", "copysign", "xlogy", "heaviside",
               "addmm", "addmv", "addr", "addbmm", "baddbmm")


def _inplace(name):
    def method(self, *args, **kwargs):
        return self.copy_(getattr(self, name)(*args, **kwargs))
    method.__name__ = name + "_"
    return method


def install(cls):
    base = _C._TensorBase
    for name, fn in _METHODS.items():
        if not hasattr(base, name):
            setattr(cls, name, fn)
    for alias, target in _ALIASES_.items():
        if not hasattr(base, alias) and hasattr(cls, target):
            setattr(cls, alias, getattr(cls, target))
    for name in _INPLACE_OF:
        if not hasattr(base, name + "_") and hasattr(cls, name):
            setattr(cls, name + "_", _inplace(name))
    if not hasattr(cls, "__rdiv__"):
        cls.__rdiv__ = lambda self, other: self.reciprocal() * other
    for name, prop in (("real", _real), ("imag", _imag), ("output_nr", _output_nr),
                       ("names", _names)):
        if not hasattr(base, name):
            setattr(cls, name, prop)


# torch.NAME(input, ...) for these methods, where torch has the function
# and torch._C does not.
TORCH_FUNCTIONS = (
    "is_complex", "is_nonzero", "is_same_size", "is_signed", "conj", "resolve_conj", "resolve_neg",
    "conj_physical", "addmm", "addmv", "addr", "addbmm", "baddbmm", "vdot", "matrix_power",
    "kron", "cross", "dist", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh",
    "deg2rad", "rad2deg", "exp2", "erfc", "logaddexp", "logaddexp2", "xlogy", "sinc", "logit",
    "hypot", "copysign", "signbit", "heaviside", "fmax", "fmin", "nansum", "nanmean", "cummax",
    "cummin", "logcumsumexp", "diff", "moveaxis", "tensor_split", "hsplit", "vsplit", "dsplit",
    "split_with_sizes", "rot90", "diag_embed", "diagflat", "take", "take_along_dim", "put",
    "index_fill", "index_copy", "index_add", "aminmax", "mvlgamma", "isposinf", "isneginf",
    "isreal", "ldexp", "nextafter", "frexp",
)


def real(input):
    return input.real


def imag(input):
    return input.imag

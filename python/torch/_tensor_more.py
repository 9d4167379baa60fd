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
def is_complex(self):
    return False


@_method
def is_signed(self):
    return self.dtype.is_signed


@_method
def is_nonzero(self):
    n = self.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(self.item() != 0)


@_method
def is_same_size(self, other):
    return tuple(self.shape) == tuple(other.shape)


@_method
def is_inference(self):
    return False


@_method
def is_pinned(self, device=None):
    return False


@_method
def is_shared(self):
    return False


@_method
def is_neg(self):
    return False


@_method
def is_conj(self):
    return False


@_method
def get_device(self):
    return -1


@_method
def pin_memory(self, device=None):
    return self


@_method
def share_memory_(self):
    return self


def _self(self):
    return self


for _name in ("conj", "resolve_conj", "resolve_neg", "conj_physical"):
    _METHODS[_name] = _self


@property
def _real(self):
    return self


@property
def _imag(self):
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


@property
def _output_nr(self):
    return 0


@property
def _names(self):
    return (None,) * self.dim()


# ---- products ----

def _scaled(self, prod, beta, alpha):
    # self must broadcast to the product's shape (PyTorch expands it)
    ps, ss = tuple(prod.shape), tuple(self.shape)
    if len(ss) > len(ps) or any(s != 1 and s != p for s, p in zip(ss[::-1], ps[::-1])):
        bad = next((len(ps) - 1 - i, s, p) for i, (s, p) in enumerate(zip(ss[::-1], ps[::-1]))
                   if s != 1 and s != p) if len(ss) <= len(ps) else (0, ss[0], ps[0])
        raise RuntimeError(f"The expanded size of the tensor ({bad[2]}) must match the existing "
                           f"size ({bad[1]}) at non-singleton dimension {bad[0]}.  Target sizes: "
                           f"{list(ps)}.  Tensor sizes: {list(ss)}")
    out = prod if alpha == 1 else prod * alpha
    if beta == 0:
        return out
    return out + (self if beta == 1 else self * beta)


@_method
def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return _scaled(self, mat1 @ mat2, beta, alpha)


@_method
def addmv(self, mat, vec, *, beta=1, alpha=1):
    return _scaled(self, mat @ vec, beta, alpha)


@_method
def addr(self, vec1, vec2, *, beta=1, alpha=1):
    return _scaled(self, torch.outer(vec1, vec2), beta, alpha)


@_method
def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    return _scaled(self, torch.bmm(batch1, batch2).sum(0), beta, alpha)


@_method
def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    return _scaled(self, torch.bmm(batch1, batch2), beta, alpha)


@_method
def vdot(self, other):
    return torch.dot(self, other)


@_method
def matrix_power(self, n):
    if n < 0:
        raise RuntimeError("nndb: matrix_power with a negative exponent needs inverse(), "
                           "which nndb's engine does not have")
    size = self.shape[-1]
    result = torch.eye(size, dtype=self.dtype).expand(self.shape).clone() if n == 0 else None
    base = self
    while n > 0:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if n:
            base = base @ base
    return result


@_method
def kron(self, other):
    a, b = self, other
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


@_method
def cross(self, other, dim=None):
    if dim is None:
        dim = next(d for d in range(self.dim()) if self.shape[d] == 3)
    a0, a1, a2 = self.unbind(dim)
    b0, b1, b2 = other.unbind(dim)
    return torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim)


@_method
def dist(self, other, p=2):
    return (self - other).norm(p)


# ---- element-wise math ----

@_method
def asinh(self):
    return _in_double(self, lambda x: torch.where(
        x < 0, -torch.log(-x + torch.sqrt(x * x + 1)), torch.log(x + torch.sqrt(x * x + 1))))


@_method
def acosh(self):
    return _in_double(self, lambda x: torch.log(x + torch.sqrt(x * x - 1)))


@_method
def atanh(self):
    return _in_double(self, lambda x: 0.5 * (torch.log1p(x) - torch.log1p(-x)))


_METHODS["arcsinh"] = asinh
_METHODS["arccosh"] = acosh
_METHODS["arctanh"] = atanh


@_method
def deg2rad(self):
    return _float_like(self) * (math.pi / 180.0)


@_method
def rad2deg(self):
    return _float_like(self) * (180.0 / math.pi)


@_method
def exp2(self):
    return _in_double(self, lambda x: torch.pow(2.0, x))


@_method
def erfc(self):
    return _in_double(self, lambda x: 1.0 - torch.erf(x))


@_method
def logaddexp(self, other):
    def f(a):
        b = other.double() if isinstance(other, torch.Tensor) else other
        m = torch.maximum(a, b) if isinstance(b, torch.Tensor) else a.clamp(min=b)
        r = m + torch.log1p(torch.exp(-(a - b).abs()))
        # ATen: two equal infinities give that infinity (not inf - inf = NaN)
        return torch.where(torch.isinf(a) & (a == b), a, r)
    return _in_double(self, f)


@_method
def logaddexp2(self, other):
    ln2 = math.log(2.0)
    return (self * ln2).logaddexp(other * ln2) / ln2


@_method
def xlogy(self, other):
    x = _float_like(self)
    y = other if isinstance(other, torch.Tensor) else torch.tensor(other, dtype=x.dtype)
    return torch.where(x == 0, torch.zeros_like(x), x * torch.log(y))


@_method
def sinc(self):
    def f(x):
        px = x * math.pi
        safe = torch.where(x == 0, torch.ones_like(x), px)
        return torch.where(x == 0, torch.ones_like(x), torch.sin(safe) / safe)
    return _in_double(self, f)


@_method
def logit(self, eps=None):
    def f(x):
        if eps is not None:
            x = x.clamp(eps, 1 - eps)
        return torch.log(x / (1 - x))
    return _in_double(self, f)


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
def mvlgamma(self, p):
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
    dtype = self.dtype if self.is_floating_point() else _C.get_default_dtype()
    args = torch.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=dtype).add(self.unsqueeze(-1).to(dtype))
    return _mvlgamma_function().apply(self, args, p)


_METHODS["multigammaln"] = mvlgamma


@_method
def isposinf(self):
    return self == math.inf


@_method
def isneginf(self):
    return self == -math.inf


@_method
def isreal(self):
    """isreal(input) -> Tensor

    True where an element is real: every element of a real tensor, and
    the elements of a complex tensor whose imaginary part is 0.

    Example::

        >>> torch.isreal(torch.tensor([1.0, 2.0]))
        tensor([True, True])
        >>> torch.isreal(torch.tensor([1 + 0j, 1 + 2j]))
        tensor([ True, False])
    """
    if self.is_complex():
        return self.imag == 0
    return torch.ones_like(self, dtype=torch.bool)


@_method
def ldexp(self, other):
    """ldexp(input, other, *, out=None) -> Tensor

    input * 2 ** other, elementwise and broadcast (other usually integers):
    the inverse of frexp.

    Example::

        >>> torch.ldexp(torch.tensor([1.0, 0.75]), torch.tensor([3, 2]))
        tensor([8., 3.])
    """
    # self * 2**other, composed as torch 1.13 composes it.
    return self * torch.pow(2.0, other)


@_method
def nextafter(self, other):
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
    if not self.is_floating_point():
        raise RuntimeError('"nextafter_cpu" not implemented for \'%s\'' % (
            str(self.dtype).split(".")[1].capitalize()))
    other = other if isinstance(other, torch.Tensor) else torch.tensor(other, dtype=self.dtype)
    a, b = torch.broadcast_tensors(self.detach(), other.detach().to(self.dtype))
    # np.array: nextafter of 0-d arrays gives a numpy scalar, which from_numpy refuses
    return torch.from_numpy(np.array(np.nextafter(a.contiguous().numpy(), b.contiguous().numpy())))


@_method
def hypot(self, other):
    return _in_double(self, lambda x: torch.sqrt(x * x + other.double() ** 2))


@_method
def copysign(self, other):
    x = _float_like(self)
    neg = torch.signbit(other) if isinstance(other, torch.Tensor) else \
        torch.tensor(math.copysign(1.0, other) < 0)
    return torch.where(neg, -x.abs(), x.abs())


@_method
def signbit(self):
    if not self.is_floating_point():
        return self < 0
    # -0.0 has its sign bit set: 1 / -0.0 is -inf
    return (self < 0) | ((self == 0) & (1.0 / self < 0))


@_method
def heaviside(self, values):
    """heaviside(input, values) -> Tensor

    The Heaviside step function of each element: 0 where input < 0, 1 where
    input > 0, and values (broadcast) where input is 0.

    Example::

        >>> torch.heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([0.5]))
        tensor([0.0000, 0.5000, 1.0000])
    """
    values = values if isinstance(values, torch.Tensor) else torch.tensor(values)
    dtype = torch.result_type(self, values)
    return torch.where(self == 0, values.to(dtype), (self > 0).to(dtype))


@_method
def fmax(self, other):
    return torch.where(torch.isnan(other), self,
                       torch.where(torch.isnan(self), other, torch.maximum(self, other)))


@_method
def fmin(self, other):
    return torch.where(torch.isnan(other), self,
                       torch.where(torch.isnan(self), other, torch.minimum(self, other)))


@_method
def nansum(self, dim=None, keepdim=False, *, dtype=None):
    z = torch.where(torch.isnan(self), torch.zeros_like(self), self)
    r = z.sum() if dim is None else z.sum(dim, keepdim=keepdim)
    return r if dtype is None else r.to(dtype)


@_method
def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    ok = ~torch.isnan(self)
    z = torch.where(ok, self, torch.zeros_like(self))
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
def frexp(self):
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
    if not self.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    x = self.detach()
    pairs = [math.frexp(v) if math.isfinite(v) else (v, 0) for v in x.reshape(-1).tolist()]
    m = torch.tensor([p[0] for p in pairs], dtype=x.dtype).reshape(x.shape)
    e = torch.tensor([p[1] for p in pairs], dtype=torch.int32).reshape(x.shape)
    if self.requires_grad and torch.is_grad_enabled():
        m = _frexp_function().apply(self, m, e)
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
def aminmax(self, *, dim=None, keepdim=False):
    if dim is None:
        return _aminmax(self.amin(), self.amax())
    if self.dim() == 0 and keepdim:
        return _aminmax(self.amin(dim).reshape(1), self.amax(dim).reshape(1))
    return _aminmax(self.amin(dim, keepdim), self.amax(dim, keepdim))


def _cum_extreme(self, dim, better, kind):
    dim = dim % max(self.dim(), 1)
    if self.dim() == 0:
        return kind(self.clone(), torch.zeros((), dtype=torch.int64))
    n = self.shape[dim]
    vals, idxs = [], []
    best = self.select(dim, 0)
    best_i = torch.zeros(best.shape, dtype=torch.int64)
    for i in range(n):
        cur = self.select(dim, i)
        if i:
            take = better(cur, best) | torch.isnan(cur)
            best = torch.where(take, cur, best)
            best_i = torch.where(take, torch.full(best_i.shape, i, dtype=torch.int64), best_i)
        vals.append(best)
        idxs.append(best_i)
    return kind(torch.stack(vals, dim), torch.stack(idxs, dim))


@_method
def cummax(self, dim):
    return _cum_extreme(self, dim, lambda a, b: a >= b, _cummax)


@_method
def cummin(self, dim):
    return _cum_extreme(self, dim, lambda a, b: a <= b, _cummin)


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
def logcumsumexp(self, dim):
    if self.requires_grad and torch.is_grad_enabled():
        return _logcumsumexp_function().apply(self, dim)
    return _logcumsumexp_value(self, dim)


@_method
def diff(self, n=1, dim=-1, prepend=None, append=None):
    x = self
    if n == 0:
        return self
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
def moveaxis(self, source, destination):
    return torch.movedim(self, source, destination)


@_method
def unfold(self, dimension, size, step):
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
    if self.dim() == 0:
        return self.reshape(1)
    n = (self.shape[dimension] - size) // step + 1
    if n < 1:
        raise RuntimeError(f"maximum size for tensor at dimension {dimension % self.dim()} is "
                           f"{self.shape[dimension]} but size is {size}")
    dimension %= self.dim()
    windows = [self.narrow(dimension, i * step, size) for i in range(n)]
    return torch.stack(windows, dimension).movedim(dimension + 1, -1)


@_method
def tensor_split(self, indices_or_sections, dim=0):
    size = self.shape[dim]
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
    return tuple(self.narrow(dim, a, b - a) for a, b in bounds)


def _split_at(self, sections, dim, name, min_dim):
    if self.dim() < min_dim:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dim} "
                           f"dimension{'s' if min_dim > 1 else ''}, but got a tensor with "
                           f"{self.dim()} dimensions!")
    return self.tensor_split(sections, dim)


@_method
def hsplit(self, sections):
    return _split_at(self, sections, 1 if self.dim() > 1 else 0, "hsplit", 1)


@_method
def vsplit(self, sections):
    return _split_at(self, sections, 0, "vsplit", 2)


@_method
def dsplit(self, sections):
    return _split_at(self, sections, 2, "dsplit", 3)


@_method
def split_with_sizes(self, split_sizes, dim=0):
    return self.split(list(split_sizes), dim)


@_method
def rot90(self, k=1, dims=(0, 1)):
    d0, d1 = dims
    k %= 4
    if k == 1:
        return self.flip(d1).transpose(d0, d1)
    if k == 2:
        return self.flip(d0).flip(d1)
    if k == 3:
        return self.flip(d0).transpose(d0, d1)
    return self.clone()


@_method
def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    n = self.shape[-1] + abs(offset)
    eye = torch.eye(n, dtype=self.dtype)
    if offset:
        eye = eye.roll(offset, 1) if offset > 0 else eye.roll(-offset, 0)
        keep = torch.ones(n, dtype=self.dtype)
        keep[n - abs(offset):] = 0
        eye = eye * (keep.unsqueeze(0) if offset < 0 else keep.unsqueeze(1))
    vals = torch.cat([self, torch.zeros(tuple(self.shape[:-1]) + (abs(offset),),
                                        dtype=self.dtype)], -1) if offset else self
    src = vals.unsqueeze(-1) if offset >= 0 else vals.unsqueeze(-2)
    out = src * eye
    if (dim1 % out.dim(), dim2 % out.dim()) != (out.dim() - 2, out.dim() - 1):
        out = out.movedim((-2, -1), (dim1, dim2))
    return out


@_method
def diagflat(self, offset=0):
    return torch.diag(self.reshape(-1), offset)


@_method
def sum_to_size(self, *size):
    if len(size) == 1 and not isinstance(size[0], int):
        size = tuple(size[0])
    lead = self.dim() - len(size)
    r = self.sum(tuple(range(lead))) if lead > 0 else self
    dims = tuple(d for d, s in enumerate(size) if s == 1 and r.shape[d] != 1)
    return r.sum(dims, keepdim=True) if dims else r


# ---- indexed reads and writes ----

@_method
def take(self, index):
    return self.reshape(-1)[index]


@_method
def take_along_dim(self, indices, dim=None):
    if dim is None:
        return self.reshape(-1).gather(0, indices.reshape(-1))
    dim = dim % max(self.dim(), 1)
    shape = torch.broadcast_shapes(self.shape[:dim] + (1,) + self.shape[dim + 1:],
                                   indices.shape[:dim] + (1,) + indices.shape[dim + 1:])
    x = self.expand(shape[:dim] + (self.shape[dim],) + shape[dim + 1:])
    i = indices.expand(shape[:dim] + (indices.shape[dim],) + shape[dim + 1:])
    return torch.gather(x, dim, i)


def _put(self, index, source, accumulate):
    n = self.numel()
    pos = index.reshape(-1)
    if pos.numel() and (int(pos.min()) < -n or int(pos.max()) >= n):
        bad = int(pos.min()) if int(pos.min()) < -n else int(pos.max())
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                         "elements.")
    pos = torch.where(pos < 0, pos + n, pos)
    src = source.reshape(-1).to(self.dtype)
    flat = self.reshape(-1)
    out = flat.index_add(0, pos, src) if accumulate else flat.scatter(0, pos, src)
    return out.reshape(self.shape)


@_method
def put_(self, index, source, accumulate=False):
    self[...] = _put(self, index, source, accumulate)
    return self


@_method
def put(self, index, source, accumulate=False):
    return _put(self, index, source, accumulate)


@_method
def index_fill_(self, dim, index, value):
    if self.dim() == 0:
        self[...] = value
        return self
    self[_dim_index(self, dim, index.reshape(-1))] = value
    return self


@_method
def index_fill(self, dim, index, value):
    return self.clone().index_fill_(dim, index, value)


@_method
def index_copy_(self, dim, index, source):
    if self.dim() == 0:
        self[...] = source.reshape(())
        return self
    self[_dim_index(self, dim, index.reshape(-1))] = source
    return self


@_method
def index_copy(self, dim, index, source):
    return self.clone().index_copy_(dim, index, source)


def _index_add_src(self, dim, index, source, alpha):
    dim = dim % max(self.dim(), 1)
    src = source if alpha == 1 else source * alpha
    if self.dim() == 0:
        return 0, index.reshape(-1), src.reshape(1).expand(index.numel())
    shape = [1] * self.dim()
    shape[dim] = index.numel()
    idx = index.reshape(shape).expand(src.shape)
    return dim, idx, src.to(self.dtype)


@_method
def index_add_(self, dim, index, source, *, alpha=1):
    dim, idx, src = _index_add_src(self, dim, index, source, alpha)
    if self.dim() == 0:
        self[...] = self + src.sum()
        return self
    try:
        return self.scatter_add_(dim, idx, src)
    except RuntimeError as e:
        raise _index_error(e) from None


@_method
def index_add(self, dim, index, source, *, alpha=1):
    dim, idx, src = _index_add_src(self, dim, index, source, alpha)
    try:
        if self.dim() == 0:
            return self.reshape(1).scatter_add(0, idx, src).reshape(())
        return self.scatter_add(dim, idx, src)
    except RuntimeError as e:
        raise _index_error(e) from None


def _index_error(e):
    # index_add's words for an index out of bounds, as PyTorch's
    return IndexError("index out of range in self") if "out of bounds" in str(e) else e


# ---- Python callbacks ----

@_method
def apply_(self, callable):
    """apply_(callable) -> Tensor

    Replace each element of self by callable(element), in place, calling the
    Python function once per element: slow, CPU tensors only, and not recorded
    by autograd; returns self. Prefer tensor operations.

    Example::

        >>> torch.tensor([1.0, 2.0, 3.0]).apply_(lambda v: v * 10 + 1)
        tensor([11., 21., 31.])
    """
    values = [callable(v) for v in self.reshape(-1).tolist()]
    with torch.no_grad():
        self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))
    return self


@_method
def map_(self, tensor, callable):
    """map_(tensor, callable) -> Tensor

    self[i] = callable(self[i], tensor[i]) for each element, in place, with
    tensor broadcast to self's shape; one Python call per element (slow, CPU
    only); returns self.

    Example::

        >>> torch.tensor([1.0, 2.0]).map_(torch.tensor([10.0, 20.0]), lambda a, b: a + b)
        tensor([11., 22.])
    """
    other = tensor.expand(self.shape).reshape(-1).tolist()
    values = [callable(a, b) for a, b in zip(self.reshape(-1).tolist(), other)]
    with torch.no_grad():
        self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))
    return self


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

"""torch.masked: PyTorch 1.13's masked reductions and normalizations.

The prototype's semantics on strided tensors: a boolean ``mask`` (broadcast
to the input's shape) says which elements take part; masked-out elements are
replaced by the operation's identity (0 for sums, 1 for products, -inf for
amax/logsumexp/softmax, +inf for amin/softmin, NaN for median) and the plain
operation runs on the result. ``mean``, ``var`` and ``std`` divide by the
number of masked-in elements. Sparse layouts and MaskedTensor are not
provided (nndb has no sparse tensors).
"""

import torch

__all__ = []

_SMALL_INTS = (torch.uint8, torch.bool, torch.int8, torch.int16, torch.int32)


def _canonical_dim(dim, ndim):
    if dim == ():
        dim = None  # reduce over every dimension, as 1.13 reads dim=()
    if dim is None:
        return tuple(range(ndim))
    ndim = max(ndim, 1)
    dims = []
    for d in ((dim,) if isinstance(dim, int) else dim):
        if d in dims:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                             f"{ndim - 1}], but got {d})")
        dims.append(d % ndim)
    return tuple(sorted(dims))


def _reduction_identity(op_name, input, *args):
    dtype = input.dtype
    op_name = op_name.rsplit(".", 1)[-1]
    if op_name in ("sum", "cumsum"):
        return torch.tensor(0, dtype=dtype)
    if op_name in ("prod", "cumprod"):
        return torch.tensor(1, dtype=dtype)
    if op_name in ("amax", "argmax", "logsumexp"):
        if input.is_floating_point():
            return torch.tensor(float("-inf"), dtype=dtype)
        if dtype.is_signed or dtype == torch.uint8:
            return torch.tensor(torch.iinfo(dtype).min, dtype=dtype)
    elif op_name in ("amin", "argmin"):
        if input.is_floating_point():
            return torch.tensor(float("inf"), dtype=dtype)
        if dtype.is_signed or dtype == torch.uint8:
            return torch.tensor(torch.iinfo(dtype).max, dtype=dtype)
    elif op_name == "mean":
        return None
    elif op_name == "norm":
        ord = args[0] if args else 2
        if ord == float("-inf"):
            return torch.tensor(float("inf"), dtype=dtype)
        return torch.tensor(0, dtype=dtype)
    elif op_name == "median":
        return torch.tensor(float("nan"), dtype=dtype if input.is_floating_point() else torch.float)
    elif op_name in ("var", "std"):
        return None
    raise NotImplementedError(f"identity of {op_name} on {dtype} input")


def _input_mask(input, *args, **kwargs):
    mask = kwargs.get("mask")
    if mask is None:
        raise ValueError("_input_mask requires explicit mask")
    if mask.shape != input.shape:
        if mask.dim() > input.dim():
            raise IndexError("_input_mask expected broadcastable mask (got mask dimensionality "
                             "higher than of the input)")
        mask = torch.broadcast_to(mask.clone(), input.shape)
    return mask.to(dtype=torch.bool)


def _output_mask(op, input, *args, **kwargs):
    name = op.__name__
    if name in ("sum", "prod", "amax", "amin", "argmax", "argmin", "mean", "median", "norm",
                "var", "std", "logsumexp"):
        if name == "norm" and args:
            args = args[1:]
        dim = args[0] if args else kwargs.get("dim")
        outmask = _input_mask(input, *args, **kwargs)
        dims = _canonical_dim(dim, input.dim())
        keepdim = bool(kwargs.get("keepdim", False))
        out = outmask
        for d in reversed(dims):
            out = out.any(d, keepdim=keepdim) if out.dim() else out
        return out
    if name in ("softmax", "log_softmax", "softmin", "normalize", "cumsum", "cumprod"):
        return _input_mask(input, *args, **kwargs)
    raise ValueError(f"_output_mask expected masked operation (got callable {op.__module__}."
                     f"{name})")


def _where(mask, input, fill_value):
    return torch.where(mask, input, fill_value)


def _combine_input_and_mask(op, input, mask, *args):
    if mask is None:
        return input
    fill = _reduction_identity(op.__name__, input, *args)
    return torch.where(_input_mask(input, mask=mask), input, fill)


def _sum_dtype(input, dtype):
    if dtype is None:
        dtype = torch.int64 if input.dtype in _SMALL_INTS else input.dtype
    return dtype


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = _sum_dtype(input, dtype)
    dims = _canonical_dim(dim, input.dim())
    x = _combine_input_and_mask(sum, input, mask)
    return torch.sum(x, dims, bool(keepdim), dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = _sum_dtype(input, dtype)
    dims = _canonical_dim(dim, input.dim())
    result = _combine_input_and_mask(prod, input, mask).to(dtype=dtype)
    for d in reversed(dims):
        result = result.prod(dim=d, keepdim=bool(keepdim))
    return result


def cumsum(input, dim, *, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.dim())[0]
    return torch.cumsum(_combine_input_and_mask(sum, input, mask), d, dtype=dtype).to(dtype=dtype)


def cumprod(input, dim, *, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.dim())[0]
    return torch.cumprod(_combine_input_and_mask(prod, input, mask), d,
                         dtype=dtype).to(dtype=dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    x = _combine_input_and_mask(amax, input, mask)
    return torch.amax(x, _canonical_dim(dim, x.dim()), bool(keepdim)).to(dtype=dtype)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    x = _combine_input_and_mask(amin, input, mask)
    return torch.amin(x, _canonical_dim(dim, x.dim()), bool(keepdim)).to(dtype=dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    x = _combine_input_and_mask(argmax, input, mask)
    return torch.argmax(x, dim, bool(keepdim)).to(dtype=dtype)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    x = _combine_input_and_mask(argmin, input, mask)
    return torch.argmin(x, dim, bool(keepdim)).to(dtype=dtype)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    if mask is None:
        count = sum(torch.ones(input.shape, dtype=torch.int64), dim, keepdim=keepdim)
        total = sum(input, dim, keepdim=keepdim, dtype=dtype)
    else:
        inmask = _input_mask(input, mask=mask)
        count = sum(torch.ones(input.shape, dtype=torch.int64), dim, keepdim=keepdim, mask=inmask)
        total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    return total / count


def _nanmedian(x, dim, keepdim):
    # the lower median of the non-NaN values along dim; NaN when there are none
    if hasattr(torch, "nanmedian"):
        return torch.nanmedian(x, dim, keepdim).values
    if x.dim() == 0:
        return x.clone()
    nan = torch.isnan(x)
    n = x.shape[dim]
    # NaN sorts last: put +inf there, and order by (isnan, value)
    key = torch.where(nan, torch.full_like(x, float("inf")), x)
    vals, order = torch.sort(key, dim, stable=True)
    counts = (~nan).sum(dim, keepdim=True)
    k = torch.clamp((counts - 1) // 2, min=0)
    idx = order.gather(dim, k)
    out = x.gather(dim, idx)
    out = torch.where(counts == 0, torch.full_like(out, float("nan")), out)
    del n, vals
    return out if keepdim else out.squeeze(dim)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.dim())[0]
    is_float = input.is_floating_point()
    if not is_float:
        input = input.to(dtype=torch.float)
    output = _nanmedian(_combine_input_and_mask(median, input, mask), d, keepdim)
    if is_float:
        return output
    if not torch.isnan(output).any():
        return output.to(dtype=dtype)
    raise ValueError("masked median expects no fully masked out rows if dtype is not floating "
                     "point")


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    dims = _canonical_dim(dim, input.dim())
    x = _combine_input_and_mask(logsumexp, input, mask)
    return torch.logsumexp(x, dims, keepdim=keepdim).to(dtype=dtype)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    dtype = input.dtype if dtype is None else dtype
    a = _combine_input_and_mask(logsumexp, input, input_mask)
    b = _combine_input_and_mask(logsumexp, other, other_mask)
    return torch.logaddexp(a, b).to(dtype=dtype)


def _vector_norm(x, ord, dims, keepdim, dtype):
    if x.dim() == 0:
        # a 0-dim input is one element: its norm over (1,) read back as 0-dim
        return _vector_norm(x.reshape(1), ord, (0,), False, dtype).reshape(())
    linalg = getattr(torch, "linalg", None)
    if linalg is not None and hasattr(linalg, "vector_norm"):
        return linalg.vector_norm(x, ord, dims, keepdim, dtype=dtype)
    return x.to(dtype).norm(ord, dims, keepdim)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    x = _combine_input_and_mask(norm, input, mask, ord)
    return _vector_norm(x, ord, _canonical_dim(dim, input.dim()), bool(keepdim), dtype)


def _std_var(input, dim, unbiased, keepdim, dtype, mask, take_sqrt):
    if dtype is None:
        dtype = input.dtype
        if not dtype.is_floating_point:
            dtype = torch.float32
    compute_dtype = dtype if dtype.is_floating_point else torch.float32
    ones = torch.ones(input.shape, dtype=torch.int64)
    if mask is None:
        count = sum(ones, dim, keepdim=True)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype)
    else:
        inmask = _input_mask(input, mask=mask)
        count = sum(ones, dim, keepdim=True, mask=inmask)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype, mask=inmask)
    x = torch.subtract(input, torch.divide(sample_total, count))
    if mask is None:
        total = sum(x * x, dim, keepdim=keepdim, dtype=compute_dtype)
    else:
        total = sum(x * x, dim, keepdim=keepdim, dtype=compute_dtype, mask=inmask)
    if not keepdim:
        count = count.reshape(total.shape)
    if unbiased:
        count = torch.maximum(torch.subtract(count, 1), count.new_zeros([]))
    output = torch.divide(total, count).to(dtype=dtype)
    return torch.sqrt(output) if take_sqrt else output


def var(input, dim=None, unbiased=False, *, keepdim=False, dtype=None, mask=None):
    return _std_var(input, dim, unbiased, keepdim, dtype, mask, False)


def std(input, dim=None, unbiased=False, *, keepdim=False, dtype=None, mask=None):
    return _std_var(input, dim, unbiased, keepdim, dtype, mask, True)


def softmax(input, dim, *, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.dim())[0]
    return torch.nn.functional.softmax(_combine_input_and_mask(amax, input, mask), d, dtype=dtype)


def log_softmax(input, dim, *, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.dim())[0]
    return torch.nn.functional.log_softmax(_combine_input_and_mask(amax, input, mask), d,
                                           dtype=dtype)


def softmin(input, dim, *, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.dim())[0]
    return torch.nn.functional.softmin(_combine_input_and_mask(amin, input, mask), d, dtype=dtype)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    x = _combine_input_and_mask(sum, input, mask)
    nrm = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return torch.divide(x, torch.maximum(nrm, nrm.new_full([], eps)))

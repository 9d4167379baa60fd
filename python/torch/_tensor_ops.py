"""torch functions and Tensor methods that PyTorch composes, written here in
Python over nndb's kernels: stacking helpers (atleast_*d, block_diag,
column_stack, dstack, cartesian_prod, combinations), index tables
(tril/triu_indices), the *_scatter family and the other writes at computed
positions (index_put, masked_scatter, index_reduce), statistics (quantile,
nanquantile, nanmedian, mode, cov, corrcoef, cdist, renorm), integration
and differences (trapezoid, cumulative_trapezoid, gradient), searches
(searchsorted, bucketize, isin), histogramdd, and the "native" layer-norm
and batch-norm entry points.

Writes at computed positions share one idea: the positions a view would
select are found by taking the same view of `arange(numel)`, and the write
is a scatter into the flattened input.  Scatter and gather carry the
gradients, so every one of these is differentiable as in PyTorch.

install(Tensor) adds the methods; FUNCTIONS are the torch.NAME functions.
"""

import builtins
import itertools
import math
import warnings

import torch
from torch import _C
from torch._tensor_more import _lazy_function

_METHODS = {}
FUNCTIONS = {}


def _method(fn):
    _METHODS[fn.__name__] = fn
    FUNCTIONS.setdefault(fn.__name__, fn)
    return fn


def _function(fn):
    FUNCTIONS[fn.__name__] = fn
    return fn


def _positions(t):
    """int64 tensor of t's shape holding each element's flat position."""
    return torch.arange(t.numel()).reshape(t.shape)


def _write_at(input, pos, src, accumulate=False):
    """input with src (broadcast to pos's shape) written (or added) at the
    flat positions pos."""
    flat = input.reshape(-1)
    pos = pos.reshape(-1)
    src = torch.as_tensor(src, dtype=input.dtype) if not isinstance(src, torch.Tensor) else src
    vals = src.to(input.dtype).expand(pos.shape if src.dim() <= 1 and src.numel() == pos.numel()
                                      else src.shape).reshape(-1) if src.numel() == pos.numel() \
        else src.to(input.dtype).reshape(-1)
    if accumulate:
        out = flat.index_add(0, pos, vals)
    else:
        out = flat.scatter(0, pos, vals)
    return out.reshape(input.shape)


def _scatter_view(input, src, view):
    pos = view(_positions(input))
    src = src.to(input.dtype) if isinstance(src, torch.Tensor) else src
    if tuple(src.shape) != tuple(pos.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(pos.shape)}")
    return input.reshape(-1).scatter(0, pos.reshape(-1), src.reshape(-1)).reshape(input.shape)


# ---- transposes ----

def _mH(input):
    if input.dim() < 2 and input.dim() != 0:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                           f"Got {input.dim()}-D tensor.")
    return input if input.dim() == 0 else input.transpose(-2, -1)


def _H(input):
    if input.dim() not in (0, 2):
        raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). "
                           f"Got {input.dim()}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH"
                              if input.dim() > 2 else ""))
    return input if input.dim() == 0 else input.t()


@_method
def adjoint(input):
    return _mH(input)


# ---- stacking ----

def _atleast(tensors, fn):
    if len(tensors) == 1:
        tensors = tensors[0]
    if isinstance(tensors, torch.Tensor):
        return fn(tensors)
    return tuple(fn(t) for t in tensors)


def _1d(t):
    return t.reshape(1) if t.dim() == 0 else t


def _2d(t):
    return t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t


def _3d(t):
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.reshape(1, -1, 1)
    if t.dim() == 2:
        return t.unsqueeze(-1)
    return t


@_function
def atleast_1d(*tensors):
    return _atleast(tensors, _1d)


@_function
def atleast_2d(*tensors):
    return _atleast(tensors, _2d)


@_function
def atleast_3d(*tensors):
    return _atleast(tensors, _3d)


@_function
def block_diag(*tensors):
    mats = []
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {i} has {t.dim()} dimensions")
        mats.append(_2d(t))
    if not mats:
        return torch.empty(1, 0)
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = torch.promote_types(dtype, m.dtype)
    cols = builtins.sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        r, c = m.shape
        parts = [torch.zeros(r, left, dtype=dtype), m.to(dtype),
                 torch.zeros(r, cols - left - c, dtype=dtype)]
        rows.append(torch.cat(parts, 1))
        left += c
    return torch.cat(rows, 0)


@_function
def column_stack(tensors):
    return torch.hstack([t.reshape(-1, 1) if t.dim() <= 1 else t for t in tensors])


@_function
def dstack(tensors):
    return torch.cat([_3d(t) for t in tensors], 2)


@_function
def row_stack(tensors):
    return torch.vstack(tensors)


@_function
def cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    grids = torch.meshgrid(*tensors, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)


@_function
def combinations(input, r=2, with_replacement=False):
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return torch.empty(0, dtype=input.dtype)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(range(input.shape[0]), r))
    if not rows:
        return input[torch.zeros(0, dtype=torch.int64)].reshape(0, r)
    idx = torch.tensor(rows, dtype=torch.int64)
    return input[idx.reshape(-1)].reshape(len(rows), r)


def _tri_indices(row, col, offset, lower, dtype):
    pairs = [(i, j) for i in range(row) for j in range(col)
             if (j - i <= offset if lower else j - i >= offset)]
    if not pairs:
        return torch.zeros(2, 0, dtype=dtype)
    return torch.tensor(pairs, dtype=dtype).t().contiguous()


@_function
def tril_indices(row, col, offset=0, *, dtype=torch.long, device=None, layout=None):
    return _tri_indices(row, col, offset, True, dtype)


@_function
def triu_indices(row, col, offset=0, *, dtype=torch.long, device=None, layout=None):
    return _tri_indices(row, col, offset, False, dtype)


@_function
def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    dtype = dtype or _C.get_default_dtype()
    exps = torch.linspace(float(start), float(end), steps, dtype=torch.float64)
    vals = torch.pow(torch.tensor(float(base), dtype=torch.float64), exps)
    r = vals.to(dtype) if dtype.is_floating_point else vals.trunc().to(dtype)
    return r.requires_grad_() if requires_grad else r


# ---- writes at computed positions ----

@_method
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    return _scatter_view(input, src, lambda p: p.diagonal(offset, dim1, dim2))


@_method
def select_scatter(input, src, dim, index):
    return _scatter_view(input, src, lambda p: p.select(dim, index))


@_method
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    def view(p):
        sl = [slice(None)] * p.dim()
        sl[dim] = slice(start, end, step)
        return p[tuple(sl)]
    return _scatter_view(input, src, view)


@_method
def as_strided(input, size, stride, storage_offset=None):
    offset = input.storage_offset() if storage_offset is None else storage_offset
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape")
    if any(st < 0 for st in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    _, numel = _C._storage_info(input)
    item = input.element_size()
    need = 0 if 0 in size else offset + 1 + sum((n - 1) * st for n, st in zip(size, stride))
    if need > numel:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {item} requiring a storage size of "
                           f"{need * item} are out of bounds for storage of size {numel * item}")
    if not (input.requires_grad and torch.is_grad_enabled()):
        # a view of the input's memory, as PyTorch's
        return _C._view_of_storage(input, offset, size, stride)
    # With history: the elements gathered (a copy) so that the gradient
    # flows back to the input's elements.
    if input.storage_offset() or not input.is_contiguous() or need > input.numel():
        raise RuntimeError("as_strided: nndb follows gradients through strides over a "
                           "contiguous tensor (its own elements), not over another view's "
                           "storage")
    pos = torch.full((), offset, dtype=torch.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        pos = pos + (torch.arange(n) * s).reshape(shape)
    pos = pos.expand(size) if size else pos
    return input.reshape(-1).gather(0, pos.reshape(-1)).reshape(size)


@_method
def as_strided_(input, size, stride, storage_offset=None):
    input.data = as_strided(input.detach(), size, stride, storage_offset)
    return input


@_method
def as_strided_scatter(input, src, size, stride, storage_offset=None):
    pos = as_strided(_positions(input), size, stride, storage_offset)
    return _write_at(input, pos, src)


@_method
def index_put(input, indices, values, accumulate=False):
    pos = _positions(input)[tuple(indices)]
    vals = values.to(input.dtype).expand(pos.shape)
    flat = input.reshape(-1)
    if accumulate:
        out = flat.index_add(0, pos.reshape(-1), vals.reshape(-1))
    else:
        out = flat.scatter(0, pos.reshape(-1), vals.reshape(-1))
    return out.reshape(input.shape)


@_method
def index_put_(input, indices, values, accumulate=False):
    return input.copy_(index_put(input, indices, values, accumulate))


@_method
def masked_scatter(input, mask, source):
    shape = torch.broadcast_shapes(input.shape, mask.shape)
    base = input.expand(shape)
    pos = _positions(base)[mask.expand(shape)]
    n = pos.numel()
    if source.numel() < n:
        raise RuntimeError("masked_scatter: expected source to have at least as many elements "
                           "as ones in mask")
    vals = source.reshape(-1)[:n].to(input.dtype)
    return base.reshape(-1).scatter(0, pos, vals).reshape(shape)


@_method
def masked_scatter_(input, mask, source):
    return input.copy_(masked_scatter(input, mask, source))


@_method
def narrow_copy(input, dim, start, length):
    return input.narrow(dim, start, length).clone()


@_method
def new_empty_strided(input, size, stride, *, dtype=None, device=None, requires_grad=False,
                      layout=None, pin_memory=False):
    r = torch.empty(tuple(size), dtype=dtype or input.dtype)
    return r.requires_grad_() if requires_grad else r


@_function
def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False):
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of "
                           f"strides ({len(stride)})")
    if any(n < 0 for n in size):
        bad = next(n for n in size if n < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {list(size)}")
    if any(st < 0 for st in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    # the memory the strides reach: 1 + sum((n - 1) * stride), none when empty
    need = 0 if 0 in size else 1 + sum((n - 1) * st for n, st in zip(size, stride))
    r = _C._view_of_storage(torch.empty(need, dtype=dtype), 0, size, stride)
    return r.requires_grad_() if requires_grad else r


@_function
def constant_pad_nd(input, pad, value=0):
    return torch.nn.functional.pad(input, tuple(pad), value=value)


@_function
def zero_(input):
    if input.grad_fn is not None:  # recorded: an in-place copy has a backward
        input[...] = 0
        return input
    return input.zero_()


@_method
def conj_physical_(input):
    return input


@_method
def resize_as_(input, the_template, memory_format=None):
    return input.resize_(the_template.shape)


@_method
def resize_(input, *sizes, memory_format=None):
    if len(sizes) == 1 and not isinstance(sizes[0], int):
        sizes = tuple(sizes[0])
    if input.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    n = 1
    for s in sizes:
        n *= s
    if n == input.numel():
        new = input.reshape(sizes).clone()
    else:
        new = torch.zeros(sizes, dtype=input.dtype)
        k = min(n, input.numel())
        if k:
            new.view(-1)[:k] = input.reshape(-1)[:k]
    input.data = new
    return input


# ---- scatter_reduce, index_reduce ----

_REDUCES = ("sum", "prod", "mean", "amax", "amin")


_scatter_reduce_warned = False


@_method
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    global _scatter_reduce_warned
    if not _scatter_reduce_warned:  # PyTorch warns once a process
        _scatter_reduce_warned = True
        torch._utils._warn_caller("scatter_reduce() is in beta and the API may change at any "
                                  "time.")
    if reduce not in _REDUCES:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    return _scatter_reduce(input, dim, index, src.to(input.dtype), reduce, include_self)


@_method
def scatter_reduce_(input, dim, index, src, reduce, *, include_self=True):
    with torch.no_grad() if not input.requires_grad else _nullcontext():
        return input.copy_(scatter_reduce(input, dim, index, src, reduce,
                                          include_self=include_self))


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def _scatter_reduce(x, dim, index, src, reduce, include_self):
    dim = dim % max(x.dim(), 1)
    if index.numel() == 0:
        return x.clone()
    # the flat output position of each index element
    pos = _positions(x).gather(dim, index) if x.dim() else torch.zeros_like(index)
    pos = pos.reshape(-1)
    vals = src[tuple(slice(0, n) for n in index.shape)].reshape(-1) if src.dim() else \
        src.reshape(-1)
    flat = x.reshape(-1)
    n = flat.numel()
    hit = torch.zeros(n, dtype=torch.bool).scatter(0, pos, torch.ones_like(pos, dtype=torch.bool))
    base = flat if include_self else torch.where(hit, torch.zeros_like(flat), flat)
    if reduce == "sum":
        out = base.scatter_add(0, pos, vals)
    elif reduce == "mean":
        counts = torch.zeros(n, dtype=flat.dtype).scatter_add(0, pos, torch.ones_like(vals))
        if include_self:
            counts = counts + 1
        total = base.scatter_add(0, pos, vals)
        counts = torch.where(counts == 0, torch.ones_like(counts), counts)
        out = total / counts if flat.is_floating_point() else \
            torch.div(total, counts, rounding_mode="floor")
        out = torch.where(hit, out, flat)
    elif reduce == "prod":
        out = _segment_prod(base, pos, vals, hit, include_self)
    else:
        out = _segment_extreme(flat, pos, vals, hit, include_self, reduce == "amax")
    return out.reshape(x.shape)


def _segment_groups(pos, n):
    """The order that sorts pos, the sorted positions, and each run's
    first index, as Python lists for the per-position reductions."""
    order = torch.argsort(pos, stable=True)
    return order, pos[order]


def _segment_prod(base, pos, vals, hit, include_self):
    # exact products with autograd: each position multiplies its values in turn
    order, spos = _segment_groups(pos, base.numel())
    sv = vals[order]
    out = base.clone() if include_self else torch.where(hit, torch.ones_like(base), base)
    plist = spos.tolist()
    cols = []
    depth = 0
    # one pass per repeat level: the k-th value of every position at once
    counts = {}
    levels = []
    for i, p in enumerate(plist):
        k = counts.get(p, 0)
        counts[p] = k + 1
        while len(levels) <= k:
            levels.append(([], []))
        levels[k][0].append(p)
        levels[k][1].append(i)
    del cols, depth
    for ps, iv in levels:
        pt = torch.tensor(ps, dtype=torch.int64)
        factor = torch.ones_like(out).scatter(0, pt, sv[torch.tensor(iv, dtype=torch.int64)])
        out = out * factor
    return out


def _segment_extreme(flat, pos, vals, hit, include_self, is_max):
    n = flat.numel()
    fill = -math.inf if is_max else math.inf
    if not flat.is_floating_point():
        info = torch.iinfo(flat.dtype) if flat.dtype != torch.bool else None
        fill = (info.min if is_max else info.max) if info else (False if is_max else True)
    # the winning value of each position, without autograd
    with torch.no_grad():
        order, spos = _segment_groups(pos, n)
        best = torch.full((n,), fill, dtype=flat.dtype)
        counts = {}
        levels = []
        for i, p in enumerate(spos.tolist()):
            k = counts.get(p, 0)
            counts[p] = k + 1
            while len(levels) <= k:
                levels.append(([], []))
            levels[k][0].append(p)
            levels[k][1].append(i)
        sv = vals[order]
        pick = torch.maximum if is_max else torch.minimum
        for ps, iv in levels:
            pt = torch.tensor(ps, dtype=torch.int64)
            cand = torch.full((n,), fill, dtype=flat.dtype).scatter(
                0, pt, sv[torch.tensor(iv, dtype=torch.int64)])
            best = pick(best, cand)
        if include_self:
            best = pick(best, flat)
        best = torch.where(hit, best, flat)
    if not (flat.requires_grad or vals.requires_grad):
        return best
    # gradient as PyTorch's: shared evenly among the values equal to the result
    src_win = (vals == best[pos]).to(flat.dtype)
    self_win = ((flat == best) & (torch.ones_like(hit) if include_self else ~hit)).to(flat.dtype)
    share = self_win.scatter_add(0, pos, src_win)
    share = torch.where(share == 0, torch.ones_like(share), share)
    out = flat * self_win / share
    out = out.scatter_add(0, pos, vals * src_win / share[pos])
    # values: best; gradient: through the winners
    return out + (best - out).detach()


_INDEX_REDUCE_BETA = ("index_reduce() is in beta and the API may change at any time. "
                      "(Triggered internally at  ./aten/src/ATen/native/"
                      "TensorAdvancedIndexing.cpp:1008.)")


@_method
def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    torch._utils._warn_once("index_reduce", _INDEX_REDUCE_BETA)
    return _index_reduce(input, dim, index, source, reduce, include_self)


def _index_reduce(input, dim, index, source, reduce, include_self):
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    dim = dim % max(input.dim(), 1)
    idx = index.reshape(-1)
    if input.dim() == 0:
        full = idx
    else:
        shape = [1] * source.dim()
        shape[dim] = idx.numel()
        full = idx.reshape(shape).expand(source.shape)
    return _scatter_reduce(input, dim, full, source.to(input.dtype), reduce, include_self)


@_method
def index_reduce_(input, dim, index, source, reduce, *, include_self=True):
    torch._utils._warn_once("index_reduce", _INDEX_REDUCE_BETA)
    return input.copy_(_index_reduce(input, dim, index, source, reduce, include_self))


@_function
def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0,
                   unsafe=False, initial=None):
    if reduce not in ("sum", "prod", "mean", "max", "min"):
        raise RuntimeError(f"segment_reduce(): unknown reduce {reduce}")
    axis = axis % data.dim()
    if lengths is None and offsets is not None:
        lengths = offsets[..., 1:] - offsets[..., :-1]
    if lengths is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined")
    if lengths.dim() != axis + 1 or tuple(lengths.shape[:axis]) != tuple(data.shape[:axis]):
        raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum "
                           "to data.size(lengths.dim()-1)")
    lead = tuple(data.shape[:axis])
    rows = []
    for at in itertools.product(*[range(n) for n in lead]):
        row, lens = data[at] if at else data, lengths[at].tolist() if at else lengths.tolist()
        start, parts = 0, []
        for n in lens:
            parts.append(_segment(row.narrow(0, start, n), reduce, initial, row))
            start += n
        rows.append(torch.stack(parts, 0))
    out = torch.stack(rows, 0) if lead else rows[0]
    return out.reshape(lead + out.shape[len(lead) if lead else 0:]) if lead else out


def _segment(seg, reduce, initial, row):
    n = seg.shape[0]
    if n == 0:
        v = {"sum": 0.0, "prod": 1.0, "mean": math.nan, "max": -math.inf,
             "min": math.inf}[reduce] if initial is None else initial
        return torch.full(row.shape[1:], v, dtype=row.dtype) + row.narrow(0, 0, 0).sum(0) * 0
    if reduce == "sum":
        r = seg.sum(0)
        return r if initial is None else r + initial
    if reduce == "prod":
        r = seg.prod(0)
        return r if initial is None else r * initial
    if reduce == "mean":
        return seg.mean(0) if initial is None else (seg.sum(0) + initial) / n
    r = seg.amax(0) if reduce == "max" else seg.amin(0)
    if initial is None:
        return r
    return torch.clamp(r, min=initial) if reduce == "max" else torch.clamp(r, max=initial)


# ---- searches ----

@_function
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 sorter=None, out=None):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                               "got side of left while right was True")
        right = side == "right"
    seq = sorted_sequence
    if sorter is not None:
        seq = seq.gather(-1, sorter)
    scalar = not isinstance(input, torch.Tensor)
    vals = torch.tensor(input, dtype=seq.dtype) if scalar else input
    if seq.dim() > 1 and tuple(seq.shape[:-1]) != tuple(vals.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                           "first N-1 dimensions of boundaries tensor and input value tensor "
                           "must match")
    with torch.no_grad():
        if seq.dim() == 1:
            s = seq.reshape((1,) * vals.dim() + (-1,))
        else:
            s = seq.unsqueeze(-2)
        v = vals.unsqueeze(-1)
        count = (s <= v) if right else (s < v)
        r = count.sum(-1)
    return r.to(torch.int32 if out_int32 else torch.int64)


@_function
def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


@_function
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    e = elements if isinstance(elements, torch.Tensor) else torch.tensor(elements)
    t = test_elements if isinstance(test_elements, torch.Tensor) else torch.tensor(test_elements)
    with torch.no_grad():
        if t.numel() == 0:
            hit = torch.zeros(e.shape, dtype=torch.bool)
        else:
            hit = (e.reshape(-1, 1) == t.reshape(1, -1)).any(1).reshape(e.shape)
    return ~hit if invert else hit


# ---- statistics ----

def _sorted_last(input, dim):
    """input's values sorted along dim, with dim moved last (NaN last)."""
    x = input if dim is None else input.movedim(dim, -1)
    if dim is None:
        x = input.reshape(-1)
    return x.sort(-1).values


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan, name):
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest. Got {interpolation}")
    if not input.is_floating_point():
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    scalar_q = not isinstance(q, torch.Tensor)
    qt = torch.tensor(q, dtype=input.dtype) if scalar_q else q
    if qt.dim() > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if qt.dtype != input.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if scalar_q and not 0 <= q <= 1:
        raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
    if bool(((qt < 0) | (qt > 1)).any()):
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    if input.numel() == 0 and dim is None:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if dim is not None:
        dim = dim % max(input.dim(), 1)
    src = input.reshape(1) if input.dim() == 0 else input
    s = _sorted_last(src, dim)
    n = s.shape[-1]
    qv = qt.reshape(-1).to(torch.float64)
    if ignore_nan:
        valid = (~torch.isnan(s)).sum(-1, keepdim=True).to(torch.float64)
    else:
        valid = torch.full(s.shape[:-1] + (1,), float(n), dtype=torch.float64)
    # ranks: one column per q
    ranks = qv.reshape((1,) * (s.dim() - 1) + (-1,)) * (valid - 1)
    if not ignore_nan:
        has_nan = torch.isnan(s).any(-1, keepdim=True)
        ranks = torch.where(has_nan, torch.full_like(ranks, n - 1), ranks)
    else:
        ranks = torch.where(valid == 0, torch.full_like(ranks, n - 1), ranks)
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    lo = ranks.floor().clamp(0, n - 1).to(torch.int64)
    hi = ranks.ceil().clamp(0, n - 1).to(torch.int64)
    vlo = s.gather(-1, lo)
    vhi = s.gather(-1, hi)
    if interpolation == "midpoint":
        w = torch.where(hi > lo, torch.full_like(ranks, 0.5), torch.zeros_like(ranks))
    elif interpolation == "linear":
        w = ranks - lo.to(torch.float64)
    else:
        w = torch.zeros_like(ranks)
    w = w.to(s.dtype)
    out = torch.lerp(vlo, vhi, w)
    # out: reduced dims + (len(q),); q's dim goes first
    if dim is None:
        out = out.reshape(-1)
        if keepdim:
            out = out.reshape((-1,) + (1,) * input.dim())
    else:
        if keepdim:
            out = out.unsqueeze(dim) if input.dim() else out
            out = out.movedim(-1, 0)
            if input.dim() == 0:
                out = out.reshape(-1)
            else:
                out = out.movedim(dim + 1, dim + 1)
        else:
            out = out.movedim(-1, 0)
            if input.dim() == 0:
                out = out.reshape(-1)
    if scalar_q or qt.dim() == 0:
        out = out[0]
    return out


@_method
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(input, q, dim, keepdim, interpolation, False, "quantile")


@_method
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(input, q, dim, keepdim, interpolation, True, "nanquantile")


@_method
def nanmedian(input, dim=None, keepdim=False):
    if dim is None:
        flat = input.reshape(-1)
        s = flat.sort().values
        k = int((~torch.isnan(flat)).sum())
        if flat.numel() == 0:
            return torch.full((), math.nan, dtype=input.dtype)
        return s[max(k - 1, 0) // 2] if k else s[0] * math.nan
    src = input.reshape(1) if input.dim() == 0 else input
    d = dim % src.dim()
    x = src.movedim(d, -1)
    s, idx = x.sort(-1, stable=True)
    k = (~torch.isnan(x)).sum(-1, keepdim=True)
    at = ((k - 1).clamp(min=0) // 2)
    v = s.gather(-1, at)
    i = idx.gather(-1, at)
    if keepdim and input.dim():
        v, i = v.movedim(-1, d), i.movedim(-1, d)
    else:
        v, i = v.squeeze(-1), i.squeeze(-1)
        if input.dim() == 0:
            v, i = v.reshape(()), i.reshape(())
    return _values_indices("nanmedian", v, i)


_RESULT_TYPES = {}


def _result(name, fields, *values):
    """torch.return_types.NAME(values): a named tuple as PyTorch returns."""
    cls = _RESULT_TYPES.get(name)
    if cls is None:
        import collections

        def rep(self):
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
            return f"torch.return_types.{name}(\n{body})"
        cls = type(name, (collections.namedtuple(name, fields),),
                   {"__module__": "torch.return_types", "__slots__": (), "__repr__": rep})
        _RESULT_TYPES[name] = cls
    return cls(*values)


def _values_indices(name, v, i):
    if name in _C._return_types:
        return _C._return_types[name]((v, i))
    return _result(name, ("values", "indices"), v, i)


@_method
def mode(input, dim=-1, keepdim=False):
    src = input.reshape(1) if input.dim() == 0 else input
    d = dim % src.dim()
    x = src.movedim(d, -1)
    lead = x.shape[:-1]
    rows = x.reshape(-1, x.shape[-1]) if x.numel() else x.reshape(-1, max(x.shape[-1], 1))
    vals, idxs = [], []
    with torch.no_grad():
        for row in rows.tolist():
            counts = {}
            for j, v in enumerate(row):
                c, _ = counts.get(v, (0, 0))
                counts[v] = (c + 1, j)
            best = max(counts.items(), key=lambda kv: (kv[1][0], -kv[0]))
            vals.append(best[0])
            idxs.append(best[1][1])
    v = torch.tensor(vals, dtype=input.dtype).reshape(lead)
    i = torch.tensor(idxs, dtype=torch.int64).reshape(lead)
    if input.requires_grad:
        v = x.gather(-1, i.unsqueeze(-1)).squeeze(-1)
    if keepdim and input.dim():
        v, i = v.unsqueeze(d), i.unsqueeze(d)
    return _values_indices("mode", v, i)


@_method
def cov(input, *, correction=1, fweights=None, aweights=None):
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.dim()} dimensions")
    x = input.reshape(1, -1) if input.dim() < 2 else input
    num_obs = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    if w is not None:
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
    else:
        w_sum = torch.tensor(num_obs, dtype=x.dtype if x.is_floating_point() else torch.float32)
        avg = x.mean(1) if x.is_floating_point() else x.to(torch.float32).mean(1)
    if w is not None and aweights is not None and correction != 0:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    norm = torch.clamp(norm, min=0) if isinstance(norm, torch.Tensor) else max(norm, 0)
    xm = x - avg.unsqueeze(1)
    xw = xm * w if w is not None else xm
    c = torch.mm(xm, xw.t())
    return (c / norm).squeeze()


@_method
def corrcoef(input):
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = torch.diagonal(c)
    std = torch.sqrt(d)
    c = c / std.unsqueeze(1)
    c = c / std.unsqueeze(0)
    return c.clamp(-1, 1)


@_function
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    torch._tensor_more._need_tensor("cdist", ("x1", 1, x1), ("x2", 2, x2))
    if x1.dim() < 2 or x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == 0:
        # no gradient, but the result is part of the graph as in PyTorch
        return (diff != 0).sum(-1).to(x1.dtype) + (diff * 0).sum(-1).detach() * 0 + \
            (x1.sum() + x2.sum()) * 0
    a = diff.abs()
    if math.isinf(p):
        return a.amax(-1)
    if p == 1:
        return a.sum(-1)
    # the gradient of |d|^p summed, then ^(1/p), is 0 where the distance is 0
    s = (a ** p).sum(-1)
    zero = s == 0
    safe = torch.where(zero, torch.ones_like(s), s)
    return torch.where(zero, torch.zeros_like(s), safe ** (1.0 / p))


@_method
def renorm(input, p, dim, maxnorm):
    dim = dim % input.dim()
    others = tuple(d for d in range(input.dim()) if d != dim)
    norms = torch.linalg_vector_norm(input, p, others) if False else \
        (input.abs() ** p).sum(others, keepdim=True) ** (1.0 / p) if p != math.inf else \
        input.abs().amax(others, keepdim=True)
    factor = torch.where(norms > maxnorm, maxnorm / (norms + 1e-7), torch.ones_like(norms))
    return input * factor


@_method
def renorm_(input, p, dim, maxnorm):
    return input.copy_(renorm(input, p, dim, maxnorm))


# ---- integration, differences ----

def _along(t, dim, start, stop):
    return t.narrow(dim, start, stop - start)


@_function
def trapezoid(y, x=None, *, dx=None, dim=-1):
    dim = dim % max(y.dim(), 1)
    n = y.shape[dim] if y.dim() else 0
    if x is None:
        h = 1 if dx is None else dx
        if n == 0:
            return y.sum(dim) * 0
        return (y.sum(dim) - (y.select(dim, 0) + y.select(dim, n - 1)) * 0.5) * h
    if n == 0:
        return torch.zeros(y.shape[:dim] + y.shape[dim + 1:], dtype=torch.promote_types(
            y.dtype, x.dtype))
    if x.dim() == 1:
        if x.shape[0] != n:
            raise RuntimeError(f"trapezoid: There must be one `x` value for each sample point")
        dxs = x[1:] - x[:-1]
        shape = [1] * y.dim()
        shape[dim] = n - 1
        dxs = dxs.reshape(shape)
    else:
        xd = dim - y.dim() + x.dim() if x.dim() < y.dim() else dim
        dxs = torch.diff(x, dim=xd)
    ys = _along(y, dim, 1, n) + _along(y, dim, 0, n - 1)
    return (dxs * ys).sum(dim) / 2


@_function
def trapz(y, x=None, *, dx=None, dim=-1):
    if isinstance(x, (int, float)) and dx is None:
        x, dx = None, x
    return trapezoid(y, x, dx=dx, dim=dim)


@_function
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    dim = dim % max(y.dim(), 1)
    n = y.shape[dim]
    if n == 0:
        return y.narrow(dim, 0, 0).clone()
    ys = (_along(y, dim, 1, n) + _along(y, dim, 0, n - 1))
    if x is None:
        h = 1 if dx is None else dx
        return (ys * h / 2).cumsum(dim)
    if x.dim() == 1:
        shape = [1] * y.dim()
        shape[dim] = n - 1
        dxs = (x[1:] - x[:-1]).reshape(shape)
    else:
        xd = dim - y.dim() + x.dim() if x.dim() < y.dim() else dim
        dxs = torch.diff(x, dim=xd)
    return (dxs * ys / 2).cumsum(dim)


@_function
def gradient(input, *, spacing=1, dim=None, edge_order=1):
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, int):
        dims = [dim % input.dim()]
    else:
        dims = [d % input.dim() for d in dim]
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if isinstance(spacing, (list, tuple)):
        sp = list(spacing)
        if len(sp) == 1 and len(dims) > 1:
            sp = sp * len(dims)
        if len(sp) != len(dims):
            raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or "
                               f"it's spacing and dim arguments to have the same length, but got "
                               f"a spacing argument of length {len(sp)} and a dim argument of "
                               f"length {len(dims)}.")
    else:
        sp = [1 if spacing is None else spacing] * len(dims)
    outs = []
    for d, h in zip(dims, sp):
        n = input.shape[d]
        if n < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")
        f = input if input.is_floating_point() else input.to(_C.get_default_dtype())
        if isinstance(h, torch.Tensor) and h.dim() == 1:
            outs.append(_gradient_coords(f, d, h.to(f.dtype), edge_order))
            continue
        h = float(h)
        inner = (_along(f, d, 2, n) - _along(f, d, 0, n - 2)) / (2 * h)
        if edge_order == 1:
            first = (_along(f, d, 1, 2) - _along(f, d, 0, 1)) / h
            last = (_along(f, d, n - 1, n) - _along(f, d, n - 2, n - 1)) / h
        else:
            a, b, c = _along(f, d, 0, 1), _along(f, d, 1, 2), _along(f, d, 2, 3)
            first = (-1.5 * a + 2 * b - 0.5 * c) / h
            a, b, c = _along(f, d, n - 3, n - 2), _along(f, d, n - 2, n - 1), \
                _along(f, d, n - 1, n)
            last = (0.5 * a - 2 * b + 1.5 * c) / h
        outs.append(torch.cat([first, inner, last], d))
    return tuple(outs)


def _gradient_coords(f, d, x, edge_order):
    n = f.shape[d]
    shape = [1] * f.dim()
    shape[d] = n - 2
    hl = (x[1:n - 1] - x[0:n - 2]).reshape(shape)
    hr = (x[2:n] - x[1:n - 1]).reshape(shape)
    a = -hr / (hl * (hl + hr))
    b = (hr - hl) / (hl * hr)
    c = hl / (hr * (hl + hr))
    inner = a * _along(f, d, 0, n - 2) + b * _along(f, d, 1, n - 1) + c * _along(f, d, 2, n)
    if edge_order == 1:
        first = (_along(f, d, 1, 2) - _along(f, d, 0, 1)) / float(x[1] - x[0])
        last = (_along(f, d, n - 1, n) - _along(f, d, n - 2, n - 1)) / float(x[n - 1] - x[n - 2])
    else:
        h1, h2 = float(x[1] - x[0]), float(x[2] - x[1])
        a0 = -(2 * h1 + h2) / (h1 * (h1 + h2))
        b0 = (h1 + h2) / (h1 * h2)
        c0 = -h1 / (h2 * (h1 + h2))
        first = a0 * _along(f, d, 0, 1) + b0 * _along(f, d, 1, 2) + c0 * _along(f, d, 2, 3)
        h1, h2 = float(x[n - 2] - x[n - 3]), float(x[n - 1] - x[n - 2])
        a0 = h2 / (h1 * (h1 + h2))
        b0 = -(h2 + h1) / (h1 * h2)
        c0 = (2 * h2 + h1) / (h2 * (h1 + h2))
        last = a0 * _along(f, d, n - 3, n - 2) + b0 * _along(f, d, n - 2, n - 1) + \
            c0 * _along(f, d, n - 1, n)
    return torch.cat([first, inner, last], d)


# ---- short-time Fourier transforms (torch._stft) ----

@_method
def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None):
    from torch._stft import stft as _stft
    return _stft(input, n_fft, hop_length, win_length, window, center, pad_mode, normalized,
                 onesided, return_complex)


@_method
def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    from torch._stft import istft as _istft
    return _istft(input, n_fft, hop_length, win_length, window, center, normalized, onesided,
                  length, return_complex)


# ---- histograms ----

@_method
def histogram(input, bins=100, *, range=None, weight=None, density=False):
    return torch.histogram(input, bins, range=range, weight=weight, density=density)


def _hdd_result(hist, edges):
    return _result("histogramdd", ("hist", "bin_edges"), hist, edges)


@_function
def histogramdd(input, bins=10, *, range=None, weight=None, density=False):
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    k = input.shape[-1]
    pts = input.reshape(-1, k)
    if isinstance(bins, int):
        bins = [bins] * k
    edges = []
    for j, b in enumerate(bins):
        if isinstance(b, torch.Tensor):
            edges.append(b.to(input.dtype))
            continue
        if range is not None:
            lo, hi = float(range[2 * j]), float(range[2 * j + 1])
        elif pts.shape[0]:
            lo, hi = float(pts[:, j].min()), float(pts[:, j].max())
        else:
            lo, hi = 0.0, 1.0
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges.append(torch.linspace(lo, hi, int(b) + 1, dtype=input.dtype))
    with torch.no_grad():
        shape = [e.numel() - 1 for e in edges]
        inside = torch.ones(pts.shape[0], dtype=torch.bool)
        flat = torch.zeros(pts.shape[0], dtype=torch.int64)
        for j, e in enumerate(edges):
            v = pts[:, j]
            nb = e.numel() - 1
            idx = searchsorted(e, v.contiguous(), right=True) - 1
            idx = torch.where(v == e[-1], torch.full_like(idx, nb - 1), idx)
            inside = inside & (v >= e[0]) & (v <= e[-1])
            flat = flat * nb + idx.clamp(0, max(nb - 1, 0))
        w = weight.reshape(-1).to(input.dtype) if weight is not None else \
            torch.ones(pts.shape[0], dtype=input.dtype)
        w = torch.where(inside, w, torch.zeros_like(w))
        total = 1
        for s in shape:
            total *= s
        hist = torch.zeros(total, dtype=input.dtype).scatter_add(0, flat, w).reshape(shape)
        if density:
            vol = torch.ones(shape, dtype=input.dtype)
            for j, e in enumerate(edges):
                sh = [1] * len(shape)
                sh[j] = -1
                vol = vol * (e[1:] - e[:-1]).reshape(sh)
            hist = hist / (hist.sum() * vol)
    return _hdd_result(hist, tuple(edges))


# ---- native norms ----

@_function
def native_layer_norm(input, normalized_shape, weight, bias, eps):
    axis = input.dim() - len(normalized_shape)
    dims = tuple(range(axis, input.dim()))
    mean = input.mean(dims, keepdim=True) if dims else input.clone()
    var = ((input - mean) ** 2).mean(dims, keepdim=True) if dims else torch.zeros_like(input)
    rstd = torch.rsqrt(var + eps)
    out = (input - mean) * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean.detach(), rstd.detach()


@_function
def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    dims = (0,) + tuple(range(2, input.dim()))
    shape = [1, -1] + [1] * (input.dim() - 2)
    if training:
        mean = input.mean(dims)
        var = input.var(dims, unbiased=False)
        invstd = torch.rsqrt(var + eps)
        if running_mean is not None:
            n = input.numel() // input.shape[1]
            with torch.no_grad():
                running_mean.mul_(1 - momentum).add_(mean.detach() * momentum)
                running_var.mul_(1 - momentum).add_(
                    var.detach() * (n / max(n - 1, 1)) * momentum)
        out = (input - mean.reshape(shape)) * invstd.reshape(shape)
        save_mean, save_invstd = mean.detach(), invstd.detach()
    else:
        out = (input - running_mean.reshape(shape)) * torch.rsqrt(
            running_var.reshape(shape) + eps)
        save_mean = torch.empty(0, dtype=input.dtype)
        save_invstd = torch.empty(0, dtype=input.dtype)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out, save_mean, save_invstd


def install(cls):
    base = _C._TensorBase
    for name, fn in _METHODS.items():
        if not hasattr(base, name):
            setattr(cls, name, fn)
    cls.mH = property(_mH)
    cls.H = property(_H)
    _install_overrides(cls)


# ---- wrappers over torch._C functions for the cases the kernels leave out ----
# Each keeps the C function for the common call and handles the rest here;
# install() and torch/__init__.py put them in place of the C names.

_C_einsum = _C.einsum
_C_unique = _C.unique
_C_normal = _C.normal
_C_bernoulli = _C.bernoulli
_C_unique_consecutive = _C.unique_consecutive
_C_repeat_interleave = _C.repeat_interleave
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def einsum(*args):
    """torch.einsum: the C kernel, after ellipses are named and repeated
    subscripts in one operand are taken as diagonals."""
    if not args or not isinstance(args[0], str):
        return _C_einsum(*args)
    eq = args[0]
    ops = list(args[1:])
    if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
        ops = list(ops[0])
    if "." not in eq and not any(len(set(t)) != len(t) for t in
                                 eq.replace(" ", "").split("->")[0].split(",")):
        return _C_einsum(eq, *ops)
    eq = eq.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ops):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(ops) > len(terms) else
                           "einsum(): fewer operands were provided than specified in the equation")
    free = [c for c in _LETTERS if c not in eq]
    n_ell = 0
    for t, op in zip(terms, ops):
        if "..." in t:
            n_ell = max(n_ell, op.dim() - (len(t) - 3))
    ell = "".join(free[:n_ell])
    named = []
    for t, op in zip(terms, ops):
        if "..." in t:
            k = op.dim() - (len(t) - 3)
            t = t.replace("...", ell[n_ell - k:] if k else "")
        named.append(t)
    if arrow:
        out = rhs.replace("...", ell)
    else:
        counts = {}
        for t in named:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    new_ops = []
    for i, (t, op) in enumerate(zip(named, ops)):
        while len(set(t)) != len(t):
            c = next(c for c in t if t.count(c) > 1)
            p1 = t.index(c)
            p2 = t.index(c, p1 + 1)
            op = op.diagonal(0, p1, p2)
            t = t[:p1] + t[p1 + 1:p2] + t[p2 + 1:] + c
        named[i] = t
        new_ops.append(op)
    return _C_einsum(",".join(named) + "->" + out, *new_ops)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(repeats): arange repeated
        reps = input
        if reps.dim() > 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return torch.arange(reps.numel()).repeat_interleave(reps)
    if not isinstance(repeats, torch.Tensor) or repeats.numel() == 1 and repeats.dim() == 0:
        if dim is None:
            return _C_repeat_interleave(input, repeats)
        return _C_repeat_interleave(input, repeats, dim)
    if repeats.dim() > 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else dim % max(x.dim(), 1)
    size = x.shape[d] if x.dim() else 1
    reps = repeats.tolist()
    if len(reps) == 1:
        reps = reps * size
    if len(reps) != size:
        raise RuntimeError("repeats must have the same size as input along dim")
    if any(r < 0 for r in reps):
        raise RuntimeError("repeats can not be negative")
    idx = torch.tensor([i for i, r in enumerate(reps) for _ in range(r)], dtype=torch.int64)
    return x.index_select(d, idx)


def _rows(input, dim):
    """input with dim swapped to the front, as a list of row tuples (the
    slices along dim). PyTorch 1.13's unique_dim flattens each slice of
    input.transpose(dim, 0) (not movedim), so rows compare in that order."""
    x = input.transpose(dim, 0)
    width = 1
    for n in x.shape[1:]:
        width *= n
    return x, [tuple(r) for r in x.reshape(x.shape[0], width).tolist()]


def _unique_rows(input, dim, consecutive, return_inverse, return_counts):
    dim = dim % max(input.dim(), 1)
    x, rows = _rows(input, dim)
    n = len(rows)
    order = list(range(n)) if consecutive else sorted(range(n), key=lambda i: rows[i])
    firsts, inverse, counts = [], [0] * n, []
    for i in order:
        if not firsts or rows[i] != rows[firsts[-1]]:
            firsts.append(i)
            counts.append(0)
        counts[-1] += 1
        inverse[i] = len(firsts) - 1
    vals = x.index_select(0, torch.tensor(firsts, dtype=torch.int64)).transpose(0, dim)
    out = [vals]
    if return_inverse:
        out.append(torch.tensor(inverse, dtype=torch.int64))
    if return_counts:
        out.append(torch.tensor(counts, dtype=torch.int64))
    return out[0] if len(out) == 1 else tuple(out)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        return _unique_rows(input, dim, False, return_inverse, return_counts)
    return _C_unique(input, sorted, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        return _unique_rows(input, dim, True, return_inverse, return_counts)
    return _C_unique_consecutive(input, return_inverse, return_counts)


# normal and bernoulli are differentiable in PyTorch 1.13 with a zero
# gradient (derivatives.yaml: zeros for mean, std and p): the draws are made
# without recording, then joined to the inputs that require grad by a node
# whose backward gives zeros of their shapes.
def _zero_grad_forward(ctx, out, *inputs):
    ctx.specs = [(t.shape, t.dtype) for t in inputs]
    return out.clone()


def _zero_grad_backward(ctx, grad):
    return (None,) + tuple(torch.zeros(shape, dtype=dtype) for shape, dtype in ctx.specs)



def _with_zero_grad(name, draw, args, kwargs):
    inputs = [a for a in list(args) + list(kwargs.values())
              if isinstance(a, torch.Tensor) and a.requires_grad]
    if not inputs or not torch.is_grad_enabled() or kwargs.get("out") is not None:
        return draw(*args, **kwargs)
    with torch.no_grad():
        out = draw(*args, **kwargs)
    return _lazy_function(name, _zero_grad_forward, _zero_grad_backward).apply(out, *inputs)


def normal(*args, **kwargs):
    return _with_zero_grad("NormalBackward", _C_normal, args, kwargs)


def bernoulli(*args, **kwargs):
    if len(args) > 1 or kwargs.get("p") is not None:  # a number p: no gradient
        return _C_bernoulli(*args, **kwargs)
    return _with_zero_grad("BernoulliBackward0", _C_bernoulli, args, kwargs)


# torch.NAME and Tensor.NAME replaced by the wrappers above
OVERRIDES = {"einsum": einsum, "unique": unique, "unique_consecutive": unique_consecutive,
             "repeat_interleave": repeat_interleave, "normal": normal, "bernoulli": bernoulli}
_METHOD_OVERRIDES = ("unique", "unique_consecutive", "repeat_interleave", "bernoulli")


def copy_docs():
    """Give the wrappers the docstrings torch._C's functions and methods
    carry (attached by torch._torch_docs and torch._tensor_docs)."""
    for name, fn in OVERRIDES.items():
        fn.__doc__ = getattr(_C, name).__doc__
    for name in _METHOD_OVERRIDES:
        doc = getattr(_C._TensorBase, name).__doc__
        if doc:
            OVERRIDES[name].__doc__ = OVERRIDES[name].__doc__ or doc


def _install_overrides(cls):
    for name in _METHOD_OVERRIDES:
        setattr(cls, name, OVERRIDES[name])


# ---- the smaller names of torch 1.13's surface ----

# torch.NAME_(input, ...): PyTorch's function spelling of in-place methods
INPLACE_FUNCTIONS = (
    "abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_",
    "arctan_", "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_",
    "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_",
    "erfc_", "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_", "i0_", "log10_",
    "log1p_", "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_",
    "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_",
    "square_", "tan_", "tanh_", "trunc_", "xlogy_", "gcd_", "lcm_", "ldexp_", "index_put_")


def _inplace_function(name):
    def fn(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)
    fn.__name__ = name
    return fn


# torch.NAME_copy: the view op's result as a tensor of its own
COPY_OF = ("alias", "as_strided", "detach", "diagonal", "expand", "permute", "select", "slice",
           "split", "split_with_sizes", "squeeze", "t", "transpose", "unbind", "unfold",
           "unsqueeze", "view")


def _slice_view(input, dim=0, start=None, end=None, step=1):
    sl = [slice(None)] * input.dim()
    sl[dim] = slice(start, end, step)
    return input[tuple(sl)]


def _copy_function(name):
    def fn(input, *args, **kwargs):
        if name == "alias":
            v = input.view_as(input)
        elif name == "slice":
            v = _slice_view(input, *args, **kwargs)
        else:
            v = getattr(input, name)(*args, **kwargs)
        if isinstance(v, (tuple, list)):
            return type(v)(t.clone() for t in v)
        return v.clone()
    fn.__name__ = name + "_copy"
    return fn


@_function
def unsafe_chunk(input, chunks, dim=0):
    return torch.chunk(input, chunks, dim)


@_function
def unsafe_split(input, split_size, dim=0):
    return torch.split(input, split_size, dim)


@_function
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return torch.split(input, list(split_sizes), dim)


def _range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
          requires_grad=False):
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    if end is None:
        start, end = 0, start
    dtype = dtype or _C.get_default_dtype()
    n = int(math.floor((end - start) / step)) + 1
    r = (torch.arange(n, dtype=torch.float64) * step + start).to(dtype)
    return r.requires_grad_() if requires_grad else r


_range.__name__ = "range"
FUNCTIONS["range"] = _range


@_function
def rsub(input, other, *, alpha=1):
    """rsub(input, other, *, alpha=1) -> Tensor

    other - alpha * input: subtraction with the operands swapped (what
    number - tensor computes).

    Example::

        >>> torch.rsub(torch.tensor([1.0, 2.0]), 10)
        tensor([9., 8.])
    """
    if not isinstance(input, torch.Tensor):
        raise TypeError("rsub(): argument 'input' (position 1) must be Tensor, not %s"
                        % type(input).__name__)
    if isinstance(other, torch.Tensor):
        r = torch.sub(other, input, alpha=alpha)
        name = "RsubBackward0"
    else:
        # a Python number stays a scalar (it does not widen input's dtype)
        r = (-input if alpha == 1 else input * -alpha) + other
        name = "RsubBackward1"
    if r.grad_fn is not None:
        torch._C._set_grad_fn_name(r, name)
    return r


@_function
def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None,
                  requires_grad=False):
    r = torch.tensor(float(s) if not isinstance(s, bool) else s,
                     dtype=dtype or _C.get_default_dtype())
    return r.requires_grad_() if requires_grad else r


@_function
def fill(input, value):
    return torch.full_like(input, value) if not isinstance(value, torch.Tensor) else \
        value.to(input.dtype).expand(input.shape).clone()


@_function
def detach(input):
    return input.detach()


@_function
def vander(x, N=None, increasing=False):
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    if n == 0:
        return x.new_empty(x.shape[0], 0)
    x = x if x.is_floating_point() or x.dtype == torch.int64 else x.to(torch.int64)
    cols = [torch.ones_like(x)]
    for _ in range(1, n):
        cols.append(cols[-1] * x)
    out = torch.stack(cols, 1)
    return out if increasing else out.flip(1)


@_function
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    if isinstance(obj, torch.Tensor):
        r = obj.to(dtype) if dtype is not None else obj
        r = r.clone() if copy and r is obj else r
    else:
        r = torch.as_tensor(obj, dtype=dtype)
        if copy:
            r = r.clone()
    return r.requires_grad_() if requires_grad else r


@_function
def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    import numpy as np
    names = {torch.float32: np.float32, torch.float64: np.float64, torch.int64: np.int64,
             torch.int32: np.int32, torch.int16: np.int16, torch.int8: np.int8,
             torch.uint8: np.uint8, torch.bool: np.bool_, torch.float16: np.float16}
    if dtype not in names:
        raise TypeError(f"frombuffer: dtype {dtype} is not available in nndb")
    r = torch.from_numpy(np.frombuffer(buffer, dtype=names[dtype], count=count, offset=offset))
    return r.requires_grad_() if requires_grad else r


@_function
def get_device(input):
    return -1


@_method
def fill_diagonal_(input, fill_value, wrap=False):
    if input.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if input.dim() > 2 and len(set(input.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    n = min(input.shape)
    if input.dim() == 2:
        rows, cols = input.shape
        stride = cols + 1
        stop = rows * cols if wrap and rows > cols else n * cols
        pos = torch.arange(0, min(stop, input.numel()), stride)
        if not wrap:
            pos = pos[:n]
    else:
        step = sum(input.stride()) if input.is_contiguous() else None
        pos = torch.arange(n) * (step or 1)
    flat = input.view(-1) if input.is_contiguous() else None
    if flat is None:
        raise RuntimeError("fill_diagonal_: nndb fills a contiguous tensor's diagonal")
    flat[pos] = fill_value
    return input


@_method
def resize(input, *sizes):
    warnings.warn("non-inplace resize is deprecated")
    return input.clone().resize_(*sizes)


@_method
def resize_as(input, tensor):
    warnings.warn("non-inplace resize_as is deprecated")
    return input.clone().resize_(tensor.shape)


@_method
def map2_(input, x, y, callable):
    xs, ys = x.expand(input.shape).tolist(), y.expand(input.shape).tolist()
    cur = input.tolist()

    def walk(a, b, c):
        if isinstance(a, list):
            return [walk(p, q, r) for p, q, r in zip(a, b, c)]
        return callable(a, b, c)
    res = walk(cur, xs, ys) if input.dim() else callable(cur, xs, ys)
    input.copy_(torch.tensor(res, dtype=input.dtype))
    return input


def _add_surface(names):
    for n in INPLACE_FUNCTIONS:
        if n not in names and hasattr(torch.Tensor, n):
            names[n] = _inplace_function(n)
    for n in COPY_OF:
        names.setdefault(n + "_copy", _copy_function(n))
    for n in ("is_conj", "is_neg", "is_inference"):
        if n not in names and hasattr(torch.Tensor, n):
            names[n] = getattr(torch.Tensor, n)
    for flag in ("has_lapack", "has_openmp"):
        names.setdefault(flag, True)  # OpenBLAS's LAPACK; threads through the engine's pool
    for flag in ("has_mkl", "has_spectral"):
        names.setdefault(flag, False)
    names.setdefault("pi", math.pi)
    names.setdefault("e", math.e)
    names.setdefault("inf", math.inf)
    names.setdefault("nan", math.nan)


@_method
def unsafe_chunk(input, chunks, dim=0):
    return torch.chunk(input, chunks, dim)


@_method
def unsafe_split(input, split_size, dim=0):
    return torch.split(input, split_size, dim)


@_method
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return torch.split(input, list(split_sizes), dim)


@_method
def is_distributed(input):
    return False


@_method
def is_set_to(input, tensor):
    return (input.data_ptr() == tensor.data_ptr() and tuple(input.shape) == tuple(tensor.shape)
            and tuple(input.stride()) == tuple(tensor.stride()))


@_method
def to_dense(input, dtype=None):
    return input if dtype is None else input.to(dtype)


@_function
def pdist(input, p=2):
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    n = input.shape[0]
    i, j = triu_indices(n, n, 1)
    return cdist(input, input, p)[i, j] if n > 1 else input.new_zeros(0)


@_function
def frobenius_norm(input, dim=(), keepdim=False):
    dims = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
    sq = input * input
    return (sq.sum(dims, keepdim=keepdim) if dims else sq.sum()).sqrt()


# thread and precision settings PyTorch exposes; nndb has one pool and float32
# matmuls in float32 always
_SETTINGS = {"interop_threads": 1, "matmul_precision": "highest", "debug_mode": 0}


@_function
def get_num_interop_threads():
    return _SETTINGS["interop_threads"]


@_function
def set_num_interop_threads(num):
    _SETTINGS["interop_threads"] = int(num)


@_function
def init_num_threads():
    return None


@_function
def get_float32_matmul_precision():
    return _SETTINGS["matmul_precision"]


@_function
def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid float32 matmul precision: {precision}")
    _SETTINGS["matmul_precision"] = precision


@_function
def get_deterministic_debug_mode():
    return _SETTINGS["debug_mode"]


@_function
def set_deterministic_debug_mode(debug_mode):
    modes = {"default": 0, "warn": 1, "error": 2}
    _SETTINGS["debug_mode"] = modes.get(debug_mode, debug_mode)


@_function
def is_distributed(input):
    return False

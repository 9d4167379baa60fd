"""torch.histogram: counts of a float tensor's elements in bins, as
PyTorch 1.13 computes them.

bins is a count (equal-width bins over range, or over the input's min and
max when range is None) or a 1-D tensor of increasing edges. Every bin but
the last holds [left, right); the last also holds its right edge; elements
outside the edges are not counted. weight gives each element's weight;
density divides the counts by their total times the bin width. The result
is (hist, bin_edges), a torch.return_types.histogram.
"""

import torch

__all__ = ["histogram"]


class histogram_result(tuple):
    """torch.return_types.histogram: (hist, bin_edges)."""

    __slots__ = ()
    n_fields = 2
    _fields = ("hist", "bin_edges")

    def __new__(cls, hist, bin_edges):
        return super().__new__(cls, (hist, bin_edges))

    @property
    def hist(self):
        return self[0]

    @property
    def bin_edges(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.histogram(\nhist={self[0]!r},\nbin_edges={self[1]!r})"


histogram_result.__name__ = histogram_result.__qualname__ = "histogram"
histogram_result.__module__ = "torch.return_types"


def _upper_bound(edges, xs):
    """std::upper_bound's answer for each of xs, step for step (PyTorch's
    kernel searches bins given as a tensor so, sorted or not)."""
    first = torch.zeros(xs.shape, dtype=torch.int64)
    count = torch.full(xs.shape, edges.numel(), dtype=torch.int64)
    while bool((count > 0).any()):
        half = count // 2
        middle = (first + half).clamp(max=edges.numel() - 1)
        left = xs < edges[middle]
        active = count > 0
        first = torch.where(active & ~left, middle + 1, first)
        count = torch.where(active, torch.where(left, half, count - half - 1), count)
    return first


def _edges(x, bins, range):
    if isinstance(bins, torch.Tensor):
        if bins.dim() != 1:
            raise RuntimeError("torch.histogram(): bins tensor should have one dimension, but got "
                               f"{bins.dim()} dimensions")
        return bins.to(x.dtype), False
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if range is not None:
        lo, hi = float(range[0]), float(range[1])
    elif x.numel() == 0:
        lo, hi = 0.0, 1.0  # PyTorch's range for no data
    else:
        lo, hi = float(x.min()), float(x.max())
    if lo > hi:
        raise RuntimeError(f"torch.histogram(): min should not exceed max, but got min {lo} "
                           f"max {hi} for dimension 0")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return torch.linspace(lo, hi, bins + 1, dtype=x.dtype), True


def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """histogram(input, bins=100, *, range=None, weight=None, density=False, out=None) -> (Tensor hist, Tensor bin_edges)

    A histogram of the elements of a float tensor, as a named tuple: bins is a
    number of equal bins between the smallest and largest element (or range,
    a (min, max) pair), or a 1-D tensor of the bin edges. weight gives each
    element a weight (default 1); density=True normalizes so that the
    histogram integrates to 1.

    Example::

        >>> x = torch.tensor([1.0, 2.0, 1.0, 4.0])
        >>> torch.histogram(x, bins=3)
        torch.return_types.histogram(
        hist=tensor([2., 1., 1.]),
        bin_edges=tensor([1., 2., 3., 4.]))
    """
    if not input.dtype.is_floating_point:
        names = {torch.int64: "Long", torch.int32: "Int", torch.int16: "Short",
                 torch.int8: "Char", torch.uint8: "Byte", torch.bool: "Bool"}
        raise RuntimeError('"histogramdd" not implemented for '
                           f"'{names.get(input.dtype, str(input.dtype))}'")
    x = input.detach().reshape(-1)
    edges, uniform = _edges(x, bins, range)
    n = edges.numel() - 1
    w = None if weight is None else weight.detach().reshape(-1).to(x.dtype)
    hist = torch.zeros(max(n, 0), dtype=x.dtype)
    if n > 0 and x.numel():
        lo, hi = edges[0], edges[-1]
        inside = (x >= lo) & (x <= hi)
        xs = x[inside]
        if uniform:
            pos = ((xs - lo) * n / (hi - lo)).floor().long().clamp(0, n - 1)
            # The computed bin may miss by one where rounding moved an edge.
            pos = pos - (edges[pos] > xs).long()
            up = (pos + 1 < n) & (edges[(pos + 1).clamp(max=n)] <= xs)
            pos = pos + up.long()
        else:
            pos = (_upper_bound(edges, xs) - 1).clamp(0, n - 1)
        ones = torch.ones(xs.numel(), dtype=x.dtype) if w is None else w[inside]
        hist.index_add_(0, pos, ones)
    if density:
        widths = edges[1:] - edges[:-1]
        hist = hist / (hist.sum() * widths)
    result = histogram_result(hist, edges)
    if out is not None:
        out[0].resize_(hist.shape).copy_(hist)
        out[1].resize_(edges.shape).copy_(edges)
        return histogram_result(out[0], out[1])
    return result

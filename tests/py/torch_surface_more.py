# Smaller names of torch 1.13 (python/torch/_tensor_ops.py) and behaviours
# of the composites OpInfo does not sample.
import warnings

import torch

warnings.filterwarnings("ignore")
torch.manual_seed(0)
x = torch.randn(3, 4)
print(torch.abs_(x.clone()), torch.clamp_(x.clone(), -0.5, 0.5), torch.sigmoid_(x.clone()))
print(torch.diagonal_copy(x), torch.t_copy(x).shape, torch.select_copy(x, 1, 2))
print(torch.slice_copy(x, 1, 1, 3, 1), [t.shape for t in torch.split_copy(x, 2, 1)])
print(torch.unsafe_chunk(x, 2), torch.unsafe_split(x, 1))
print(torch.range(0, 1, 0.25), torch.range(1, 4, dtype=torch.int64))
print(torch.scalar_tensor(3), torch.fill(x, 2.5), torch.vander(torch.tensor([1, 2, 3])),
      torch.vander(torch.tensor([1., 2., 3.]), 4, increasing=True))
print(torch.asarray([1, 2]), torch.frombuffer(bytearray(b"\x01\x02\x03\x04"), dtype=torch.uint8))
print(torch.pi, torch.e, torch.inf, torch.nan != torch.nan, torch.strided, torch.channels_last,
      torch.contiguous_format, torch.preserve_format)
print(torch.zeros(3, 4).fill_diagonal_(5), torch.zeros(5, 2).fill_diagonal_(1, wrap=True),
      torch.zeros(2, 2, 2).fill_diagonal_(7))
print(x.to("cpu", torch.float64, False, True).dtype, x.double(memory_format=torch.preserve_format).dtype)

# quantile / nanquantile: every interpolation, keepdim, q as a tensor
y = torch.tensor([[1., 7, 3, 4], [2, float("nan"), 9, 0]])
for how in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(how, torch.quantile(y[0], 0.4, interpolation=how),
          torch.nanquantile(y, torch.tensor([0.1, 0.5]), dim=1, keepdim=True, interpolation=how))
print(torch.quantile(y, 0.5, dim=1), torch.nanmedian(y, 1), torch.nanmedian(y))
print(torch.mode(torch.tensor([[1, 2, 2, 3], [4, 4, 5, 5]]), 1))

# searches
s = torch.tensor([1, 3, 5, 7, 9])
v = torch.tensor([[3, 6, 9], [0, 10, 5]])
print(torch.searchsorted(s, v), torch.searchsorted(s, v, right=True),
      torch.searchsorted(s, v, side="right", out_int32=True), torch.searchsorted(s, 4))
print(torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([2, 4]),
                         sorter=torch.tensor([1, 2, 0])))
print(torch.bucketize(v, s), torch.bucketize(v, s, right=True))
print(torch.isin(v, s), torch.isin(v, s, invert=True), torch.isin(3, s))

# unique over a dim, einsum forms
m = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
print(torch.unique(m, dim=0, return_inverse=True, return_counts=True))
print(torch.unique_consecutive(torch.tensor([[1, 1, 2], [1, 1, 2]]), dim=1, return_counts=True))
a, b = torch.randn(2, 3, 3), torch.randn(2, 3)
print(torch.einsum("bii->b", a), torch.einsum("...ij,...j->...i", a, b), torch.einsum("ii", a[0]),
      torch.einsum("bij", a).shape, torch.einsum("i,i", b[0], b[1]))
print(torch.repeat_interleave(torch.tensor([2, 0, 1])),
      torch.tensor([[1, 2], [3, 4]]).repeat_interleave(torch.tensor([1, 2]), dim=0))

# writes at computed positions, with their gradients
w = torch.zeros(3, 3, dtype=torch.float64, requires_grad=True)
src = torch.ones(3, dtype=torch.float64, requires_grad=True)
out = torch.diagonal_scatter(w, src * 2) + torch.select_scatter(w, src, 0, 1)
out.sum().backward()
print(out, w.grad, src.grad)
print(torch.index_put(torch.zeros(4), (torch.tensor([1, 1, 3]),), torch.tensor(1.), accumulate=True))
print(torch.zeros(2, 3).masked_scatter(torch.tensor([[True, False, True], [False, True, False]]),
                                       torch.arange(6.)))
print(torch.zeros(5).scatter_reduce(0, torch.tensor([0, 0, 2, 4]), torch.tensor([3., 1, 2, 5]),
                                    "amax", include_self=False))
print(torch.ones(3).index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2., 3, 4]), "prod"))

# statistics
obs = torch.tensor([[1., 2, 4, 7], [0, 1, 1, 3]])
print(torch.cov(obs), torch.cov(obs, fweights=torch.tensor([1, 2, 1, 1]),
                                aweights=torch.tensor([0.5, 1, 1, 2])), torch.corrcoef(obs))
print(torch.cdist(obs.t()[:2], obs.t(), p=1), torch.cdist(obs.t()[:2], obs.t()))
print(torch.trapezoid(obs, dim=1), torch.trapezoid(obs, torch.tensor([0., 1, 3, 4])),
      torch.cumulative_trapezoid(obs, dx=0.5), torch.trapz(obs[0], obs[1]))
print(torch.gradient(obs), torch.gradient(obs[0], spacing=(torch.tensor([0., 1, 3, 4]),),
                                          edge_order=2))
print(torch.renorm(obs, 2, 0, 3.0), torch.histogramdd(obs.t(), bins=[2, 3]))
print(torch.atleast_3d(torch.tensor(1.)).shape, torch.block_diag(torch.ones(1, 2), torch.tensor(3)))
print(torch.combinations(torch.tensor([1, 2, 3]), 2, with_replacement=True),
      torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([5, 6])),
      torch.tril_indices(3, 4, 1), torch.triu_indices(4, 3, -1), torch.logspace(0, 3, 4, base=2))

pts = torch.tensor([[0., 1], [3, 5], [1, 1], [2, 2]])
print(torch.pdist(pts), torch.pdist(pts, p=1), torch.frobenius_norm(pts), pts.unsafe_chunk(2),
      torch.get_num_interop_threads() >= 1, pts.is_distributed(), pts.to_dense() is pts)

# errors in PyTorch's words
for f in (lambda: torch.quantile(y, 1.5), lambda: torch.quantile(y.long(), 0.5),
          lambda: torch.block_diag(torch.ones(1, 1, 1)), lambda: torch.combinations(y),
          lambda: torch.tensor([1.]).mT, lambda: torch.ones(2, 3, 4).H):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])

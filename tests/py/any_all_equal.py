"""any/all over every element read the tensor in place (the fast path of torch.isnan(loss).any()): NaN, -0.0, empty, bool, uint8 (kept as uint8), ints, 0-dim, views, complex, and the same with dim= and keepdim=; torch.equal and allclose on contiguous tensors (NaN unequal, -0.0 equal, mixed dtypes promoted)."""
import torch
torch.manual_seed(0)
ts = [torch.tensor([0., 0.]), torch.tensor([0., float('nan')]), torch.tensor([1., -0.0]), torch.tensor([], dtype=torch.float64), torch.tensor([True, True]),
      torch.tensor([True, False]), torch.tensor([0, 0], dtype=torch.uint8), torch.tensor([3, 0], dtype=torch.uint8), torch.tensor([5, 7], dtype=torch.uint8),
      torch.tensor([0, 2**40]), torch.tensor([1, 2], dtype=torch.int16), torch.tensor([0], dtype=torch.int8), torch.tensor(0.0), torch.tensor(2.5),
      torch.tensor([1+0j, 0j]), torch.ones(3, 4)[:, 1], torch.zeros(2, 3).t(), torch.randn(1000) > 5, torch.randn(1000) > -50, torch.tensor([-0.0])]
for t in ts:
    print(t.any(), t.all(), torch.any(t), torch.all(t), t.any(0) if t.dim() else "", t.all(dim=-1, keepdim=True) if t.dim() else "")
x = torch.randn(512, 4096)
print(torch.isnan(x).any(), (x == x).all(), (x > 100).any(), x.all(), (x * 0).any())
cases = [(torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64)), (torch.tensor([0.0]), torch.tensor([-0.0])),
 (torch.tensor([float('nan')]), torch.tensor([float('nan')])), (torch.tensor([1, 2]), torch.tensor([1., 2.])),
 (torch.ones(2, 3), torch.ones(3, 2)), (torch.ones(2, 3), torch.ones(2, 3).t().contiguous().t()), (torch.ones(0), torch.ones(0)),
 (torch.tensor(True), torch.tensor(True)), (torch.ones(3), torch.ones(1).expand(3)), (torch.tensor([1+1j]), torch.tensor([1+1j])),
 (torch.ones(2, 2), torch.ones(2)), (torch.arange(6.).view(2, 3)[:, 1:], torch.tensor([[1., 2.], [4., 5.]]))]
for a, b in cases:
    try: print(torch.equal(a, b), a.equal(b))
    except Exception as e: print(type(e).__name__, e)
try: print(torch.equal(torch.ones(2), 1))
except Exception as e: print(type(e).__name__, str(e).splitlines()[0])

# scatter/gather/index_add kernels (engine/ops/ops_index.c) beyond what
# OpInfo samples: negative indices (refused, as PyTorch), bounds errors in PyTorch's words, every
# integer dtype, 2-D along each dim, big 1-D adds, and the gradients.
import torch

torch.manual_seed(0)


def err(fn):
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])


x = torch.zeros(5)
print(x.scatter_add(0, torch.tensor([4, 4, 0, 4]), torch.ones(4)))
err(lambda: x.scatter_add(0, torch.tensor([-1, 0]), torch.ones(2)))
err(lambda: torch.arange(5.).gather(0, torch.tensor([2, -5])))
err(lambda: x.index_add(0, torch.tensor([-1]), torch.ones(1)))
err(lambda: x.scatter_add(0, torch.tensor([1, 7]), torch.ones(2)))
err(lambda: x.scatter_add(0, torch.tensor([1, -6]), torch.ones(2)))
err(lambda: x.gather(0, torch.tensor([5])))
err(lambda: x.index_add(0, torch.tensor([9]), torch.ones(1)))
print(x.gather(0, torch.zeros(0, dtype=torch.uint8)))

for dt in (torch.float64, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
    acc = torch.zeros(4, dtype=dt)
    idx = torch.tensor([0, 1, 1, 3, 3, 3])
    print(dt, acc.scatter_add(0, idx, torch.ones(6, dtype=dt)).tolist(),
          acc.index_add(0, idx, torch.full((6,), 2, dtype=dt)).tolist(),
          torch.arange(6, dtype=dt).gather(0, idx).tolist())

m = torch.arange(12.).reshape(3, 4)
i0 = torch.tensor([[2, 0, 1, 1], [0, 0, 2, 1]])
i1 = torch.tensor([[3, 0], [1, 1], [2, 3]])
print(m.gather(0, i0), m.gather(1, i1))
print(torch.zeros(3, 4).scatter_add(0, i0, torch.ones(2, 4)))
print(torch.zeros(3, 4).scatter_add(1, i1, torch.ones(3, 2)))
print(torch.zeros(3, 4).scatter(1, i1, torch.full((3, 2), 7.)))
print(torch.zeros(3, 4).index_add(1, torch.tensor([3, 3, 0]), torch.ones(3, 3)))
print(m.t().gather(1, i0.t()))  # a transposed (non-contiguous) input

n = 10**6
src = torch.rand(n, dtype=torch.float64)
idx = torch.randint(0, 1000, (n,))
a = torch.zeros(1000, dtype=torch.float64).scatter_add(0, idx, src)
b = torch.zeros(1000, dtype=torch.float64).index_add(0, idx % 1000, src)
print(round(float(a.sum()), 6), bool(torch.allclose(a, b)))
src32 = src.float()
a32 = torch.zeros(1000).scatter_add(0, idx, src32)
print(bool(torch.allclose(a32.double(), a, rtol=1e-4)), round(float(src32.gather(0, idx).double().sum()), 3))

w = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
s = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
out = w.scatter_add(0, i0, s) * torch.arange(12.).reshape(3, 4)
out.sum().backward()
print(w.grad, s.grad)
print(torch.autograd.gradcheck(lambda w: w.gather(1, i1), (w,)))
print(torch.autograd.gradcheck(lambda s: torch.zeros(3, 4, dtype=torch.float64).index_add(
    0, torch.tensor([2, 2]), s), (s,)))

# scatter_add / index_add of a long index into few slots: at two threads
# each thread sums its share, still an out-of-bounds index fails.
torch.manual_seed(4)
big_src, big_idx = torch.randn(300000), torch.randint(0, 100, (300000,))
ref = torch.zeros(100, dtype=torch.float64).scatter_add(0, big_idx, big_src.double())
for t in (1, 2):
    torch.set_num_threads(t)
    a = torch.zeros(100).scatter_add(0, big_idx, big_src)
    b = torch.ones(100).index_add(0, big_idx, big_src)
    print(t, bool(torch.allclose(a.double(), ref, atol=1e-3)),
          bool(torch.allclose(b.double(), ref + 1, atol=1e-3)))
    bad = big_idx.clone()
    bad[250000] = 100
    try:
        torch.zeros(100).scatter_add(0, bad, big_src)
    except RuntimeError as e:
        print(t, "RuntimeError", str(e).splitlines()[0])
torch.set_num_threads(1)

# torch.unique's order, inverse and counts as PyTorch 1.13's CPU kernel
# gives them: sorted=False is the iteration order of the C++ hash set the
# kernel fills (libstdc++'s: hashes, bucket counts, rehashes), for every
# dtype and around the sizes where the table grows (13, 29, 59, ... buckets);
# NaNs, -0.0 and 0.0; sorted=True; unique(dim=) orders the slices of
# input.transpose(dim, 0) lexicographically. The same script runs under
# PyTorch 1.13 and under nndb; the outputs must be equal.
import torch

torch.manual_seed(0)
nan = float("nan")
cases = [torch.arange(20), torch.arange(40).flip(0), torch.tensor([1.0, 2.0, 3.0, 0.5]),
         torch.tensor([10, 20, 30, 1, 2, 3]), torch.tensor([-1, -2, 5, -1, 2 ** 40, -2 ** 40]),
         torch.tensor([True, False, True]), torch.tensor([False]),
         torch.tensor([nan, 1.0, nan, -0.0, 0.0, 2.0]), torch.tensor([0.0, -0.0]),
         torch.tensor([], dtype=torch.float32), torch.tensor(3.5), torch.randn(3, 4, 5)]
for n in (1, 12, 13, 14, 28, 30, 60, 130, 700):
    cases += [torch.randint(-50, 50, (n,)), torch.randn(n), torch.randn(n).double(),
              (torch.randn(n) * 3).round(), torch.randint(0, 200, (n,)).to(torch.uint8),
              torch.randint(-100, 100, (n,)).to(torch.int8),
              torch.randint(-100, 100, (n,)).to(torch.int16),
              torch.randint(-100, 100, (n,)).to(torch.int32), torch.randn(n).to(torch.bfloat16)]
for c in cases:
    for s in (False, True):
        r = torch.unique(c, sorted=s, return_inverse=True, return_counts=True)
        print(c.dtype, s, [x.tolist() for x in r])
    print(" method", c.unique(sorted=False).tolist(), c.unique(return_counts=True)[1].tolist())

# unique over slices: lexicographic on input.transpose(dim, 0)
x = (torch.rand(5, 5, 5) > 0.5).float()
for dim in (0, 1, 2, -1):
    u, i, c = torch.unique(x, dim=dim, return_inverse=True, return_counts=True)
    print("dim", dim, u.tolist(), i.tolist(), c.tolist())
y = (torch.rand(3, 4, 2, 3) > 0.5).long()
print(torch.unique(y, dim=1).tolist(), torch.unique_consecutive(y, dim=1).tolist())

"""isnan, isinf, isfinite and logical_not of float32/float64 (contiguous, through the typed loop, and views, through the walk) give PyTorch's answers for 0, -0, NaN of either sign, infinities, subnormals and the largest finite values; ints and bools; an empty tensor."""
import torch
vals = [0.0, -0.0, 1.0, -2.5, float('nan'), -float('nan'), float('inf'), -float('inf'), 1e-45, 3.4e38, 1e308]
for dt in (torch.float32, torch.float64):
    x = torch.tensor(vals, dtype=dt)
    print(torch.isnan(x), torch.isinf(x), torch.isfinite(x), torch.logical_not(x), x.isnan().any())
    print(torch.isnan(x.view(1, -1).t()), torch.isinf(x[::2]))
    # the bools are 0 and 1 underneath (a -inf must not store another true value)
    print(torch.isinf(x).int(), torch.isnan(x).sum(), torch.isfinite(x).to(torch.uint8))
print(torch.isnan(torch.tensor([1, 2])), torch.isinf(torch.tensor([True])), torch.isfinite(torch.tensor([3], dtype=torch.int8)))
y = torch.randn(1000, 37); y[5, 3] = float('nan'); y[999, 36] = float('inf')
print(torch.isnan(y).nonzero(), torch.isinf(y).nonzero(), torch.isfinite(y).sum(), torch.isnan(torch.empty(0)))

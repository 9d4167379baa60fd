# nn.CrossMapLRN2d (PyTorch's legacy cross-channel LRN with its own
# backward): values and gradients equal PyTorch's for odd and even sizes,
# more and fewer channels than the window.
import torch
from torch import nn


def r(t):
    return [round(v, 6) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


torch.manual_seed(0)
for size, c in ((3, 5), (2, 4), (5, 3), (4, 6)):
    m = nn.CrossMapLRN2d(size, alpha=0.3, beta=0.6, k=1.5)
    x = torch.randn(2, c, 2, 3, dtype=torch.float64, requires_grad=True)
    y = m(x)
    (y * torch.arange(y.numel(), dtype=torch.float64).view(y.shape).cos()).sum().backward()
    print(m, r(y)[:12], r(x.grad)[:12], r(x.grad.sum((0, 2, 3))))
x = torch.randn(1, 3, 2, 2)
print(r(nn.CrossMapLRN2d(3)(x)))
try:
    nn.CrossMapLRN2d(3)(torch.randn(3, 2, 2))
except AssertionError:
    print("AssertionError")

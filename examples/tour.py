# A tour of tensors and autograd (the script twin of tour_tensors_autograd.ipynb).
# Run: build/nndb run examples/tour.py   (or build/nndb python examples/tour.py)
import torch

from nndb.plot import hist

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(x.shape, x.dtype)
y = x @ x.T + 1
print(y)
print(y.sum().item(), y.mean().item())
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
loss = (w ** 2).sum()
print(loss)
loss.backward()
print(w.grad)
print(torch.allclose(w.grad, 2 * w.detach()))
torch.manual_seed(0)
a = torch.randn(1000)
print(f"{a.mean().item():.3f} {a.std().item():.3f}")
hist(a, bins=20, title='randn(1000)')  # outside a notebook: the histogram as text bars

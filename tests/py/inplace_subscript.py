# Augmented assignment into part of a tensor with history (x[i] op= y):
# the values and the gradients are PyTorch's.
import torch

x = torch.ones(3, requires_grad=True)
h = x * 1
h[0] *= 2
h[1:] += torch.tensor([1.0, 2.0])
h.sum().backward()
print(h, x.grad)

w = torch.arange(6.0, requires_grad=True)
m = w.view(2, 3) * 1
m[1] -= m[0] * 3
m[:, 2] /= 2
(m * torch.arange(6.0).view(2, 3)).sum().backward()
print(m, w.grad)

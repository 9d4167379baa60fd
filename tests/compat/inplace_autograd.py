# In-place writes on tensors with autograd history, as course code makes them:
# a Linear layer's `out += bias`, `h *= 2`, masked and indexed assignment,
# and the errors torch gives for a leaf, a needed output and an int tensor.
import torch
w = torch.randn(3, 4, requires_grad=True, generator=torch.Generator().manual_seed(0))
b = torch.randn(4, requires_grad=True, generator=torch.Generator().manual_seed(1))
x = torch.ones(2, 3)
h = x @ w
h += b
print(h.grad_fn.name(), h.requires_grad, h.is_leaf)
h *= 2
print(h.grad_fn.name())
h.sum().backward()
print(w.grad, b.grad)
a = torch.ones(3) * 1.0
a2 = a.clone().requires_grad_()
c = a2 * 3
c.mul_(b[:3])
c.sum().backward()
print(a2.grad, b.grad)
try:
    y = torch.tanh(w)
    y += 1
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:40])
try:
    w += 1
except RuntimeError as e:
    print("RuntimeError:", e)
z = torch.zeros(4)
z += b
print(z.grad_fn.name(), z.requires_grad)
q = w * 1
q[1] += 5
q[:, 0] = 0
print(q)
w.grad = None
(q * q).sum().backward()
print(w.grad)
i = torch.tensor([1, 2, 3])
try:
    i /= 2
except RuntimeError as e:
    print("RuntimeError:", e)
m = w * 1
m[m > 0.5] = 0.5
m.masked_fill_(m < -0.5, -0.5)
m.clamp_(-0.4, 0.4)
m /= 2
w.grad = None
(m * m).sum().backward()
print(m, w.grad)
e = torch.zeros(2, 4)
e[0] = b
e[1] += b * 2
e.sum().backward()
print(b.grad)

# torch.autograd.Function: saved tensors, ctx attributes, needs_input_grad,
# several outputs, non-tensor arguments, grad_fn names, errors raised in
# backward and wrong gradient counts, no_grad, a Function in a training step.
import torch
import torch.nn as nn
from torch.autograd import Function


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y


class Split(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, ga, gb):
        return ga * 2 + gb * 3


class MulConst(Function):
    @staticmethod
    def forward(ctx, x, k, w):
        ctx.k = k
        ctx.save_for_backward(x, w)
        print("needs_input_grad", ctx.needs_input_grad)
        return x * k * w

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        gx = g * ctx.k * w if ctx.needs_input_grad[0] else None
        gw = g * ctx.k * x if ctx.needs_input_grad[2] else None
        return gx, None, gw


class Bad(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g


class Boom(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        raise ValueError("boom in backward")


x = torch.tensor([0.5, 1.0, -1.0], requires_grad=True)
y = Exp.apply(x)
print(y, y.grad_fn.name(), type(y.grad_fn).__name__, y.requires_grad, y.is_leaf)
print(type(y.grad_fn).__module__, y.grad_fn.needs_input_grad, repr(y.grad_fn).split(" object")[0])
print(isinstance(y.grad_fn, torch.autograd.function.FunctionCtx))
y.sum().backward()
print(x.grad)

a, b = Split.apply(x)
print(a.requires_grad, b.requires_grad, a.shape, a)
x.grad = None
(a.sum() + (b * b).sum()).backward()
print(x.grad)

w = torch.tensor([2.0, -1.0, 0.5])
out = MulConst.apply(x, 3.0, w)
x.grad = None
out.sum().backward()
print(out, x.grad)
w.requires_grad_(True)
x.grad = None
MulConst.apply(x.detach(), 2.0, w).sum().backward()
print(x.grad, w.grad)

try:
    Bad.apply(x, x).sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
try:
    Boom.apply(x).sum().backward()
except ValueError as e:
    print("ValueError", e)
with torch.no_grad():
    print(Exp.apply(x).requires_grad)
print(Exp.apply(torch.ones(2)).requires_grad, Exp.apply(torch.ones(2)).grad_fn)
try:
    Exp()(x)
except RuntimeError as e:
    print(str(e)[:60])


class MyLinearFn(Function):
    @staticmethod
    def forward(ctx, inp, weight, bias):
        ctx.save_for_backward(inp, weight)
        return inp @ weight.t() + bias

    @staticmethod
    def backward(ctx, g):
        inp, weight = ctx.saved_tensors
        return g @ weight, g.t() @ inp, g.sum(0)


class MyLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.tensor([[0.1, -0.2], [0.3, 0.4]]))
        self.bias = nn.Parameter(torch.tensor([0.01, -0.02]))

    def forward(self, inp):
        return MyLinearFn.apply(inp, self.weight, self.bias)


m = MyLinear()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
data = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, 0.3]])
for step in range(3):
    opt.zero_grad()
    loss = (m(data) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(m.weight.data, m.bias.data)

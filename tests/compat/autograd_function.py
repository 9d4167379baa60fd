import torch
from torch.autograd import Function

class MyReLU(Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input

class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None

x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
y = MyReLU.apply(x)
print(y, y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__)
(y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad)
x.grad = None
z = Scale.apply(x, 3.0)
z.sum().backward()
print(z.detach(), x.grad)
with torch.no_grad():
    w = MyReLU.apply(x)
print(w.requires_grad)
# finite differences against the hand-written backward
xd = torch.tensor([0.5, -0.2, 1.5], dtype=torch.float64, requires_grad=True)
out = Scale.apply(MyReLU.apply(xd), 2.0).sum()
out.backward()
eps = 1e-6
num = []
for i in range(3):
    xp = xd.detach().clone(); xp[i] += eps
    xm = xd.detach().clone(); xm[i] -= eps
    num.append(((Scale.apply(MyReLU.apply(xp), 2.0).sum() - Scale.apply(MyReLU.apply(xm), 2.0).sum()) / (2 * eps)).item())
print([round(v, 4) for v in num], [round(v, 4) for v in xd.grad.tolist()])

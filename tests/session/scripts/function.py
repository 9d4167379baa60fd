# torch.autograd.Function: the user's backward is a node of the graph.
import torch
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(y.grad_fn.name(), y.grad_fn.op)  # expect: CubeBackward custom
y.sum().backward()
print(x.grad.tolist())  # expect: [3.0, 12.0]
class Broken(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
Broken.apply(x).sum().backward()  # expect error: ValueError: in Broken.backward: RuntimeError: function BrokenBackward returned an incorrect number of gradients (expected 1, got 2)
Cube(x)  # expect error: RuntimeError: Cube is an autograd.Function: call Cube.apply(...), not Cube(...)

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
print(y.grad_fn.name(), type(y.grad_fn).__name__)  # expect: CubeBackward CubeBackward
y.sum().backward()
print(x.grad.tolist())  # expect: [3.0, 12.0]
class Broken(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
Broken.apply(x).sum().backward()  # expect error: RuntimeError: function BrokenBackward returned an incorrect number of gradients (expected 1, got 2)
# Calling an instance is the legacy API, which torch 1.13 refuses.
Cube()(x)  # expect error: RuntimeError: Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd function with static forward method.

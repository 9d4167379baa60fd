"""torch.autograd.gradcheck: passes on right gradients (tuple and single-tensor
inputs, several outputs), the error without inputs that require grad, and
the warning for float32 inputs."""
import torch
import warnings
from torch.autograd import gradcheck
torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.double, requires_grad=True)
w = torch.randn(4, 2, dtype=torch.double, requires_grad=True)
print(gradcheck(lambda a, b: (a @ b).tanh(), (x, w)))
print(gradcheck(lambda a: a.softmax(-1), x))
print(torch.autograd.gradcheck(lambda a, b: (a * b.sum()).exp(), (x, w), eps=1e-6, atol=1e-4))
try:
    gradcheck(lambda a: a * a, (torch.randn(3, dtype=torch.double),))
except ValueError as e:
    print("ValueError", e)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        gradcheck(lambda a: a * 2, (torch.randn(3, requires_grad=True),))
    except RuntimeError:
        pass
    print([str(m.message) for m in caught])

# `from torch import *` as course code writes it: Python's own float, int
# and bool stay (PyTorch's __all__ has no dtypes), torch's functions and
# classes come in (its max() does shadow Python's, as in PyTorch).
from torch import *
import torch

print(float("-inf"), int("3"), bool(0))
print(type(float), type(int), type(bool))
for name in ("float32", "int64", "float", "long", "nn", "optim", "autograd"):
    print(name, name in dir() and not isinstance(globals()[name], type))
print(callable(randn), callable(zeros), isinstance(Tensor, type), isinstance(device, type))
print(zeros(2, dtype=torch.float32), ones(1, dtype=torch.int64), max(tensor([1, 5, 2])))
with no_grad():
    print(is_grad_enabled())

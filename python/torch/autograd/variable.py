"""torch.autograd.Variable: since PyTorch 0.4 a Variable is a Tensor;
Variable(t, requires_grad=...) still makes one."""

import torch


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, torch.Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(cls, data, requires_grad=False, volatile=False):
        t = data.detach() if isinstance(data, torch.Tensor) else torch.tensor(data)
        return t.requires_grad_(requires_grad) if requires_grad else t

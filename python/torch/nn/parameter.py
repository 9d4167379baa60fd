"""torch.nn.Parameter: a tensor that a Module registers as one of its
parameters when it is assigned as an attribute."""

import torch
from torch import _C


class Parameter(torch.Tensor):
    # _tensor.Tensor.__deepcopy__ rebuilds subclasses that carry this flag
    # as type(self)(data, requires_grad).
    _is_param = True
    __module__ = "torch.nn.parameter"

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        return _C._make_subclass(cls, data, requires_grad)

    def __init__(self, data=None, requires_grad=True):
        pass

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.detach().clone(), self.requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class UninitializedParameter(Parameter):
    """Lazy modules are not supported; the name exists for isinstance checks."""

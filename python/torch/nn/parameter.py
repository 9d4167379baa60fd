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


class UninitializedTensorMixin:
    """A parameter or buffer of a lazy module before its first forward: no
    shape yet; materialize(shape) gives it one (torch.empty's values) and
    turns it into cls_to_become."""

    def materialize(self, shape, device=None, dtype=None):
        if dtype is None:
            dtype = self.data.dtype
        self.data = torch.empty(shape, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. "
            "This error usually happens in `load_state_dict` when trying to load "
            "an uninitialized parameter into an initialized one. "
            "Call `forward` to initialize the parameters before accessing their attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. "
            "Call `forward` to initialize the parameters before calling "
            "`module.share_memory()`.")

    def __repr__(self):
        return f"<{self.__class__.__name__}>"

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))


def is_lazy(param):
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    cls_to_become = Parameter
    __module__ = "torch.nn.parameter"

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return _C._make_subclass(cls, torch.empty(0, dtype=dtype), requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, None, self.data.dtype)
        memo[id(self)] = result
        return result


class UninitializedBuffer(UninitializedTensorMixin, torch.Tensor):
    cls_to_become = torch.Tensor
    __module__ = "torch.nn.parameter"

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        return _C._make_subclass(cls, torch.empty(0, dtype=dtype), requires_grad)

    def __init__(self, requires_grad=False, device=None, dtype=None):
        pass

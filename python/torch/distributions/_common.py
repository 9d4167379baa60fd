"""Shared by the distributions of this package (not a PyTorch module)."""
from numbers import Number

import torch


def scalar_or_shape(args, tensor):
    """batch_shape: () when every parameter was a Python number, else the
    broadcast parameter's shape."""
    if all(isinstance(a, Number) for a in args):
        return torch.Size()
    return tensor.size()


def expand_params(self, cls, names, batch_shape, _instance):
    """expand() for distributions whose parameters all have the batch shape."""
    new = self._get_checked_instance(cls, _instance)
    batch_shape = torch.Size(batch_shape)
    for n in names:
        if n in self.__dict__:
            setattr(new, n, getattr(self, n).expand(batch_shape))
    super(cls, new).__init__(batch_shape, validate_args=False)
    new._validate_args = self._validate_args
    return new

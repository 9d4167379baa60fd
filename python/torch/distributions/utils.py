"""Helpers shared by the distributions (same names as PyTorch's
torch.distributions.utils)."""
from functools import update_wrapper
from numbers import Number

import torch
import torch.nn.functional as F

euler_constant = 0.57721566490153286060


def broadcast_all(*values):
    """Turn numbers into tensors (dtype of the first tensor argument, else the
    default dtype) and broadcast everything to one shape."""
    for v in values:
        if not isinstance(v, (torch.Tensor, Number)):
            raise ValueError('Input arguments must all be instances of numbers.Number, '
                             'torch.Tensor or objects implementing __torch_function__.')
    like = next((v for v in values if isinstance(v, torch.Tensor)), None)
    if like is None:
        kw = dict(dtype=torch.get_default_dtype())
    else:
        kw = dict(dtype=like.dtype, device=like.device)
    vals = [v if isinstance(v, torch.Tensor) else torch.tensor(v, **kw) for v in values]
    return torch.broadcast_tensors(*vals)


def _standard_normal(shape, dtype, device):
    # PyTorch draws with normal_() on a fresh tensor: same random stream
    return torch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """Sum the last `dim` dimensions."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    p = clamp_probs(probs)
    if is_binary:
        return torch.log(p) - torch.log1p(-p)
    return torch.log(p)


class lazy_property:
    """Computed on first access (with grad enabled), then stored on the
    instance so the next access is a plain attribute."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, owner=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    def __init__(self, wrapped):
        property.__init__(self, wrapped)

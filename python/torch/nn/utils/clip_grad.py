"""Gradient clipping as torch 1.13 does it: the total norm of all gradients
(a norm of the per-gradient norms), then every gradient scaled by
min(max_norm / (total + 1e-6), 1) in place."""

import warnings

import torch
from torch import _C


def _grads(parameters):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False) -> Tensor

    Rescale the gradients of parameters (an iterable of tensors, e.g.
    model.parameters(), or one tensor) in place so that their total norm, the
    norm_type-norm of all the gradients taken together as one vector, is at
    most max_norm; gradients already within it are left alone. Returns the
    total norm before clipping (worth logging). Call it after
    loss.backward() and before optimizer.step(); it keeps an exploding
    gradient (RNNs, transformers) from wrecking a step.

    - norm_type: the p of the norm (float('inf') for the largest absolute
      value).
    - error_if_nonfinite: raise RuntimeError when the total norm is nan or
      inf, instead of scaling the gradients by it.

    Example::

        >>> w = torch.tensor([1.0, 1.0], requires_grad=True)
        >>> (w * torch.tensor([3.0, 4.0])).sum().backward()
        >>> torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)
        tensor(5.)
        >>> w.grad
        tensor([0.6000, 0.8000])
    """
    grads = _grads(parameters)
    return _C._nn_clip_grad_norm(grads, float(max_norm), float(norm_type), error_if_nonfinite)


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False) -> Tensor

    Deprecated (with a warning): use clip_grad_norm_, which is the same.
    """
    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of "
                  "torch.nn.utils.clip_grad_norm_.", stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value):
    """clip_grad_value_(parameters, clip_value) -> None

    Clamp every element of the gradients of parameters to [-clip_value,
    clip_value], in place (each element on its own, unlike clip_grad_norm_,
    which keeps the gradient's direction). Call it between backward() and
    step().

    Example::

        >>> w = torch.tensor([1.0, 1.0], requires_grad=True)
        >>> (w * torch.tensor([3.0, -0.5])).sum().backward()
        >>> torch.nn.utils.clip_grad_value_([w], clip_value=1.0)
        >>> w.grad
        tensor([ 1.0000, -0.5000])
    """
    _C._nn_clip_grad_value(_grads(parameters), float(clip_value))

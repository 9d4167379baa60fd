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
    grads = _grads(parameters)
    return _C._nn_clip_grad_norm(grads, float(max_norm), float(norm_type), error_if_nonfinite)


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of "
                  "torch.nn.utils.clip_grad_norm_.", stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value):
    _C._nn_clip_grad_value(_grads(parameters), float(clip_value))

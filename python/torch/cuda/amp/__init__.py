"""torch.cuda.amp as PyTorch 1.13 has it on a machine without CUDA:
autocast("cuda") and GradScaler() warn and disable themselves. The CPU
forms are torch.autocast("cpu") and torch.amp.GradScaler("cpu")."""
import functools
import warnings

import torch
from torch.amp.autocast_mode import autocast as _autocast
from torch.amp.grad_scaler import GradScaler as _CpuGradScaler, OptState  # noqa: F401

__all__ = ["autocast", "custom_fwd", "custom_bwd", "GradScaler"]


class autocast(_autocast):
    """``torch.cuda.amp.autocast(args...)`` is ``torch.autocast("cuda", args...)``."""

    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


def _cast(value, dtype):
    if isinstance(value, torch.Tensor):
        is_eligible = value.is_floating_point() and value.dtype is not torch.float64
        return value.to(dtype) if is_eligible else value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, dict):
        return {_cast(k, dtype): _cast(v, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, dtype) for v in value)
    return value


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Decorator for an autograd.Function's forward (CUDA autocast: never on in nndb)."""
    if fwd is None:
        return functools.partial(custom_fwd, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._fwd_used_autocast = torch.is_autocast_enabled()
        if cast_inputs is None or not torch.is_autocast_enabled():
            return fwd(*args, **kwargs)
        with autocast(enabled=False):
            return fwd(*_cast(args, cast_inputs), **_cast(kwargs, cast_inputs))
    return decorate_fwd


def custom_bwd(bwd):
    """Decorator for an autograd.Function's backward."""
    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(args[0]._fwd_used_autocast):
            return bwd(*args, **kwargs)
    return decorate_bwd


class GradScaler(_CpuGradScaler):
    """PyTorch 1.13's torch.cuda.amp.GradScaler: without CUDA it warns and
    disables itself. torch.amp.GradScaler("cpu") runs the algorithm."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        if enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.")
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval,
                         enabled=False)

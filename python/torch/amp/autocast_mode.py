"""torch.autocast with PyTorch 1.13's semantics.

The state (enabled, dtype, nesting) lives in torch._C (binding/py_autocast.c)
under PyTorch's own names. While CPU autocast is on, the ops of 1.13's CPU
lists cast their operands: matmul, mm, bmm, linear (in C), addmm, baddbmm,
addbmm, conv1d/2d/3d (here, through lower()) to bfloat16; the losses, 3-D
pooling, conv_transpose and the other float32-list ops to float32
(through fp32()). CPU autocast takes bfloat16 only in 1.13: another dtype
warns and disables it, as there.
"""
import functools
import warnings

import torch
from torch import _C

__all__ = ["autocast_decorator", "autocast"]

_on = _C.is_autocast_cpu_enabled
_cast = _C._autocast_cast


def lower(*tensors):
    """The tensors as autocast's lower-precision policy casts them (a tuple;
    unchanged while autocast is off)."""
    return _cast(0, *tensors) if _on() else tensors


def fp32(*tensors):
    """The tensors as autocast's float32 policy casts them."""
    return _cast(1, *tensors) if _on() else tensors


def autocast_decorator(autocast_instance, func):
    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)
    return decorate_autocast


class autocast(object):
    """Mixed precision for a region: ops in PyTorch 1.13's lower-precision
    list run in ``dtype`` (bfloat16 on the CPU), those of its float32 list
    in float32, the rest in their inputs' dtype. A context manager or a
    decorator; regions nest and ``enabled=False`` turns it off inside."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self.device = device_type
        if self.device == "cuda":
            self.fast_dtype = torch.get_autocast_gpu_dtype()
        elif self.device == "cpu":
            self.fast_dtype = torch.get_autocast_cpu_dtype()
        else:
            raise RuntimeError("User specified autocast device_type must be 'cuda' or 'cpu'")
        self._cache_enabled = torch.is_autocast_cache_enabled()
        if enabled and self.device == "cuda":
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
            enabled = False
        if dtype is not None:
            self.fast_dtype = dtype
        if cache_enabled is not None:
            self._cache_enabled = cache_enabled
        if self.device == "cpu" and self.fast_dtype not in (torch.bfloat16,):
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                          "CPU Autocast only supports dtype of torch.bfloat16 currently.")
            enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = torch.is_autocast_cache_enabled()
        if self.device == "cpu":
            self.prev = torch.is_autocast_cpu_enabled()
            self.prev_fastdtype = torch.get_autocast_cpu_dtype()
            torch.set_autocast_cpu_enabled(self._enabled)
            torch.set_autocast_cpu_dtype(self.fast_dtype)
        else:
            self.prev = torch.is_autocast_enabled()
            self.prev_fastdtype = torch.get_autocast_gpu_dtype()
            torch.set_autocast_gpu_dtype(self.fast_dtype)
            torch.set_autocast_enabled(self._enabled)
        torch.autocast_increment_nesting()
        torch.set_autocast_cache_enabled(self._cache_enabled)

    def __exit__(self, exc_type, exc_val, exc_tb):
        if torch.autocast_decrement_nesting() == 0:
            torch.clear_autocast_cache()
        if self.device == "cpu":
            torch.set_autocast_cpu_enabled(self.prev)
            torch.set_autocast_cpu_dtype(self.prev_fastdtype)
        else:
            torch.set_autocast_enabled(self.prev)
            torch.set_autocast_gpu_dtype(self.prev_fastdtype)
        torch.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        return autocast_decorator(self, func)

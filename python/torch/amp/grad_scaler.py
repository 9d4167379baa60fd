"""Loss scaling (GradScaler) with the algorithm of PyTorch 1.13's
torch.cuda.amp.GradScaler, runnable on the CPU.

PyTorch 1.13 has GradScaler only for CUDA: on a machine without CUDA,
torch.cuda.amp.GradScaler() warns and disables itself (scale() returns its
input, step() just steps), and nndb's torch.cuda.amp.GradScaler does the
same. The algorithm itself is here as torch.amp.GradScaler("cpu"), the
name PyTorch 2.3 gave it:

- scale(loss): loss * scale (init_scale = 2**16);
- unscale_(optimizer): grads *= 1/scale, and found_inf = 1 when any grad
  holds an inf or a NaN (the kernel _amp_foreach_non_finite_check_and_unscale_);
- step(optimizer): unscale_ if not done, then optimizer.step() only when
  no inf/NaN was found (a skipped step);
- update(): found_inf -> scale *= backoff_factor, tracker = 0; otherwise
  tracker += 1 and, every growth_interval clean steps, scale *=
  growth_factor (kept only when finite), tracker = 0 (_amp_update_scale_).
"""
import warnings
from collections import abc, defaultdict
from enum import Enum

import torch

__all__ = ["OptState", "GradScaler"]


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state():
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class GradScaler(object):
    def __init__(self, device="cpu", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        if str(device) != "cpu":
            raise RuntimeError(f"GradScaler: nndb computes on the CPU; device {device!r} is not "
                               "available")
        self._device = "cpu"
        self._enabled = enabled
        if self._enabled:
            assert growth_factor > 1.0, "The growth factor must be > 1.0."
            assert backoff_factor < 1.0, "The backoff factor must be < 1.0."
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname):
        fix = ("This may indicate your script did not use scaler.scale(loss or outputs) earlier "
               "in the iteration.")
        assert self._scale is not None, f"Attempted {funcname} but _scale is None.  " + fix
        assert self._growth_tracker is not None, \
            f"Attempted {funcname} but _growth_tracker is None.  " + fix
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self):
        self._scale = torch.full((1,), self._init_scale, dtype=torch.float32)
        self._growth_tracker = torch.full((1,), self._init_growth_tracker, dtype=torch.int32)

    def scale(self, outputs):
        """outputs * scale (a tensor, or an iterable of tensors)."""
        if not self._enabled:
            return outputs
        if self._scale is None:
            self._lazy_init_scale_growth_tracker()

        def apply_scale(val):
            if isinstance(val, torch.Tensor):
                return val * self._scale.to(val.dtype) if val.dtype == torch.float64 \
                    else val * self._scale
            if isinstance(val, abc.Iterable):
                it = map(apply_scale, val)
                return type(val)(it) if isinstance(val, (list, tuple)) else it
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")
        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16):
        grads = []
        with torch.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if (not allow_fp16) and param.grad.dtype == torch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    grads.append(param.grad)
            torch._amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale)
        return {torch.device("cpu"): found_inf}

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale, in place, and note
        whether any was inf or NaN."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        elif state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = torch.full((1,), 0.0, dtype=torch.float32)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """optimizer.step() unless the unscaled gradients held an inf or NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        assert len(state["found_inf_per_device"]) > 0, \
            "No inf checks were recorded for this optimizer."
        retval = None
        if not sum(v.item() for v in state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale=None):
        """Back off after an inf/NaN, grow after growth_interval clean steps."""
        if not self._enabled:
            return
        _scale, _growth_tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = ("new_scale should be a float or a 1-element torch.FloatTensor with "
                          "requires_grad=False.")
                assert isinstance(new_scale, torch.Tensor) and new_scale.numel() == 1, reason
                assert new_scale.requires_grad is False, reason
                self._scale.copy_(new_scale)
        else:
            found_infs = [found_inf for state in self._per_optimizer_states.values()
                          for found_inf in state["found_inf_per_device"].values()]
            assert len(found_infs) > 0, "No inf checks were recorded prior to update."
            found_inf_combined = found_infs[0]
            for f in found_infs[1:]:
                found_inf_combined = found_inf_combined + f
            torch._amp_update_scale_(_scale, _growth_tracker, found_inf_combined,
                                     self._growth_factor, self._backoff_factor,
                                     self._growth_interval)
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def get_scale(self):
        if self._enabled:
            return self._init_scale if self._scale is None else self._scale.item()
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None \
                else self._growth_tracker.item()
        return 0

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        return {"scale": self.get_scale(),
                "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()} if self._enabled else {}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self):
        state = self.__dict__.copy()
        if self._enabled:
            assert len(self._per_optimizer_states) == 0, \
                "A GradScaler instance may only be pickled at the beginning of an iteration, " \
                "or at the end after scaler.update()."
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
            state["_per_optimizer_states"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        if self._enabled:
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)


def _amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale):
    """grads *= inv_scale in place; found_inf = 1.0 when any grad is not finite."""
    for g in grads:
        if not bool(torch.isfinite(g).all()):
            found_inf.fill_(1.0)
        g.mul_(inv_scale.to(g.dtype) if g.dtype != inv_scale.dtype else inv_scale)


def _amp_update_scale_(current_scale, growth_tracker, found_inf, growth_factor, backoff_factor,
                       growth_interval):
    """The scale's update, as 1.13's CUDA kernel computes it (in float32)."""
    if found_inf.item():
        current_scale.mul_(backoff_factor)
        growth_tracker.fill_(0)
    else:
        successful = growth_tracker.item() + 1
        if successful == growth_interval:
            new_scale = current_scale * growth_factor
            if bool(torch.isfinite(new_scale).all()):
                current_scale.copy_(new_scale)
            growth_tracker.fill_(0)
        else:
            growth_tracker.fill_(successful)
    return current_scale

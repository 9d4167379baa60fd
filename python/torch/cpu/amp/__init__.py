"""torch.cpu.amp: autocast on the CPU, bfloat16 by default."""
import torch
from torch.amp.autocast_mode import autocast as _autocast


class autocast(_autocast):
    """``torch.cpu.amp.autocast(args...)`` is ``torch.autocast("cpu", args...)``."""

    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


__all__ = ["autocast"]

"""torch.amp: mixed precision. torch.autocast (autocast_mode.py) and, as
PyTorch 2.3 spells it, torch.amp.GradScaler("cpu") (grad_scaler.py): loss
scaling usable on the CPU for float16 experiments. docs/mixed-precision.md."""
from .autocast_mode import autocast  # noqa: F401
from .grad_scaler import GradScaler, OptState  # noqa: F401
from . import _lists  # noqa: E402
_lists._install()

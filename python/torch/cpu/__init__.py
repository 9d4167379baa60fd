"""torch.cpu: the CPU's namespace (torch.cpu.amp.autocast)."""
from . import amp  # noqa: F401


def is_available():
    return True

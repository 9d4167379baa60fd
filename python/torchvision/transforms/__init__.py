"""torchvision.transforms (see transforms.py for the random draws)."""

from . import functional  # noqa: F401
from .functional import InterpolationMode  # noqa: F401
from .transforms import *  # noqa: F401,F403

"""torch.quantization: the older name of torch.ao.quantization (1.13 keeps both)."""
from torch.ao.quantization import *  # noqa: F401,F403
from torch.ao.quantization import quantize_dynamic, QConfig  # noqa: F401

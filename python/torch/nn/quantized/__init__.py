"""torch.nn.quantized: the older name of torch.ao.nn.quantized."""
from torch.nn.quantized import dynamic  # noqa: F401

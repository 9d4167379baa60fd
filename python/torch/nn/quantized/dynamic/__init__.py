"""torch.nn.quantized.dynamic: the older name of torch.ao.nn.quantized.dynamic."""
from torch.ao.nn.quantized.dynamic import Linear  # noqa: F401

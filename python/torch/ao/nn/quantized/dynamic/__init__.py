"""torch.ao.nn.quantized.dynamic: modules whose weights are quantized ahead
of time and whose activations are quantized on the fly (Linear)."""
from .modules.linear import Linear  # noqa: F401

__all__ = ["Linear"]

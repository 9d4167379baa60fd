"""torchvision.ops: the layer blocks the model definitions use."""

from .misc import Conv2dNormActivation, ConvNormActivation

__all__ = ["Conv2dNormActivation", "ConvNormActivation"]

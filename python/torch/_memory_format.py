"""torch.memory_format and its values, and torch.layout with torch.strided.

nndb's tensors are dense in one layout (row-major strides or the strides a
view gives), so a memory format is accepted wherever PyTorch takes one
(to(), contiguous(), clone(), the dtype conversions, the *_like factories)
and changes nothing: channels_last asks for a physical order of the same
values, and every op reads values, not the order, so results are the same.
"""


class memory_format:
    __module__ = "torch"

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name

    def __reduce__(self):
        return self._name


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
legacy_contiguous_format = contiguous_format


class layout:
    """torch.layout: nndb's tensors are all dense (torch.strided)."""
    __module__ = "torch"

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name

    def __reduce__(self):
        return self._name


strided = layout("strided")

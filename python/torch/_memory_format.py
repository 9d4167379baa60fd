"""torch.memory_format and its values, and torch.layout with torch.strided.

A memory format is taken wherever PyTorch takes one (to(), contiguous(),
clone(), the dtype conversions, the *_like factories, is_contiguous()) and
lays the result out as PyTorch's does; the binding reads _name
(py_memory_format_arg, binding/py_args.c; docs/language-tensors.md,
"Layout of clone, *_like, to and contiguous").
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

"""Pooling layers: MaxPool, AvgPool, AdaptiveMaxPool, AdaptiveAvgPool,
LPPool and MaxUnpool in 1, 2 and 3 dims, with PyTorch's arguments, repr and
defaults (stride defaults to kernel_size). Each family has one forward in
its base class; a class names only its spatial rank (_nsp). Kernels:
torch._C._nn_pool."""

from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _ntuple, _pair, _single, _triple

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "LPPool1d", "LPPool2d", "MaxUnpool1d",
           "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d", "FractionalMaxPool3d"]


class _MaxPoolNd(Module):
    __constants__ = ["kernel_size", "stride", "padding", "dilation", "return_indices",
                     "ceil_mode"]

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return ("kernel_size={kernel_size}, stride={stride}, padding={padding}, "
                "dilation={dilation}, ceil_mode={ceil_mode}".format(**self.__dict__))

    def forward(self, input):
        pool = getattr(F, f"max_pool{self._nsp}d")
        return pool(input, self.kernel_size, self.stride, self.padding, self.dilation,
                    ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool1d(_MaxPoolNd):
    _nsp = 1


class MaxPool2d(_MaxPoolNd):
    _nsp = 2


class MaxPool3d(_MaxPoolNd):
    _nsp = 3


class _AvgPoolNd(Module):
    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"]

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input):
        pool = getattr(F, f"avg_pool{self._nsp}d")
        if self._nsp == 1:
            return pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                        self.count_include_pad)
        return pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                    self.count_include_pad, self.divisor_override)


class AvgPool1d(_AvgPoolNd):
    _nsp = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad


class _AvgPoolDivisor(_AvgPoolNd):
    """AvgPool2d and AvgPool3d: PyTorch keeps their arguments as given and
    adds divisor_override (AvgPool1d makes tuples and has none)."""
    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                     "divisor_override"]

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override


class AvgPool2d(_AvgPoolDivisor):
    _nsp = 2


class AvgPool3d(_AvgPoolDivisor):
    _nsp = 3


class _AdaptiveMaxPoolNd(Module):
    __constants__ = ["output_size", "return_indices"]

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return f"output_size={self.output_size}"

    def forward(self, input):
        pool = getattr(F, f"adaptive_max_pool{self._nsp}d")
        return pool(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    _nsp = 1


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    _nsp = 2


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    _nsp = 3


class _AdaptiveAvgPoolNd(Module):
    __constants__ = ["output_size"]

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"

    def forward(self, input):
        return getattr(F, f"adaptive_avg_pool{self._nsp}d")(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    _nsp = 1


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    _nsp = 2


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    _nsp = 3


class _LPPoolNd(Module):
    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return ("norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, "
                "ceil_mode={ceil_mode}".format(**self.__dict__))

    def forward(self, input):
        pool = getattr(F, f"lp_pool{self._nsp}d")
        return pool(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool1d(_LPPoolNd):
    _nsp = 1


class LPPool2d(_LPPoolNd):
    _nsp = 2


class _MaxUnpoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        tup = _ntuple(self._nsp)
        self.kernel_size = tup(kernel_size)
        self.stride = tup(stride if (stride is not None) else kernel_size)
        self.padding = tup(padding)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input, indices, output_size=None):
        unpool = getattr(F, f"max_unpool{self._nsp}d")
        return unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool1d(_MaxUnpoolNd):
    _nsp = 1


class MaxUnpool2d(_MaxUnpoolNd):
    _nsp = 2


class MaxUnpool3d(_MaxUnpoolNd):
    _nsp = 3


class FractionalMaxPool2d(Module):
    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        self.kernel_size = _pair(kernel_size)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _pair(output_size) if output_size is not None else None
        self.output_ratio = _pair(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError("FractionalMaxPool2d requires specifying either an output size, or "
                             "a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None:
            if not (0 < self.output_ratio[0] < 1 and 0 < self.output_ratio[1] < 1):
                raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        return F.fractional_max_pool2d(input, self.kernel_size, self.output_size,
                                       self.output_ratio, self.return_indices,
                                       _random_samples=self._random_samples)


class FractionalMaxPool3d(Module):
    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        self.kernel_size = _triple(kernel_size)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _triple(output_size) if output_size is not None else None
        self.output_ratio = _triple(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError("FractionalMaxPool3d requires specifying either an output size, or "
                             "a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None:
            if not all(0 < r < 1 for r in self.output_ratio):
                raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        return F.fractional_max_pool3d(input, self.kernel_size, self.output_size,
                                       self.output_ratio, self.return_indices,
                                       _random_samples=self._random_samples)

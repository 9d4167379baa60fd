"""Quantized values without a quantized dtype in the engine.

PyTorch has quantized tensor dtypes (torch.qint8, torch.quint8, ...) whose
elements are integers read through a scale and a zero point. nndb's engine
has none; a QuantizedTensor here holds the integers as an int8/uint8/int32
tensor with its scale and zero point, prints as PyTorch prints a quantized
tensor, and answers int_repr(), q_scale(), q_zero_point(), qscheme() and
dequantize(). It is what torch.quantize_per_tensor and a dynamic quantized
Linear's weight() return; ops other than these do not take it.
"""
import torch


class _QDtype:
    """torch.qint8, torch.quint8, torch.qint32: quantized dtypes by name."""

    def __init__(self, name, storage, qmin, qmax):
        self.name, self.storage, self.qmin, self.qmax = name, storage, qmin, qmax
        self.is_floating_point = False
        self.is_complex = False
        self.is_signed = qmin < 0

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return (getattr, (torch, self.name))


class _QScheme:
    """torch.per_tensor_affine and friends."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return (getattr, (torch, self.name))


qint8 = _QDtype("qint8", torch.int8, -128, 127)
quint8 = _QDtype("quint8", torch.uint8, 0, 255)
qint32 = _QDtype("qint32", torch.int32, -2 ** 31, 2 ** 31 - 1)
per_tensor_affine = _QScheme("per_tensor_affine")
per_tensor_symmetric = _QScheme("per_tensor_symmetric")
per_channel_affine = _QScheme("per_channel_affine")
per_channel_symmetric = _QScheme("per_channel_symmetric")


def _add_suffixes(tensor_str, suffixes, indent):
    # torch/_tensor_str.py's wrapping of "size=..., dtype=..." at 80 columns
    linewidth = torch.get_printoptions()["linewidth"]
    parts = [tensor_str]
    last = len(tensor_str) - tensor_str.rfind("\n") + 1
    for s in suffixes:
        if last + len(s) + 2 > linewidth:
            parts.append(",\n" + " " * indent + s)
            last = indent + len(s)
        else:
            parts.append(", " + s)
            last += len(s) + 2
    return "".join(parts) + ")"


class QuantizedTensor:
    """Integers [int_repr] read as (int_repr - zero_point) * scale."""

    is_quantized = True

    def __init__(self, int_repr, scale, zero_point, dtype, qscheme=per_tensor_affine):
        self._int = int_repr
        self._scale = float(scale)
        self._zero_point = int(zero_point)
        self.dtype = dtype
        self._qscheme = qscheme

    @property
    def shape(self):
        return self._int.shape

    def size(self, dim=None):
        return self._int.size() if dim is None else self._int.size(dim)

    def dim(self):
        return self._int.dim()

    def numel(self):
        return self._int.numel()

    def int_repr(self):
        return self._int.clone()

    def q_scale(self):
        return self._scale

    def q_zero_point(self):
        return self._zero_point

    def qscheme(self):
        return self._qscheme

    def dequantize(self):
        s = torch.tensor(self._scale, dtype=torch.float32)
        return (self._int.to(torch.float32) - self._zero_point) * s

    def __repr__(self):
        inner = repr(self.dequantize())
        inner = inner[len("tensor("):-1]
        suffixes = ["size=" + str(tuple(self.shape)), "dtype=" + repr(self.dtype),
                    "quantization_scheme=" + repr(self._qscheme),
                    "scale=" + str(self._scale), "zero_point=" + str(self._zero_point)]
        return "tensor(" + _add_suffixes(inner, suffixes, len("tensor("))


def quantize_per_tensor(input, scale, zero_point, dtype):
    """quantize_per_tensor(input, scale, zero_point, dtype) -> Tensor

    Quantize a float tensor to dtype (torch.quint8, torch.qint8 or
    torch.qint32): each value becomes round(input / scale) + zero_point,
    clamped to the dtype's range; dequantize() maps back.

    Example::

        >>> q = torch.quantize_per_tensor(torch.tensor([0.0, 0.5, 1.0]), 0.1, 10, torch.quint8)
        >>> q.int_repr()
        tensor([10, 15, 20], dtype=torch.uint8)
    """
    # round(input / scale) + zero_point, clamped to [dtype]'s range (the float32 reciprocal of
    # scale multiplies, as PyTorch's quantize_val).
    if not isinstance(dtype, _QDtype):
        raise RuntimeError(f"Quantize only works on quantized dtypes, got {dtype}")
    scale = float(scale)
    inv = 1.0 / torch.tensor(scale, dtype=torch.float32)
    q = torch.round(input.detach().to(torch.float32) * inv) + int(zero_point)
    q = q.clamp(dtype.qmin, dtype.qmax).to(dtype.storage)
    return QuantizedTensor(q, scale, zero_point, dtype)

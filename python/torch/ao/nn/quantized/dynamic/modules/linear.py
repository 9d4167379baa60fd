"""DynamicQuantizedLinear: PyTorch 1.13's dynamic int8 Linear on the CPU.

The weight is quantized once, per tensor, to qint8 with the symmetric
MinMaxObserver (scale = max|w| / 127.5, zero point 0). Each forward
quantizes the input per tensor to quint8 with the range the CPU kernels
use (reduce_range: [0, 127]) and the zero point of PyTorch's
ChooseQuantizationParams, multiplies the integers exactly (int8 x uint8 sums
in float64, which holds them exactly), and returns
acc * (input_scale * weight_scale) + bias in float32. The result equals
1.13's quantize_dynamic within float32 rounding (tests/py/quant_dynamic.py
prints the largest difference against a reference of the same steps and
the error against the float model).
"""
import torch
from torch import nn
from torch._qtensor import QuantizedTensor, qint8, quantize_per_tensor

_SMALL_SCALE = 6.1e-5


def _f32(v):
    return torch.tensor(v, dtype=torch.float32).item()


def choose_qparams(mn, mx, qmin=0, qmax=127):
    """PyTorch's ChooseQuantizationParams (quant_utils.h), without
    preserve_sparsity: the scale and zero point that map [mn, mx] (widened
    to hold 0) onto [qmin, qmax]."""
    mn, mx = min(mn, 0.0), max(mx, 0.0)
    scale = _f32((float(mx) - mn) / (qmax - qmin))
    if scale == 0.0 or scale == float("inf"):
        scale = 0.1
    if scale < _SMALL_SCALE:
        org = scale
        scale = _f32(_SMALL_SCALE)
        if mn == 0.0:
            mx = scale * (qmax - qmin)
        elif mx == 0.0:
            mn = -scale * (qmax - qmin)
        else:
            mn, mx = mn * scale / org, mx * scale / org
    zmin, zmax = qmin - mn / scale, qmax - mx / scale
    emin, emax = abs(qmin) - abs(mn / scale), abs(qmax) - abs(mx / scale)
    z = zmin if emin < emax else zmax
    z = qmin if z < qmin else qmax if z > qmax else int(round(z))  # round half to even
    return scale, z


def quantize_weight(w):
    """qint8, per tensor, symmetric: MinMaxObserver(qscheme=per_tensor_symmetric)."""
    w = w.detach().to(torch.float32)
    mn = min(w.min().item(), 0.0) if w.numel() else 0.0
    mx = max(w.max().item(), 0.0) if w.numel() else 0.0
    scale = torch.tensor(max(-mn, mx), dtype=torch.float32) / 127.5
    scale = max(scale.item(), torch.finfo(torch.float32).eps)
    return quantize_per_tensor(w, scale, 0, qint8)


class Linear(nn.Module):
    """y = x W^T + b with W in int8 and x quantized per call."""

    _version = 4

    def __init__(self, in_features, out_features, bias_=True, dtype=qint8):
        super().__init__()
        if dtype is not qint8:
            raise RuntimeError("nndb's dynamic quantized Linear takes dtype=torch.qint8 only")
        self.in_features = in_features
        self.out_features = out_features
        self.scale = 1.0
        self.zero_point = 0
        self.dtype = dtype
        self._wq = quantize_weight(torch.zeros(out_features, in_features))
        self._bias = nn.Parameter(torch.zeros(out_features)) if bias_ else None

    def _get_name(self):
        return "DynamicQuantizedLinear"

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"dtype={self.dtype!r}, qscheme={self._wq.qscheme()!r}")

    def weight(self):
        return self._wq

    def bias(self):
        return self._bias

    def set_weight_bias(self, w, b):
        self._wq = w if isinstance(w, QuantizedTensor) else quantize_weight(w)
        self._bias = None if b is None else nn.Parameter(b.detach().to(torch.float32).clone())

    def forward(self, x):
        if x.dtype != torch.float32:
            raise RuntimeError(f"expected scalar type Float but found {str(x.dtype)[6:].title()}")
        shape = x.shape
        x2 = x.detach().reshape(-1, self.in_features)
        if x2.numel():
            sx, zx = choose_qparams(x2.min().item(), x2.max().item())
        else:
            sx, zx = 0.1, 0
        inv = 1.0 / torch.tensor(sx, dtype=torch.float32)
        qx = (torch.round(x2 * inv) + zx).clamp(0, 255)
        wq = self._wq
        acc = (qx.double() - zx) @ (wq._int.double() - wq.q_zero_point()).t()
        out = acc.float() * (torch.tensor(sx, dtype=torch.float32) *
                             torch.tensor(wq.q_scale(), dtype=torch.float32))
        if self._bias is not None:
            out = out + self._bias.detach()
        return out.reshape(*shape[:-1], self.out_features)

    @classmethod
    def from_float(cls, mod):
        """The dynamic quantized Linear of a float nn.Linear."""
        if type(mod) is not nn.Linear and not isinstance(mod, nn.Linear):
            raise AssertionError("nn.quantized.dynamic.Linear.from_float only works for "
                                 "[<class 'torch.nn.modules.linear.Linear'>]")
        q = cls(mod.in_features, mod.out_features, mod.bias is not None)
        q.set_weight_bias(quantize_weight(mod.weight), mod.bias)
        return q

"""torch.ao.quantization: post-training dynamic quantization of Linear
layers to int8 (quantize_dynamic), as PyTorch 1.13 does on the CPU. nndb
has no quantized tensor dtype in its engine: see torch/_qtensor.py and
docs/mixed-precision.md for what is and is not here."""
import copy
from collections import namedtuple

import torch
from torch import nn

__all__ = ["quantize_dynamic", "QConfig", "default_dynamic_qconfig",
           "per_channel_dynamic_qconfig", "float16_dynamic_qconfig"]


class QConfig(namedtuple("QConfig", ["activation", "weight"])):
    """Which observers quantize a module's activations and weights."""


class PlaceholderObserver:
    def __init__(self, dtype=torch.float32, compute_dtype=None):
        self.dtype, self.compute_dtype = dtype, compute_dtype


class MinMaxObserver:
    def __init__(self, dtype=None, qscheme=None):
        self.dtype, self.qscheme = dtype, qscheme


def _partial(cls, **kw):
    import functools
    return functools.partial(cls, **kw)


default_dynamic_qconfig = QConfig(
    activation=_partial(PlaceholderObserver, dtype=torch.quint8, compute_dtype=torch.quint8),
    weight=_partial(MinMaxObserver, dtype=torch.qint8, qscheme=torch.per_tensor_symmetric))
float16_dynamic_qconfig = QConfig(activation=_partial(PlaceholderObserver, dtype=torch.float16),
                                  weight=_partial(PlaceholderObserver, dtype=torch.float16))
per_channel_dynamic_qconfig = QConfig(
    activation=default_dynamic_qconfig.activation,
    weight=_partial(MinMaxObserver, dtype=torch.qint8, qscheme=torch.per_channel_symmetric))


def _default_mapping():
    from torch.ao.nn.quantized import dynamic as nnqd
    return {nn.Linear: nnqd.Linear}


def _spec_for(qconfig_spec, dtype):
    if qconfig_spec is None:
        if dtype is torch.qint8:
            return {nn.Linear: default_dynamic_qconfig, nn.LSTM: default_dynamic_qconfig,
                    nn.GRU: default_dynamic_qconfig, nn.LSTMCell: default_dynamic_qconfig,
                    nn.RNNCell: default_dynamic_qconfig, nn.GRUCell: default_dynamic_qconfig}
        if dtype is torch.float16:
            raise RuntimeError("quantized::linear_prepack_fp16 is currently not supported by "
                               "ONEDNN")
        raise ValueError(f"Don't know how to quantize with default settings for {dtype}. "
                         "Provide full qconfig please")
    if isinstance(qconfig_spec, set):
        if dtype is torch.qint8:
            default = default_dynamic_qconfig
        elif dtype is torch.float16:
            raise RuntimeError("quantized::linear_prepack_fp16 is currently not supported by "
                               "ONEDNN")
        elif dtype is torch.quint8:
            default = default_dynamic_qconfig
        else:
            raise RuntimeError(f"Unknown dtype specified for quantize_dynamic: {dtype}")
        return dict.fromkeys(qconfig_spec, default)
    return dict(qconfig_spec)


def quantize_dynamic(model, qconfig_spec=None, dtype=torch.qint8, mapping=None, inplace=False):
    """Replace the model's nn.Linear layers (those the spec names, by type or
    by module name) by dynamic int8 Linear layers: weights quantized now,
    activations at each call. Returns the converted model (a copy unless
    inplace=True), in eval mode. LSTM/GRU cells named by the default spec
    stay float in nndb (PyTorch quantizes them too)."""
    spec = _spec_for(qconfig_spec, dtype)
    mapping = _default_mapping() if mapping is None else mapping
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()

    def qconfig_of(name, mod, inherited):
        if name in spec:
            return spec[name]
        return spec.get(type(mod), inherited)

    def convert(module, prefix, inherited):
        for name, child in list(module.named_children()):
            full = prefix + name
            qc = qconfig_of(full, child, inherited)
            if qc is not None and type(child) in mapping:
                setattr(module, name, mapping[type(child)].from_float(child))
            else:
                convert(child, full + ".", qc)

    root_qc = spec.get("", None)
    if root_qc is not None and type(model) in mapping:
        return mapping[type(model)].from_float(model)
    convert(model, "", root_qc)
    return model

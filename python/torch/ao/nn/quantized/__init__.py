"""torch.ao.nn.quantized: PyTorch's quantized modules. nndb has no quantized
tensors; dynamic.Linear (quantize_dynamic's int8 Linear) keeps its integers
in an int8 tensor (torch/_qtensor.py). The float modules PyTorch re-exports here (MaxPool2d, which
PyTorch's ModuleInfo lists under this name) are torch.nn's."""

_FLOAT_MODULES = ("MaxPool2d",)


def __getattr__(name):
    if name == "dynamic":
        import importlib
        return importlib.import_module(__name__ + ".dynamic")
    if name in _FLOAT_MODULES:
        import torch.nn
        value = getattr(torch.nn, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'torch.ao.nn.quantized' has no attribute '{name}'")

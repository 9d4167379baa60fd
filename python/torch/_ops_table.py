"""The op functions of torch._C exported as torch.NAME."""

from torch import _C

__all__ = []
for _name in dir(_C):
    if _name.startswith("_") or _name in ("Size", "dtype", "Stopped"):
        continue
    _obj = getattr(_C, _name)
    if callable(_obj) and not isinstance(_obj, type):
        globals()[_name] = _obj
        __all__.append(_name)
del _name, _obj

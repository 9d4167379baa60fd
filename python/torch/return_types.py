"""torch.return_types: the classes of the named tuples torch's functions
return (torch.max(x, 0) is a torch.return_types.max), so that
`isinstance(r, torch.return_types.max)` works. They are made where their
functions live (the binding's struct sequences, torch.linalg, the Python
ops); this module gathers them under their names. The few made on a
function's first call (torch._tensor_ops._result) are found here once made."""
import sys

import torch
from torch import _histogram, _linalg_legacy, _tensor_more, _tensor_ops
from torch import linalg as _linalg

globals().update(torch._C._return_types)
for _mod in (_linalg, _linalg_legacy, _tensor_more, _histogram):
    for _obj in list(vars(_mod).values()):
        if isinstance(_obj, type) and _obj.__module__ == "torch.return_types":
            _name = _obj.__name__.lstrip("_")
            _obj.__name__ = _obj.__qualname__ = _name  # "frexp", as PyTorch names it
            globals().setdefault(_name, _obj)
del _mod, _obj, _name


def __getattr__(name):
    cls = _tensor_ops._RESULT_TYPES.get(name)
    if cls is None:
        # name= and obj= keep Python's "Did you mean" suggestion
        raise AttributeError(f"module 'torch.return_types' has no attribute '{name}'",
                             name=name, obj=sys.modules[__name__])
    return cls

"""torch.nn: modules, parameters, and the functional, init and utils
namespaces, written in Python over torch._C's kernels as PyTorch's are."""

from torch.nn.parameter import (  # noqa: F401
    Parameter, UninitializedParameter, UninitializedBuffer)
from torch.nn.modules import *  # noqa: F401,F403
from torch.nn.modules import Module  # noqa: F401
from torch.nn import functional  # noqa: F401
from torch.nn import init  # noqa: F401
# `from torch.nn.modules import *` brought torch.nn.modules.utils in as
# `utils`; torch.nn.utils is the package nn/utils/, as in PyTorch.
import importlib as _importlib  # noqa: E402
utils = _importlib.import_module("torch.nn.utils")
del _importlib
from torch.nn import parallel  # noqa: F401
from torch.nn.parallel import DataParallel  # noqa: F401
from torch.nn import common_types  # noqa: F401
from torch.nn import grad  # noqa: F401


def factory_kwargs(kwargs):
    """PyTorch's helper that folds device/dtype/memory_format keywords into
    one dict (a factory_kwargs entry is merged in)."""
    if kwargs is None:
        return {}
    simple_keys = {"device", "dtype", "memory_format"}
    expected_keys = simple_keys | {"factory_kwargs"}
    if not kwargs.keys() <= expected_keys:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - expected_keys}")
    r = dict(kwargs.get("factory_kwargs", {}))
    for k in simple_keys:
        if k in kwargs:
            if k in r:
                raise TypeError(f"{k} specified twice, in **kwargs and in factory_kwargs")
            r[k] = kwargs[k]
    return r

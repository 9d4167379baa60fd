"""torch.nn: modules, parameters, and the functional, init and utils
namespaces, written in Python over torch._C's kernels as PyTorch's are."""

from torch.nn.parameter import (  # noqa: F401
    Parameter, UninitializedParameter, UninitializedBuffer)
from torch.nn.modules import *  # noqa: F401,F403
from torch.nn.modules import Module  # noqa: F401
from torch.nn import functional  # noqa: F401
from torch.nn import init  # noqa: F401
from torch.nn import utils  # noqa: F401
from torch.nn import parallel  # noqa: F401

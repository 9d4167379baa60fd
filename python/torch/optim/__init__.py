"""torch.optim: optimizers and learning-rate schedulers.

The classes are PyTorch's, in Python. SGD, Adam, AdamW, RMSprop and Adagrad
update each group with one C kernel of torch._C; the others are tensor
operations in the order of torch's single-tensor loop (add with alpha,
addcmul, addcdiv and lerp round once where torch fuses a multiply-add:
engine/ops/ops_fused.c), so float32 results are torch's bit for bit (LBFGS:
to round-off).
"""

from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adam import Adam  # noqa: F401
from .adamw import AdamW  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from . import lr_scheduler  # noqa: F401

del optimizer, sgd, adam, adamw, rmsprop, adagrad  # noqa: F821

# The optimizers a first training loop rarely takes load on first use, so
# `import torch` does not pay for them (about 2 ms); a name here behaves as
# if it had been imported above.
_LAZY = {'Adadelta': 'adadelta', 'Adamax': 'adamax', 'NAdam': 'nadam', 'RAdam': 'radam',
         'ASGD': 'asgd', 'Rprop': 'rprop', 'LBFGS': 'lbfgs', 'SparseAdam': 'sparse_adam'}


def __getattr__(name):
    import importlib
    if name == 'swa_utils':
        return importlib.import_module('.swa_utils', __name__)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'torch.optim' has no attribute '{}'".format(name))
    value = getattr(importlib.import_module('.' + module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {'swa_utils'})

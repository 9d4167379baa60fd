"""torch.optim: optimizers and learning-rate schedulers.

The classes are PyTorch's, in Python; each parameter's update is one call of
a C kernel of torch._C with the float32 rounding of torch's single-tensor
implementation.
"""

from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adam import Adam  # noqa: F401
from .adamw import AdamW  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .radam import RAdam  # noqa: F401
from .asgd import ASGD  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from . import lr_scheduler  # noqa: F401

del optimizer, sgd, adam, adamw, rmsprop, adagrad, adadelta, adamax, nadam, radam, asgd, rprop, lbfgs  # noqa: F821,E501

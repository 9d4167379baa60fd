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
from . import lr_scheduler  # noqa: F401

del optimizer, sgd, adam, adamw, rmsprop, adagrad  # noqa: F821

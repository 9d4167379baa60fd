# The names an nndb script sees, mapped onto Python + PyTorch, so that the
# same script prints the same output under both (tests/diff/run.sh).
from torch import *
import torch.nn.functional as F
from torch.nn.functional import *
from torch.nn import *
from torch.optim import *
# Names nndb provides that `from torch import *` leaves out.
from torch import set_grad_enabled, float32, float64, int64, long
# torch.nn.functional's tanh and sigmoid warn that they are deprecated.
from torch import tanh, sigmoid
# `from torch import *` replaces these builtins with tensor functions that
# reject plain Python values; nndb's versions accept both, as Python's do.
from builtins import sum, max, min, abs, round, pow, all, any, range, float, int, bool

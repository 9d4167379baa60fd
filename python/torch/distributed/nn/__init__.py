"""torch.distributed.nn: collectives that autograd can differentiate
(torch.distributed.nn.functional), for tensor- and pipeline-parallel layers."""

from torch.distributed.nn.functional import *  # noqa: F401,F403
from torch.distributed.nn import functional  # noqa: F401

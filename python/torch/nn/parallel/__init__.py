"""torch.nn.parallel: DistributedDataParallel (over MPI; docs/distributed.md) and
DataParallel (the no-GPU case: calls the module)."""

from torch.nn.parallel.distributed import DistributedDataParallel  # noqa: F401
from torch.nn.parallel.data_parallel import DataParallel, data_parallel  # noqa: F401

__all__ = ["DistributedDataParallel", "DataParallel", "data_parallel"]

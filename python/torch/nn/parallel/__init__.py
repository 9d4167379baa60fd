"""torch.nn.parallel: DistributedDataParallel (over MPI; docs/distributed.md)."""

from torch.nn.parallel.distributed import DistributedDataParallel  # noqa: F401

__all__ = ["DistributedDataParallel"]

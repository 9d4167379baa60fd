"""torch.distributed.optim: ZeroRedundancyOptimizer (ZeRO stage 1)."""

from torch.distributed.optim.zero_redundancy_optimizer import ZeroRedundancyOptimizer  # noqa: F401

__all__ = ["ZeroRedundancyOptimizer"]

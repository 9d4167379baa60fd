"""torch.distributed.fsdp: FullyShardedDataParallel over nndb's MPI group
(docs/distributed.md)."""
from torch.distributed.fsdp.fully_sharded_data_parallel import (  # noqa: F401
    FullyShardedDataParallel, ShardingStrategy, StateDictType, CPUOffload, MixedPrecision,
    BackwardPrefetch)

__all__ = ["FullyShardedDataParallel", "ShardingStrategy", "StateDictType", "CPUOffload",
           "MixedPrecision", "BackwardPrefetch"]

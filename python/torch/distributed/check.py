"""dist_check(model): do every rank's parameters agree? (nndb's own.)"""

import torch
from torch import _C


class DistCheck:
    """The answer: ok, first (the first differing parameter's name, or
    None), rank (the lowest rank where it differs, or None), message."""

    def __init__(self, ok, first, rank, message):
        self.ok = ok
        self.first = first
        self.rank = rank
        self.message = message

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return f"dist_check: {self.message}"


def dist_check(model):
    """Compare a hash of every parameter's bytes (and its sum and sum of
    squares) with rank 0's; name the first parameter that differs and on
    which rank. [model]: a Module (or a DistributedDataParallel), or a list
    of tensors."""
    from torch.distributed.distributed_c10d import _need_group
    _need_group()
    module = getattr(model, "module", model) if hasattr(model, "_reducer") else model
    if isinstance(module, torch.nn.Module):
        named = list(module.named_parameters())
    else:
        named = [(f"parameter {i}", t) for i, t in enumerate(module)]
    first, rank = _C._dist_check([t for _, t in named])
    world = _C._dist_world_size()
    if first < 0:
        return DistCheck(True, None, None, f"all {len(named)} parameters agree on {world} ranks")
    name, t = named[first]
    shape = "[" + ", ".join(str(d) for d in t.shape) + "]"
    return DistCheck(False, name, rank, f"parameters diverged: the first is {name} (shape "
                     f"{shape}), which differs on rank {rank} from rank 0")

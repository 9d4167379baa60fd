"""ZeroRedundancyOptimizer: ZeRO stage 1, PyTorch's partition.

Every rank holds the same parameters and gradients, so every rank would
compute the same update: ZeRO-1 splits that work and the optimizer's state.
The parameters are partitioned (largest first, each to the rank with the
fewest elements so far); each rank keeps an optimizer_class over its own
share only, steps it, and then every share is broadcast from its owner.
"""

import torch
from torch import _C
from torch.optim.optimizer import Optimizer

__all__ = ["ZeroRedundancyOptimizer"]

# Elements of state per parameter element, for the memory figures.
_STATE_PER_ELEMENT = {"SGD": lambda d: 1 if d.get("momentum", 0) else 0,
                      "Adam": lambda d: 3 if d.get("amsgrad") else 2,
                      "AdamW": lambda d: 3 if d.get("amsgrad") else 2,
                      "RMSprop": lambda d: 1 + bool(d.get("momentum", 0)) + bool(d.get("centered")),
                      "Adagrad": lambda d: 1}


class ZeroRedundancyOptimizer(Optimizer):
    """ZeroRedundancyOptimizer(params, optimizer_class, process_group=None,
    parameters_as_bucket_view=False, overlap_with_ddp=False, **defaults)"""

    def __init__(self, params, optimizer_class, process_group=None,
                 parameters_as_bucket_view=False, overlap_with_ddp=False, **defaults):
        from torch.distributed import distributed_c10d as c10d
        c10d._check_group("ZeroRedundancyOptimizer", process_group)
        c10d._need_group()
        if overlap_with_ddp:
            raise ValueError("ZeroRedundancyOptimizer(overlap_with_ddp=True) is not supported")
        super().__init__(params, defaults)
        self.optimizer_class = optimizer_class
        self.rank = _C._dist_rank()
        self.world_size = _C._dist_world_size()
        self._all_params = [p for g in self.param_groups for p in g["params"]]
        self._owner = self._partition_parameters()
        local_groups = []
        for g in self.param_groups:
            mine = [p for p in g["params"] if self._owner[id(p)] == self.rank]
            if mine:
                options = {k: v for k, v in g.items() if k != "params"}
                local_groups.append(dict(options, params=mine))
        # A rank with no share keeps no optimizer (it still joins every broadcast).
        self.optim = optimizer_class(local_groups, **defaults) if local_groups else None

    def _partition_parameters(self):
        sizes = [0] * self.world_size
        owner = {}
        for g in self.param_groups:
            for p in sorted(g["params"], key=lambda t: t.numel(), reverse=True):
                rank = sizes.index(min(sizes))
                owner[id(p)] = rank
                sizes[rank] += p.numel()
        return owner

    @property
    def local_state_numel(self):
        """Elements of optimizer state this rank keeps."""
        k = self._per_element()
        return sum(p.numel() for p in self._all_params if self._owner[id(p)] == self.rank) * k

    @property
    def total_state_numel(self):
        """Elements of state one unsharded optimizer would keep."""
        return sum(p.numel() for p in self._all_params) * self._per_element()

    def _per_element(self):
        rule = _STATE_PER_ELEMENT.get(self.optimizer_class.__name__)
        return rule(self.defaults) if rule else 1

    @property
    def state(self):
        return self.optim.state if self.optim is not None else {}

    @state.setter
    def state(self, value):
        # Optimizer.__init__ assigns it; this rank's state is its optimizer's.
        pass

    def step(self, closure=None):
        """Update this rank's share, then broadcast every share from its owner
        (in the parameters' order, the same on every rank)."""
        loss = None
        if self.optim is not None:
            # The local groups' hyper-parameters follow ours (a scheduler
            # changes self.param_groups).
            for mine, g in zip(self.optim.param_groups,
                               (g for g in self.param_groups
                                if any(self._owner[id(p)] == self.rank for p in g["params"]))):
                for k, v in g.items():
                    if k != "params":
                        mine[k] = v
            loss = self.optim.step(closure)
        elif closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for p in self._all_params:
                _C._dist_broadcast(p, self._owner[id(p)], False)
        return loss

    def __repr__(self):
        name = self.optimizer_class.__name__ if self.optim is not None else "no local parameters"
        mine, total = self.local_state_numel, self.total_state_numel
        here = sum(1 for p in self._all_params if self._owner[id(p)] == self.rank)
        share = 100.0 * mine / total if total else 0.0
        return (f"ZeroRedundancyOptimizer({name}, rank {self.rank} of {self.world_size} keeps "
                f"{mine} of {total} state elements ({share:.1f}%), {here} parameter"
                f"{'' if here == 1 else 's'} here)")

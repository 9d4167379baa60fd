"""DistributedDataParallel: data parallelism as PyTorch's, over MPI.

Every rank holds a whole copy of the model and sees its own slice of each
batch. At wrap time rank 0's parameters and buffers are broadcast; then each
backward pass averages the gradients across ranks, so every rank takes the
same optimizer step. The gradients go into buckets of about bucket_cap_mb
(the first at most 1 MiB) in reverse order of registration, and a bucket's
all-reduce starts as soon as the backward pass has produced all its
gradients, overlapping the rest of the pass: the engine's reducer
(torch._C._DistReducer, engine/nn_dist.c) is a hook on the executor that
sees which node last takes each parameter.
"""

import contextlib

import torch
from torch import _C
from torch.nn.modules.module import Module

__all__ = ["DistributedDataParallel"]


class DistributedDataParallel(Module):
    """DistributedDataParallel(module, device_ids=None, output_device=None,
    dim=0, broadcast_buffers=True, process_group=None, bucket_cap_mb=25,
    find_unused_parameters=False, check_reduction=False,
    gradient_as_bucket_view=False, static_graph=False)

    device_ids, output_device, dim, check_reduction and
    gradient_as_bucket_view change nothing on CPU. gradient_as_sum=True
    (nndb's, for the ddp-bugs drill) sums the gradients instead of
    averaging them."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0,
                 broadcast_buffers=True, process_group=None, bucket_cap_mb=25,
                 find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False, gradient_as_sum=False):
        super().__init__()
        from torch.distributed import distributed_c10d as c10d
        c10d._check_group("DistributedDataParallel", process_group)
        if static_graph:
            raise ValueError("DistributedDataParallel(static_graph=True) is not supported")
        if not isinstance(module, Module):
            raise TypeError(f"DistributedDataParallel(): expected a Module, got "
                            f"{type(module).__name__}")
        params = list(module.parameters())
        if not any(p.requires_grad for p in params):
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't "
                               "have any parameter that requires a gradient.")
        c10d._need_group()
        self.module = module
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.dim = dim
        # PyTorch reduces only the parameters that require grad (their indices
        # are the ones its errors name); the frozen ones are still made equal
        # at wrap time, with the buffers.
        reduced = [p for p in params if p.requires_grad]
        frozen = [p for p in params if not p.requires_grad]
        self._reducer = _C._dist_reducer(reduced, frozen + list(module.buffers()),
                                         float(bucket_cap_mb) * 1024 * 1024)
        self._reducer.set_average(not gradient_as_sum)
        self._reducer.set_find_unused(find_unused_parameters)
        # The buffers were just broadcast: the first forward need not again.
        self.require_forward_param_sync = False

    def forward(self, *inputs, **kwargs):
        # The last backward must have reduced everything (find_unused_parameters).
        self._reducer.pre_forward()
        # PyTorch's rule: rank 0's buffers before a forward that follows a
        # syncing one (not after a forward under no_grad or inside no_sync).
        if self.broadcast_buffers and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                _C._dist_sync_buffers(buffers)
        out = self.module(*inputs, **kwargs)
        self.require_forward_param_sync = torch.is_grad_enabled() and self._reducer.sync
        return out

    @contextlib.contextmanager
    def no_sync(self):
        """Inside it backward accumulates gradients locally; the first
        backward after it averages the accumulated sum."""
        previous = self._reducer.sync
        self._reducer.set_sync(False)
        try:
            yield
        finally:
            self._reducer.set_sync(previous)

    @property
    def buckets(self):
        """The parameter indices of each bucket, in launch order."""
        return self._reducer.buckets

    @property
    def started_early(self):
        """How many buckets the last backward started before its end."""
        return self._reducer.started_early

"""Collectives with gradients, as torch.distributed.nn.functional in 1.13.

Each collective is an autograd Function whose backward is the collective
that carries gradients back: all_reduce's gradient is the all_reduce of the
gradients; broadcast's is a reduce to the source (zero elsewhere); reduce's
is a broadcast; all_gather's is the sum over ranks of each rank's slice
(all-to-all, then a sum, as PyTorch does on gloo); reduce_scatter's is an
all_gather; gather and scatter are each other's gradient. With them a
learner writes Megatron-style layers: a column-parallel Linear (each rank
holds a slice of the output features, all_gather joins them) followed by a
row-parallel one (each rank holds a slice of the input features,
all_reduce sums the partial products).

Results are new tensors; the inputs are not changed. They run over nndb's
MPI process group (docs/distributed.md).
"""

import torch
import torch.distributed as dist
from torch.autograd import Function
from torch.distributed import ReduceOp

__all__ = ["broadcast", "gather", "scatter", "reduce", "reduce_scatter", "all_gather",
           "all_to_all", "all_reduce"]


def broadcast(tensor, src, group=None):
    """[tensor] of rank [src] on every rank; its gradient goes back to [src]."""
    return _Broadcast.apply(src, group, tensor)


def gather(tensor, dst=0, group=None):
    """A tuple of every rank's [tensor] on rank [dst] (zeros elsewhere)."""
    return _Gather.apply(dst, group, tensor)


def scatter(tensors, src=0, group=None):
    """Rank i gets tensors[i] of rank [src]."""
    return _Scatter.apply(src, group, *tensors)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None):
    """The reduction of every rank's [tensor], on rank [dst]."""
    return _Reduce.apply(dst, op, group, tensor)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None):
    """Rank i gets the reduction over ranks of input_list[i] (in [output])."""
    return _ReduceScatter.apply(op, group, output, *input_list)


def all_gather(tensor, group=None):
    """A tuple of every rank's [tensor], on every rank."""
    return _AllGather.apply(group, tensor)


def all_to_all(output_tensor_list, input_tensor_list, group=None):
    """Rank i's input_tensor_list[j] becomes rank j's output_tensor_list[i]."""
    return _AllToAll.apply(group, output_tensor_list, *input_tensor_list)


def all_reduce(tensor, op=ReduceOp.SUM, group=None):
    """The reduction of every rank's [tensor], on every rank."""
    return _AllReduce.apply(op, group, tensor)


class _Broadcast(Function):
    @staticmethod
    def forward(ctx, src, group, tensor):
        ctx.src, ctx.group, ctx.rank = src, group, dist.get_rank()
        out = tensor.clone()
        dist.broadcast(out, src, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        g = _Reduce.apply(ctx.src, ReduceOp.SUM, ctx.group, grad)
        if ctx.rank != ctx.src:
            g = torch.zeros_like(g)
        return None, None, g


class _Gather(Function):
    @staticmethod
    def forward(ctx, dst, group, tensor):
        ctx.dst, ctx.group = dst, group
        n = dist.get_world_size(group=group)
        parts = [torch.zeros_like(tensor) for _ in range(n)]
        tensor = tensor.contiguous()
        if dist.get_rank(group=group) == dst:
            dist.gather(tensor, parts, dst, group=group)
        else:
            dist.gather(tensor, None, dst, group=group)
        return tuple(parts)

    @staticmethod
    def backward(ctx, *grads):
        return (None, None, _Scatter.apply(ctx.dst, ctx.group, *grads))


class _Scatter(Function):
    @staticmethod
    def forward(ctx, src, group, *tensors):
        ctx.src, ctx.group = src, group
        if any(t.size() != tensors[0].size() for t in tensors):
            raise ValueError("scatter: every tensor must have the same size")
        out = torch.zeros_like(tensors[0])
        if dist.get_rank(group=group) == src:
            dist.scatter(out, [t.contiguous() for t in tensors], src, group=group)
        else:
            dist.scatter(out, None, src, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        return (None, None) + _Gather.apply(ctx.src, ctx.group, grad)


class _Reduce(Function):
    @staticmethod
    def forward(ctx, dst, op, group, tensor):
        ctx.dst, ctx.group = dst, group
        out = tensor.clone()
        dist.reduce(out, dst, op=op, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        return (None, None, None, _Broadcast.apply(ctx.dst, ctx.group, grad))


class _ReduceScatter(Function):
    @staticmethod
    def forward(ctx, op, group, output, *inputs):
        ctx.group = group
        dist.reduce_scatter(output, [t.contiguous() for t in inputs], op=op, group=group)
        return output

    @staticmethod
    def backward(ctx, grad):
        return (None, None, None) + _AllGather.apply(ctx.group, grad)


class _AllGather(Function):
    @staticmethod
    def forward(ctx, group, tensor):
        ctx.group = group
        tensor = tensor.contiguous()
        parts = [torch.empty_like(tensor) for _ in range(dist.get_world_size(group=group))]
        dist.all_gather(parts, tensor, group=group)
        return tuple(parts)

    @staticmethod
    def backward(ctx, *grads):
        # every rank's gradient for my slice, summed
        mine = _AllToAll.apply(ctx.group, [torch.empty_like(g) for g in grads], *grads)
        return None, torch.sum(torch.stack(mine), dim=0)


class _AllToAll(Function):
    @staticmethod
    def forward(ctx, group, outputs, *inputs):
        ctx.group = group
        n = dist.get_world_size(group=group)
        ctx.sizes = [inputs[i].size() for i in range(n)]
        me = dist.get_rank(group=group)
        inputs = [t.contiguous() for t in inputs]
        for i in range(n):  # rank i scatters its list: the others' slice i
            dist.scatter(outputs[i], inputs if i == me else None, i, group=group)
        return tuple(outputs)

    @staticmethod
    def backward(ctx, *grads):
        outs = [torch.empty(s, dtype=grads[0].dtype) for s in ctx.sizes]
        return (None, None) + _AllToAll.apply(ctx.group, outs, *grads)


class _AllReduce(Function):
    @staticmethod
    def forward(ctx, op, group, tensor):
        ctx.op, ctx.group = op, group
        out = tensor.clone()
        dist.all_reduce(out, op=op, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        return (None, None, _AllReduce.apply(ctx.op, ctx.group, grad))

"""torch.utils.checkpoint: trade compute for memory by recomputing.

checkpoint(function, *args) runs [function] without recording (no_grad),
so none of its intermediate activations are kept for backward; only its
inputs are. When backward reaches it, it runs [function] again with
recording on, from the same inputs and the same random state (the CPU
generator's state is saved before the forward and restored for the
recomputation when preserve_rng_state=True, as PyTorch does, so dropout
masks match), and backpropagates through that recomputed graph. Gradients
equal the ones without checkpointing.

nndb runs both variants the same way, as one autograd.Function whose
backward reruns the forward and an inner backward pass (PyTorch's
use_reentrant=True design; the engine lets that inner pass run inside the
outer one, torch._C._reentrant). With use_reentrant=False the node is
recorded even when no input requires grad (the parameters inside still get
their gradients, as PyTorch's non-reentrant variant gives) and keyword
arguments reach the function. In both, the gradients of parameters used
inside go straight into their .grad during the inner pass, so a checkpoint
cannot be differentiated by torch.autograd.grad: it raises PyTorch's
reentrant error (PyTorch's non-reentrant variant supports grad; nndb's
does not).
"""

import warnings

import torch
from torch import _C

__all__ = ["checkpoint", "checkpoint_sequential"]


def detach_variable(inputs):
    if isinstance(inputs, tuple):
        out = []
        for inp in inputs:
            if not isinstance(inp, torch.Tensor):
                out.append(inp)
                continue
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            out.append(x)
        return tuple(out)
    raise RuntimeError(
        "Only tuple of tensors is supported. Got Unsupported input type: ",
        type(inputs).__name__)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, torch.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")


class CheckpointFunction(torch.autograd.Function):

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, kwargs, *args):
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        ctx.kwargs = kwargs
        if preserve_rng_state:
            ctx.fwd_cpu_state = torch.get_rng_state()
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, torch.Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with torch.no_grad():
            outputs = run_function(*args, **kwargs)
        return outputs

    @staticmethod
    def backward(ctx, *grads):
        if _in_grad_call():
            raise RuntimeError(
                "Checkpointing is not compatible with .grad() or when an `inputs` parameter "
                "is passed to .backward(). Please use .backward() and do not pass its `inputs` "
                "argument.")
        inputs = list(ctx.inputs)
        for i, idx in enumerate(ctx.tensor_indices):
            inputs[idx] = ctx.saved_tensors[i]
        return _C._reentrant(lambda: _recompute_and_backward(ctx, inputs, grads))


def _recompute_and_backward(ctx, inputs, grads):
    detached = detach_variable(tuple(inputs))
    state = torch.get_rng_state() if ctx.preserve_rng_state else None
    try:
        if ctx.preserve_rng_state:
            torch.set_rng_state(ctx.fwd_cpu_state)
        with torch.enable_grad():
            outputs = ctx.run_function(*detached, **ctx.kwargs)
    finally:
        if state is not None:
            torch.set_rng_state(state)
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    outs, gs = [], []
    for o, g in zip(outputs, grads):
        if isinstance(o, torch.Tensor) and o.requires_grad and g is not None:
            outs.append(o)
            gs.append(g)
    if not outs:
        raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                           "necessary")
    with torch.enable_grad():
        torch.autograd.backward(outs, gs)
    return (None, None, None) + tuple(
        inp.grad if isinstance(inp, torch.Tensor) else None for inp in detached)


def _in_grad_call():
    return torch.autograd._grad_calls[0] > 0


def checkpoint(function, *args, use_reentrant=True, **kwargs):
    """Run function(*args) keeping only its inputs for backward; backward
    runs it again (see the module's note)."""
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        check_backward_validity(args)
        return CheckpointFunction.apply(function, preserve, {}, *args)
    if not torch.is_grad_enabled():
        return function(*args, **kwargs)
    # recorded even when no input requires grad: the parameters inside do
    anchor = torch.empty(0, requires_grad=True)
    return _NonReentrant.apply(function, preserve, kwargs, anchor, *args)


class _NonReentrant(torch.autograd.Function):
    """checkpoint(use_reentrant=False): CheckpointFunction with an anchor
    input that always requires grad (its gradient is dropped)."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, kwargs, anchor, *args):
        return CheckpointFunction.forward(ctx, lambda *a, **k: run_function(*a[1:], **k),
                                          preserve_rng_state, kwargs, anchor, *args)

    @staticmethod
    def backward(ctx, *grads):
        return CheckpointFunction.backward(ctx, *grads)


def checkpoint_sequential(functions, segments, input, use_reentrant=True, **kwargs):
    """Run a sequence of modules (or an nn.Sequential) in [segments]
    checkpointed pieces; the last piece runs normally."""
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input
        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)

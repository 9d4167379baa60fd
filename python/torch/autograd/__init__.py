"""torch.autograd: grad mode and the autograd entry points."""

from torch.autograd.grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode  # noqa: F401
from torch.autograd.gradcheck import gradcheck, gradgradcheck  # noqa: F401
from torch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from torch.autograd.function import Function  # noqa: F401
from torch.autograd import function  # noqa: F401
from torch.autograd.variable import Variable  # noqa: F401
from torch.autograd import graph  # noqa: F401


def _as_tuple(x):
    from torch import Tensor
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _root(outputs, grads):
    """One tensor to run a pass from, and its gradient: the output itself,
    or, for several, the sum of each output times its gradient, whose
    gradient with respect to each output is exactly that output's."""
    from torch import _C
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if not o.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               "have a grad_fn")
        if g is None and o.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if g is not None and tuple(g.shape) != tuple(o.shape):
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} "
                               f"and output[{i}] has a shape of {o.shape}.")
    if len(outputs) == 1:
        return outputs[0], grads[0]
    prev = _C._set_grad_enabled(True)
    try:
        total = None
        for o, g in zip(outputs, grads):
            term = o.sum() if g is None else (o * g).sum()
            total = term if total is None else total + term
    finally:
        _C._set_grad_enabled(prev)
    return total, None


def _check_grads(outputs, grads):
    if grads is None:
        return (None,) * len(outputs)
    grads = _as_tuple(grads)
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    return grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Accumulate the gradients of [tensors] into the leaves' .grad, in one
    pass over the graph they share."""
    tensors = _as_tuple(tensors)
    if grad_tensors is None:
        grad_tensors = grad_variables
    grads = _check_grads(tensors, grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    root, g = _root(tensors, grads)
    root.backward(g, retain_graph=retain_graph, create_graph=create_graph)


_grad_calls = [0]


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, is_grads_batched=False):
    """The gradients of [outputs] with respect to [inputs], returned as a
    tuple; no .grad changes. With create_graph=True the pass records itself
    (torch/autograd/_higher.py), so the gradients can be differentiated
    again."""
    from torch import _C
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grads = _check_grads(outputs, grad_outputs)
    if is_grads_batched:
        raise NotImplementedError("autograd.grad(is_grads_batched=True): nndb has no vmap; "
                                  "call grad once per row of grad_outputs")
    if retain_graph is None:
        retain_graph = create_graph
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    _grad_calls[0] += 1  # torch.utils.checkpoint refuses to run under grad()
    try:
        if create_graph:
            from torch.autograd import _higher
            result = _higher.grad(outputs, grads, inputs, bool(retain_graph))
        else:
            root, g = _root(outputs, grads)
            result = _C._grad(root, g, bool(retain_graph), inputs)
    finally:
        _grad_calls[0] -= 1
    if not allow_unused and any(r is None for r in result):
        raise RuntimeError("One of the differentiated Tensors appears to not have been used "
                           "in the graph. Set allow_unused=True if this is the desired "
                           "behavior.")
    return tuple(result)


def __getattr__(name):
    # torch.autograd.functional loads on first use (import torch stays
    # lighter); `import torch.autograd.functional` works as usual.
    if name == 'functional':
        import importlib
        return importlib.import_module('torch.autograd.functional')
    raise AttributeError("module 'torch.autograd' has no attribute '{}'".format(name))


def __dir__():
    return sorted(set(globals()) | {'functional'})


# Names torch.autograd's namespace has besides its API: the typing and
# module imports of PyTorch's __init__, and the __torch_function__ checks
# (nndb's torch does not dispatch __torch_function__: no argument has one to
# hand to).
import warnings  # noqa: E402,F401
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union, cast  # noqa: E402,F401
import torch  # noqa: E402,F401


def is_tensor_like(inp):
    return type(inp) is torch.Tensor or hasattr(inp, "__torch_function__")


def has_torch_function(relevant_args):
    return False


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    raise TypeError("no implementation found for '{}' on types that implement "
                    "__torch_function__: nndb's torch does not dispatch __torch_function__"
                    .format(getattr(public_api, "__qualname__", public_api)))


def kineto_available():
    """PyTorch's Kineto profiler is not part of nndb (nndb's own profiler:
    docs/instruments.md)."""
    return False

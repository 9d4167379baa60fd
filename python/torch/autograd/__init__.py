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
    """backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None) -> None

    Compute the gradients of tensors (one tensor or a sequence) with respect
    to the leaves of the graph that made them, and add them to each leaf's
    .grad (they accumulate: zero them between steps, optimizer.zero_grad()).
    tensors.backward() is the same for one tensor.

    - grad_tensors: the gradient to start from for each tensor, required for a
      tensor with more than one element (a loss is usually a 0-D tensor, which
      starts from 1).
    - retain_graph: keep the graph so that backward can run through it again
      (by default it is freed, and a second backward raises).
    - create_graph: record the backward pass itself, for higher derivatives.
    - inputs: accumulate only into these leaves.

    Example::

        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> torch.autograd.backward((x ** 2).sum())
        >>> x.grad
        tensor([2., 4.])
    """
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
    """grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True, allow_unused=False, is_grads_batched=False) -> Tuple[Tensor, ...]

    The gradients of outputs with respect to inputs, returned as a tuple (one
    per input) without touching any .grad. grad_outputs is the gradient to
    start from for each output (needed when an output has more than one
    element). create_graph=True records the computation so that the result can
    be differentiated again (second derivatives, gradient penalties);
    retain_graph keeps the graph for another pass; allow_unused returns None
    for an input that outputs do not depend on instead of raising.

    Example::

        >>> x = torch.tensor(3.0, requires_grad=True)
        >>> y = x ** 3
        >>> (g,) = torch.autograd.grad(y, x, create_graph=True)
        >>> g
        tensor(27., grad_fn=<MulBackward0>)
        >>> torch.autograd.grad(g, x)
        (tensor(18.),)
    """
    # The gradients of [outputs] with respect to [inputs], returned as a tuple; no .grad
    # changes. With create_graph=True the pass records itself (torch/autograd/_higher.py), so
    # the gradients can be differentiated again.
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
    """is_tensor_like(inp) -> bool

    Whether inp is a tensor or a tensor-like object (one whose type defines
    __torch_function__).
    """
    return type(inp) is torch.Tensor or hasattr(inp, "__torch_function__")


def has_torch_function(relevant_args):
    """has_torch_function(relevant_args) -> bool

    Whether any of relevant_args overrides torch functions with
    __torch_function__; this spelling always answers False (nndb's
    autograd functions do not dispatch on it).
    """
    return False


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """handle_torch_function(public_api, relevant_args, *args, **kwargs) -> Any

    The dispatch to __torch_function__ overrides; this spelling raises
    TypeError, as nndb's autograd functions do not dispatch on it.
    """
    raise TypeError("no implementation found for '{}' on types that implement "
                    "__torch_function__: nndb's torch does not dispatch __torch_function__"
                    .format(getattr(public_api, "__qualname__", public_api)))


def kineto_available():
    """kineto_available() -> bool

    Whether PyTorch's Kineto profiler is built in: False in nndb, which has its
    own profiler (%profile, nndb.profile).
    """
    return False

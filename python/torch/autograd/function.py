"""torch.autograd.Function: a differentiable operation written by hand.

A subclass defines forward(ctx, *args) and backward(ctx, *grad_outputs) as
static methods and is called as MyFn.apply(*args). apply runs forward
without recording, then records one engine node over the tensor arguments
(torch._C._function_record over the engine's custom op), whose backward
calls the subclass's backward. So backward(), tensor hooks, the debugger
and gradcheck meet the user's backward as one node of the graph.

As in PyTorch, the ctx object handed to forward and backward is the node's
grad_fn: an instance of a class made for each Function subclass and named
after it ("MyReLUBackward"), so `y.grad_fn` prints as
<torch.autograd.function.MyReLUBackward object at 0x...>.

Several tensor outputs share one node: their values are packed into one
flat tensor that the node outputs, the outputs the user gets are views of
it, and backward unpacks the flat gradient into one per output.
"""

import torch
from torch import _C


class FunctionCtx:
    """What forward may use on ctx: save tensors for backward, mark outputs
    non-differentiable, and keep any attribute of its own."""

    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{i} is of type {type(t).__name__}")
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_shared_storage(self, *pairs):
        pass

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class _HookMixin:
    pass


class BackwardCFunction(FunctionCtx, _HookMixin):
    """The grad_fn of one apply (its class is made per Function subclass)."""

    _forward_cls = None
    materialize_grads = True
    to_save = ()

    def name(self):
        return type(self).__name__

    @property
    def saved_tensors(self):
        return tuple(self.to_save)

    @property
    def saved_variables(self):
        return self.saved_tensors

    @property
    def next_functions(self):
        return tuple((getattr(t, "grad_fn", None), 0) for t in self._inputs)

    def apply(self, *grads):
        return self._forward_cls.backward(self, *grads)

    def register_hook(self, fn):
        raise NotImplementedError("nndb: hooks on a grad_fn are not supported; use "
                                  "Tensor.register_hook on the output instead")

    def _run_backward(self, dout):
        """Called by the engine with the node's output gradient: the user's
        backward's gradients, one per recorded tensor input."""
        if self._layout is None:
            grads = (dout,)
        else:
            grads, flat, start = [], dout.reshape(-1), 0
            for kind, shape, n in self._layout:
                if kind == "diff":
                    grads.append(flat[start:start + n].reshape(shape))
                    start += n
                elif self.materialize_grads and kind is not None:
                    grads.append(torch.zeros(shape, dtype=kind))
                else:
                    grads.append(None)
        result = self._forward_cls.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        nargs = len(self.needs_input_grad)
        if len(result) > nargs and all(r is None for r in result[nargs:]):
            result = result[:nargs]
        if len(result) != nargs:
            raise RuntimeError(f"function {type(self).__name__} returned an incorrect number "
                               f"of gradients (expected {nargs}, got {len(result)})")
        out = []
        for i in self._tensor_positions:
            g = result[i]
            if g is not None and not isinstance(g, torch.Tensor):
                raise TypeError(f"function {type(self).__name__} returned a gradient different "
                                f"than None at position {i + 1}, but the corresponding "
                                "forward input was not a Variable")
            out.append(g)
        return tuple(out)


class FunctionMeta(type):
    """Gives each Function subclass its grad_fn class, MyFnBackward."""

    def __init__(cls, name, bases, attrs):
        backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})
        backward_cls.__module__ = "torch.autograd.function"
        backward_cls.__qualname__ = name + "Backward"
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


class _SingleLevelFunction(FunctionCtx, _HookMixin, metaclass=FunctionMeta):
    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")


class Function(_SingleLevelFunction):
    """Base class of hand-written differentiable operations (see the module
    docstring)."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = cls._backward_cls()
        grad_on = _C.is_grad_enabled()
        ctx.needs_input_grad = tuple(
            grad_on and isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        custom_setup = cls.setup_context is not _SingleLevelFunction.setup_context
        with torch.no_grad():
            if custom_setup:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        if not any(ctx.needs_input_grad):
            return output
        positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        ctx._tensor_positions = positions
        ctx._inputs = tuple(args[i] for i in positions)
        return _record(cls, ctx, output)


def _is_diff(t, skip):
    return (isinstance(t, torch.Tensor) and t.is_floating_point()
            and not any(t is s for s in skip))


def _record(cls, ctx, output):
    name = cls._backward_cls.__name__
    outs = output if isinstance(output, tuple) else (output,)
    # a saved output has no history here: a pass with create_graph=True
    # refuses to differentiate this node's backward again (autograd/_higher.py)
    ctx._saves_output = any(s is o for s in ctx.to_save for o in outs if s is not None)
    skip = getattr(ctx, "non_differentiable", ())
    if isinstance(output, torch.Tensor):
        ctx._layout = None
        if not _is_diff(output, skip):
            return output
        return _C._function_record(ctx, ctx._inputs, output, name)
    if not isinstance(output, tuple):
        return output
    diff = [o for o in output if _is_diff(o, skip)]
    if not diff:
        return output
    dtype = diff[0].dtype
    layout = []
    for o in output:
        if _is_diff(o, skip) and o.dtype == dtype:
            layout.append(("diff", tuple(o.shape), o.numel()))
        elif isinstance(o, torch.Tensor):
            layout.append((o.dtype if o.is_floating_point() else None, tuple(o.shape), o.numel()))
        else:
            layout.append((None, (), 0))
    ctx._layout = layout
    packed = torch.cat([o.reshape(-1) for o, (kind, _, _) in zip(output, layout) if kind == "diff"])
    flat = _C._function_record(ctx, ctx._inputs, packed, name)
    result, start = [], 0
    for o, (kind, shape, n) in zip(output, layout):
        if kind == "diff":
            part = flat[start:start + n].view(shape)
            _C._set_grad_fn_name(part, name)
            result.append(part)
            start += n
        else:
            result.append(o)
    return tuple(result)


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    pass


def once_differentiable(fn):
    """backward runs without recording; when it runs in a pass with
    create_graph=True its results carry a node whose own backward raises
    PyTorch's error, so differentiating it twice fails instead of missing
    the second-order part."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            outputs = fn(ctx, *args)
        if not torch.is_grad_enabled():
            return outputs
        needs = any(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        if not needs:
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        # as PyTorch: over detached copies that require grad, so any pass
        # through the results meets the error
        marked = tuple(_DelayedError.apply(o.detach().requires_grad_(True))
                       if isinstance(o, torch.Tensor) and o.is_floating_point() else o
                       for o in outs)
        return marked[0] if single else marked
    return wrapper


class _DelayedError(Function):
    """An identity whose backward raises (once_differentiable)."""

    @staticmethod
    def forward(ctx, t):
        return t.clone()

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")

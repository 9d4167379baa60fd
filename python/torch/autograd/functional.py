"""torch.autograd.functional: derivatives of a whole function.

vjp, jacobian and jvp are provided, by reverse mode: a vector-Jacobian
product is one backward pass, and the Jacobian is one backward pass per
output element with a one-hot vector (the rows PyTorch's reverse-mode
jacobian computes too). jvp is J v formed from that Jacobian, so it costs
one pass per output element rather than PyTorch's two.

hessian, hvp and vhp differentiate a gradient, which needs the backward pass
to be recorded (create_graph=True); nndb's engine does not record it, so
they raise NotImplementedError, as does create_graph=True here.
"""

from typing import List, Tuple  # noqa: F401
import torch

__all__ = ['vjp', 'jvp', 'jacobian', 'hessian', 'hvp', 'vhp']


def _as_tuple(x, arg, fn):
    if isinstance(x, tuple):
        items, was_tuple = x, True
    else:
        items, was_tuple = (x,), False
    for i, t in enumerate(items):
        if not isinstance(t, torch.Tensor):
            if was_tuple:
                raise TypeError("The {} given to {} must be either a Tensor or a tuple of "
                                "Tensors but the value at index {} has type {}."
                                .format(arg, fn, i, type(t)))
            raise TypeError("The {} given to {} must be either a Tensor or a tuple of "
                            "Tensors but the given {} has type {}."
                            .format(arg, fn, arg, type(t)))
    return was_tuple, items


def _untuple(was_tuple, items):
    return items if was_tuple else items[0]


def _no_create_graph(create_graph, fn):
    if create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.{}(create_graph=True): nndb's engine does not record "
            "the backward pass, so the result cannot be differentiated again".format(fn))


def _call(func, inputs, fn):
    """[func] on fresh leaves that require grad, with autograd on: the
    leaves and func's outputs, as tuples."""
    leaves = tuple(t.detach().requires_grad_(True) for t in inputs)
    with torch.enable_grad():
        out = func(*leaves)
    was_tuple, outputs = _as_tuple(out, "outputs of the user-provided function", fn)
    return leaves, was_tuple, outputs


def _validate_v(vs, others, is_tuple):
    # [others] have the right shapes; [vs] must match them.
    if len(vs) != len(others):
        if is_tuple:
            raise RuntimeError("v is a tuple of invalid length: should be {} but got {}."
                               .format(len(others), len(vs)))
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (t, other) in enumerate(zip(vs, others)):
        if t.shape != other.shape:
            raise RuntimeError("{}v has invalid size: should be {} but got {}.".format(
                "Entry {} in ".format(i) if is_tuple else "", other.shape, t.shape))


def _vjp_pass(outputs, grad_outputs, leaves, strict, retain, out_index=None):
    """sum_i grad_outputs[i] . d outputs[i] / d leaves, a tensor per leaf
    (zeros where a leaf is not used)."""
    used = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    grads = [None] * len(leaves)
    if used:
        grads = list(torch.autograd.grad([o for o, _ in used], leaves,
                                         [g for _, g in used], retain_graph=retain,
                                         allow_unused=True))
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                what = ("The output" if out_index is None
                        else "Output {}".format(out_index))
                raise RuntimeError("{} of the user-provided function is independent of input "
                                   "{}. This is not allowed in strict mode.".format(what, i))
            grads[i] = torch.zeros_like(leaves[i])
    return grads


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the outputs and the vector-Jacobian product
    with [v] (which may be left out when func returns a one-element
    tensor), both detached."""
    _no_create_graph(create_graph, 'vjp')
    in_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
    leaves, out_tuple, outputs = _call(func, inputs, "vjp")
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
        vs = (torch.ones_like(outputs[0]),)
    else:
        _, vs = _as_tuple(v, "v", "vjp")
        _validate_v(vs, outputs, out_tuple)
    grads = _vjp_pass(outputs, vs, leaves, strict, retain=False)
    return (_untuple(out_tuple, tuple(o.detach() for o in outputs)),
            _untuple(in_tuple, tuple(grads)))


def _jacobian_blocks(outputs, leaves, strict):
    """blocks[i][j]: d outputs[i] / d leaves[j], shaped outputs[i].shape +
    leaves[j].shape; one backward pass per output element."""
    blocks = []
    for i, out in enumerate(outputs):
        rows = [[] for _ in leaves]
        n = out.numel()
        for k in range(n):
            onehot = torch.zeros(n, dtype=out.dtype)
            onehot[k] = 1
            grad_outputs = [torch.zeros_like(o) for o in outputs]
            grad_outputs[i] = onehot.view(out.shape)
            last = i == len(outputs) - 1 and k == n - 1
            grads = _vjp_pass(outputs, grad_outputs, leaves, strict, retain=not last,
                              out_index=i)
            for j, g in enumerate(grads):
                rows[j].append(g)
        row = []
        for j, leaf in enumerate(leaves):
            if rows[j]:
                row.append(torch.stack(rows[j]).view(tuple(out.shape) + tuple(leaf.shape)))
            else:
                row.append(torch.zeros(tuple(out.shape) + tuple(leaf.shape), dtype=leaf.dtype))
        blocks.append(tuple(row))
    return blocks


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of [func] at [inputs]: a tensor of shape output.shape +
    input.shape, a tuple of them when inputs or outputs are tuples (both:
    [i][j] for output i and input j). vectorize is accepted and changes
    nothing; both strategies compute the same values here (by reverse
    mode)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                         'Hint: If your function has more outputs than inputs, '
                         '"forward-mode" tends to be more performant. Otherwise, prefer to '
                         'use "reverse-mode".')
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    _no_create_graph(create_graph, 'jacobian')
    in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    leaves, out_tuple, outputs = _call(func, inputs, "jacobian")
    blocks = _jacobian_blocks(outputs, leaves, strict)
    if out_tuple:
        return tuple(_untuple(in_tuple, row) for row in blocks)
    return _untuple(in_tuple, blocks[0])


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the outputs and the Jacobian-vector product with
    [v] (which may be left out when the input is one element), both
    detached. Formed from the Jacobian here (one backward pass per output
    element)."""
    _no_create_graph(create_graph, 'jvp')
    in_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
    if v is None:
        if len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        vs = (torch.ones_like(inputs[0]),)
    else:
        _, vs = _as_tuple(v, "v", "jvp")
        _validate_v(vs, inputs, in_tuple)
    leaves, out_tuple, outputs = _call(func, inputs, "jvp")
    blocks = _jacobian_blocks(outputs, leaves, strict)
    products = []
    for out, row in zip(outputs, blocks):
        total = torch.zeros(out.numel(), dtype=out.dtype)
        for block, t in zip(row, vs):
            total = total + block.reshape(out.numel(), -1) @ t.reshape(-1).to(block.dtype)
        products.append(total.view(out.shape))
    return (_untuple(out_tuple, tuple(o.detach() for o in outputs)),
            _untuple(out_tuple, tuple(products)))


def _second_order(fn):
    raise NotImplementedError(
        "torch.autograd.functional.{}: second derivatives need the backward pass to be "
        "recorded (create_graph=True), which nndb's engine does not do".format(fn))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """Not available in nndb: see the module's note."""
    _second_order('hessian')


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """Not available in nndb: see the module's note."""
    _second_order('hvp')


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """Not available in nndb: see the module's note."""
    _second_order('vhp')

"""torch.autograd.functional: derivatives of a whole function.

All by reverse mode: a vector-Jacobian product is one backward pass, and
the Jacobian is one backward pass per output element with a one-hot vector
(the rows PyTorch's reverse-mode jacobian computes too). jvp uses the
double-vjp trick, as PyTorch's does: the vjp with a dummy vector u is
linear in u, and its vjp with respect to u is J v. hessian is the Jacobian
of the Jacobian (create_graph=True inside, as PyTorch composes it); vhp is
the gradient of grad . v; hvp is computed as vhp (the Hessian of a scalar
function is symmetric, so the values agree with PyTorch's double-backward
hvp up to rounding). create_graph=True keeps the results differentiable
(torch/autograd/_higher.py records the backward pass); forward-mode
strategies compute the same values by reverse mode.
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


def _call(func, inputs, fn, create_graph=False):
    """[func] on inputs that require grad, with autograd on: the inputs as
    func saw them and func's outputs, as tuples. With create_graph an input
    that requires grad is a view of itself, so the results keep their
    history back to it (as PyTorch's _grad_preprocess)."""
    leaves = tuple(t.view_as(t) if create_graph and t.requires_grad
                   else t.detach().requires_grad_(True) for t in inputs)
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


def _vjp_pass(outputs, grad_outputs, leaves, strict, retain, out_index=None,
              create_graph=False):
    """sum_i grad_outputs[i] . d outputs[i] / d leaves, a tensor per leaf
    (zeros where a leaf is not used)."""
    used = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    grads = [None] * len(leaves)
    if used:
        grads = list(torch.autograd.grad([o for o, _ in used], leaves,
                                         [g for _, g in used],
                                         retain_graph=retain or create_graph,
                                         create_graph=create_graph, allow_unused=True))
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
    """vjp(func, inputs, v=None, create_graph=False, strict=False) -> (Tensor output, Tensor vjp)

    (func(inputs), v^T J): the outputs and the vector-Jacobian product
    with [v] (which may be left out when func returns a one-element
    tensor), both detached.
    """
    in_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
    leaves, out_tuple, outputs = _call(func, inputs, "vjp", create_graph)
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
        vs = (torch.ones_like(outputs[0]),)
    else:
        _, vs = _as_tuple(v, "v", "vjp")
        _validate_v(vs, outputs, out_tuple)
    grads = _vjp_pass(outputs, vs, leaves, strict, retain=False, create_graph=create_graph)
    return (_untuple(out_tuple, _post(outputs, create_graph)),
            _untuple(in_tuple, _post(grads, create_graph)))


def _post(ts, create_graph):
    return tuple(ts) if create_graph else tuple(t.detach() for t in ts)


def _jacobian_blocks(outputs, leaves, strict, create_graph=False):
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
                              out_index=i, create_graph=create_graph)
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
    """jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode') -> Tensor or tuple

    The Jacobian of [func] at [inputs]: a tensor of shape output.shape +
    input.shape, a tuple of them when inputs or outputs are tuples (both:
    [i][j] for output i and input j). vectorize is accepted and changes
    nothing; both strategies compute the same values here (by reverse
    mode).
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                         'Hint: If your function has more outputs than inputs, '
                         '"forward-mode" tends to be more performant. Otherwise, prefer to '
                         'use "reverse-mode".')
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    leaves, out_tuple, outputs = _call(func, inputs, "jacobian", create_graph)
    blocks = _jacobian_blocks(outputs, leaves, strict, create_graph)
    if not create_graph:
        blocks = [tuple(b.detach() for b in row) for row in blocks]
    if out_tuple:
        return tuple(_untuple(in_tuple, row) for row in blocks)
    return _untuple(in_tuple, blocks[0])


def _input_vector(v, inputs, in_tuple, fn):
    """The vectors v of jvp, hvp and vhp (shaped as the inputs), ones when v
    is left out for a single one-element input."""
    if v is None:
        if len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        return (torch.ones_like(inputs[0]),)
    _, vs = _as_tuple(v, "v", fn)
    _validate_v(vs, inputs, in_tuple)
    return vs


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """jvp(func, inputs, v=None, create_graph=False, strict=False) -> (Tensor output, Tensor jvp)

    (func(inputs), J v): the outputs and the Jacobian-vector product with
    [v] (which may be left out when the input is one element), by the
    double-vjp trick (two backward passes, as PyTorch).
    """
    in_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
    vs = _input_vector(v, inputs, in_tuple, "jvp")
    leaves, out_tuple, outputs = _call(func, inputs, "jvp", True)
    dummies = tuple(torch.zeros_like(o).requires_grad_(True) for o in outputs)
    grads = _vjp_pass(outputs, dummies, leaves, strict, retain=True, create_graph=True)
    pairs = [(g, t) for g, t in zip(grads, vs) if g.requires_grad]
    products = [None] * len(outputs)
    if pairs:
        products = list(torch.autograd.grad([g for g, _ in pairs], dummies,
                                            [t for _, t in pairs], create_graph=create_graph,
                                            allow_unused=True))
    for i, p in enumerate(products):
        if p is None:
            if strict:
                raise RuntimeError("The output of the user-provided function is independent "
                                   "of input {}. This is not allowed in strict mode.".format(i))
            products[i] = torch.zeros_like(outputs[i])
    return (_untuple(out_tuple, _post(outputs, create_graph)),
            _untuple(out_tuple, _post(products, create_graph)))


def _single_output(func, fn):
    def wrapped(*inp):
        out = func(*inp)
        is_tuple, t = _as_tuple(out, "outputs of the user-provided function", fn)
        if len(t) != 1 or t[0].numel() != 1:
            raise RuntimeError("The function given to {} should return a single Tensor "
                               "containing a single element.".format(fn))
        return t[0].squeeze()
    return wrapped


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy='reverse-mode') -> Tensor or tuple

    The Hessian of a scalar [func] at [inputs]: the Jacobian of its
    gradient (a tensor of shape input.shape * 2, or [i][j] blocks for a
    tuple of inputs).
    """
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    scalar = _single_output(func, "hessian")

    def jac_func(*inp):
        return jacobian(scalar, inp, create_graph=True, strict=strict)

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict)
    return res if in_tuple else res[0][0]


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """vhp(func, inputs, v=None, create_graph=False, strict=False) -> (Tensor output, Tensor vhp)

    (func(inputs), v^T H): the output and the vector-Hessian product.
    """
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """hvp(func, inputs, v=None, create_graph=False, strict=False) -> (Tensor output, Tensor hvp)

    (func(inputs), H v), computed as v^T H (see the module's note).
    """
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def _hessian_product(func, inputs, v, create_graph, strict, fn):
    in_tuple, inputs = _as_tuple(inputs, "inputs", fn)
    vs = _input_vector(v, inputs, in_tuple, fn)
    leaves, out_tuple, outputs = _call(func, inputs, fn, True)
    if len(outputs) != 1 or outputs[0].numel() != 1:
        raise RuntimeError("The function given to {} should return a single Tensor containing "
                           "a single element.".format(fn))
    jac = _vjp_pass(outputs, (torch.ones_like(outputs[0]),), leaves, strict, retain=True,
                    create_graph=True)
    pairs = [(j, t) for j, t in zip(jac, vs) if j.requires_grad]
    res = [None] * len(leaves)
    if pairs:
        res = list(torch.autograd.grad([j for j, _ in pairs], leaves, [t for _, t in pairs],
                                       create_graph=create_graph, allow_unused=True))
    for i, r in enumerate(res):
        if r is None:
            if strict:
                raise RuntimeError("The jacobian of the user-provided function is independent "
                                   "of input {}. This is not allowed in strict mode when "
                                   "create_graph=True.".format(i))
            res[i] = torch.zeros_like(leaves[i])
    return (_post(outputs, create_graph)[0], _untuple(in_tuple, _post(res, create_graph)))

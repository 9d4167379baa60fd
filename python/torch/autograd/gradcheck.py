"""torch.autograd.gradcheck over the engine's nn_gradcheck.

The gradient backward gives each input that requires grad is compared with
central differences (f(x + eps) - f(x - eps)) / 2 eps, entry by entry,
with torch's rule |analytic - numeric| <= atol + rtol |numeric|. Two
differences from PyTorch's loop, both from nndb's engine: the check always
runs in float64 (a float32 input is copied to float64, after PyTorch's
warning; PyTorch would compute in float32 and usually fail), and an output
with several elements is checked through a fixed random projection
sum(out * r) with one backward, where PyTorch builds the whole Jacobian (a
wrong Jacobian entry changes the projection with probability one).
"""

import warnings

import torch

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """gradcheck found a gradient that differs from the finite differences."""


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              check_sparse_nnz=False, nondet_tol=0.0, check_undefined_grad=True,
              check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False):
    """gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True, check_sparse_nnz=False, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False, check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False) -> bool

    True when backward's gradient of func at inputs matches central
    differences; otherwise raises GradcheckError (or returns False with
    raise_exception=False).
    """
    from nndb.instruments import _gradcheck_core, _gradcheck_table
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    inputs = tuple(inputs)
    wanted = [i for i, x in enumerate(inputs)
              if isinstance(x, torch.Tensor) and x.requires_grad]
    if not wanted:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of the them have requires_grad=True.")
    for i in wanted:
        if inputs[i].dtype != torch.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating "
                          "point or complex. This check will likely fail if all the inputs are "
                          "not of double precision floating point or complex. ")
    names = [f"input {i}" for i in range(len(inputs))]

    def with_grad(*args):  # PyTorch evaluates the differences in grad mode too
        with torch.enable_grad():
            return func(*args)

    passed, projected, _, rows = _gradcheck_core(with_grad, inputs, names, [], eps, atol, rtol, 0, 0)
    if passed or not raise_exception:
        return passed
    first = next(k for k, r in enumerate(rows) if not r.passed)
    text, _ = _gradcheck_table(passed, projected, rows, eps, atol, rtol)
    raise GradcheckError(f"Jacobian mismatch for output 0 with respect to input "
                         f"{wanted[first]},\n{text}")


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False):
    """gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001, gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False) -> bool

    gradcheck of the gradients themselves: the vector-Jacobian products
    of func with grad_outputs (random float64 ones when not given, as
    PyTorch draws them), computed with create_graph=True, are checked
    against central differences with respect to the inputs and to
    grad_outputs. The gradients are concatenated into one output, which
    gradcheck projects as usual.
    """
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    inputs = tuple(inputs)
    if grad_outputs is None:
        outs = func(*inputs)
        outs = (outs,) if isinstance(outs, torch.Tensor) else tuple(outs)
        grad_outputs = tuple(torch.randn(o.shape, dtype=torch.float64).to(o.dtype)
                             .requires_grad_(True)
                             for o in outs if o.is_floating_point() and o.requires_grad)
    elif isinstance(grad_outputs, torch.Tensor):
        grad_outputs = (grad_outputs,)
    grad_outputs = tuple(grad_outputs)
    n_out = len(grad_outputs)

    def new_func(*args):
        with torch.enable_grad():  # the finite differences run it too
            return _grads_of(args)

    def _grads_of(args):
        xs, gos = args[:len(args) - n_out], args[len(args) - n_out:]
        outs = func(*xs)
        outs = (outs,) if isinstance(outs, torch.Tensor) else tuple(outs)
        outs = tuple(o for o in outs if o.is_floating_point() and o.requires_grad)
        diff = tuple(x for x in xs if isinstance(x, torch.Tensor) and x.requires_grad)
        grads = torch.autograd.grad(outs, diff, gos, create_graph=True, allow_unused=True)
        grads = [g.reshape(-1) for g in grads if g is not None]
        return torch.cat(grads)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)

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

__all__ = ["gradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """gradcheck found a gradient that differs from the finite differences."""


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              check_sparse_nnz=False, nondet_tol=0.0, check_undefined_grad=True,
              check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False):
    """True when backward's gradient of func at inputs matches central
    differences; otherwise raises GradcheckError (or returns False with
    raise_exception=False)."""
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
    passed, projected, _, rows = _gradcheck_core(func, inputs, names, [], eps, atol, rtol, 0, 0)
    if passed or not raise_exception:
        return passed
    first = next(k for k, r in enumerate(rows) if not r.passed)
    text, _ = _gradcheck_table(passed, projected, rows, eps, atol, rtol)
    raise GradcheckError(f"Jacobian mismatch for output 0 with respect to input "
                         f"{wanted[first]},\n{text}")

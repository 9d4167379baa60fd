# The names an nndb script sees, mapped onto Python + PyTorch, so that the
# same script prints the same output under both (tests/diff/run.sh).
from torch import *
import torch.nn.functional as F
from torch.nn.functional import *
from torch.nn import *
from torch.optim import *
# Names nndb provides that `from torch import *` leaves out.
from torch import set_grad_enabled, float32, float64, int64, long
# torch.nn.functional's tanh and sigmoid warn that they are deprecated.
from torch import tanh, sigmoid
# `from torch import *` replaces these builtins with tensor functions that
# reject plain Python values; nndb's versions accept both, as Python's do.
from builtins import sum, max, min, abs, round, pow, all, any, range, float, int, bool
# The training instruments (docs/instruments.md), computed here with
# PyTorch's own autograd and forward hooks: the same quantities nndb reports.
import types as _types
from torch.autograd import gradcheck as _torch_gradcheck


class _WrongGrad(torch.autograd.Function):
    # x * x with the backward wrong at flat element 2, as nndb's test-only op.
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        d = (2 * x * g).clone()
        d.view(-1)[min(2, d.numel() - 1)] += 1
        return d


def _test_wrong_grad(x):
    return _WrongGrad.apply(x)


def gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    return _torch_gradcheck(fn, inputs, eps=eps, atol=atol, rtol=rtol,
                            raise_exception=raise_exception)


def _rows(items):
    return _types.SimpleNamespace(rows=items)


def stats(model, opt=None):
    rows = []
    for name, p in model.named_parameters():
        g = p.grad
        rows.append(_types.SimpleNamespace(
            name="model." + name, data_mean=p.mean().item(), data_std=p.std().item(),
            grad_mean=None if g is None else g.mean().item(),
            grad_std=None if g is None else g.std().item(),
            grad_data=None if g is None else (g.std() / p.std()).item()))
    return _rows(rows)


def activations(model, x):
    rows, hooks = [], []
    def hook(name, m):
        def f(mod, inp, out):
            kind = type(mod).__name__
            sat = dead = None
            if kind == "Tanh":
                sat = (out.abs() > 0.97).double().mean().item()
            if kind == "Sigmoid":
                sat = ((out < 0.03) | (out > 0.97)).double().mean().item()
            if kind in ("ReLU", "GELU"):
                dead = (~(out > 0).reshape(-1, out.shape[-1]).any(0)).double().mean().item()
            rows.append(_types.SimpleNamespace(layer="model." + name, kind=kind,
                                               mean=out.mean().item(), std=out.std().item(),
                                               saturated=sat, dead=dead))
        return f
    for name, m in model.named_modules():
        if name and not list(m.children()):
            hooks.append(m.register_forward_hook(hook(name, m)))
    with no_grad():
        model(x)
    for h in hooks:
        h.remove()
    return _rows(rows)


def dependencies(model, x, i=0):
    xc = x.detach().clone().requires_grad_(True)
    model(xc)[i].sum().backward()
    rows = [r for r in range(x.shape[0]) if r != i and xc.grad[r].abs().sum().item() != 0]
    return _types.SimpleNamespace(rows=rows, leaks=len(rows) > 0)

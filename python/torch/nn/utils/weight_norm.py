"""torch.nn.utils.weight_norm: weight = g * v / ||v|| (a forward pre-hook
recomputes it from the parameters weight_g and weight_v), as PyTorch 1.13."""

import torch
from torch.nn.parameter import Parameter, UninitializedParameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def norm_except_dim(v, pow=2, dim=0):
    """The norm over every dimension but dim, shaped to broadcast against v
    (dim -1: the norm of the whole tensor)."""
    if dim == -1:
        return v.norm(pow)
    dim = dim % v.dim()
    others = [d for d in range(v.dim()) if d != dim]
    if not others:
        return v.abs() if pow != 0 else (v != 0).to(v.dtype)
    return v.norm(pow, others, keepdim=True)


def _weight_norm(v, g, dim=0):
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    def __init__(self, name, dim):
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError("Cannot register two weight_norm hooks on "
                                   "the same parameter {}".format(name))
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `WeightNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """weight_norm(module, name='weight', dim=0) -> Module

    Reparametrize module's parameter name as g * v / ||v||: the magnitude g
    and the direction v become the parameters name_g and name_v (trained
    instead of name), and name is recomputed from them before each forward.
    dim is the dimension kept by the norm (0: one norm per output unit; None:
    one norm for the whole tensor). Returns module.

    Example::

        >>> m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
        >>> m.weight_g.shape, m.weight_v.shape
        (torch.Size([2, 1]), torch.Size([2, 3]))
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """remove_weight_norm(module, name='weight') -> Module

    Undo weight_norm: name becomes an ordinary parameter again, holding the
    current g * v / ||v||. Returns module.
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError("weight_norm of '{}' not found in {}".format(name, module))

"""nndb's ready-made models beyond torch.nn: MLP, and num_params.

MLP(sizes, act='tanh') is the Sequential of Linear layers with the
activation between them that the old interpreter built (nn_module_mlp):
MLP([2, 64, 3]) is Sequential(Linear(2, 64), Tanh(), Linear(64, 3)), its
layers drawn from torch's stream in that order, so a seeded model has the
same weights under both interpreters. It prints as that Sequential, and has
nndb's num_params.
"""

import torch
from torch import nn

__all__ = ["MLP", "num_params"]

_ACTS = {"relu": nn.ReLU, "leaky_relu": nn.LeakyReLU, "tanh": nn.Tanh, "sigmoid": nn.Sigmoid,
         "gelu": nn.GELU, "silu": nn.SiLU}


def num_params(module):
    """The number of parameter elements of a module (shared tensors counted
    once); the same as module.num_params for nndb's models."""
    if not isinstance(module, nn.Module):
        raise TypeError(f"num_params() expects a Module, not {type(module).__name__}")
    return sum(p.numel() for p in module.parameters())


class MLP(nn.Sequential):
    """MLP(sizes, act='tanh'): Linear layers between consecutive sizes with the
    activation between them (not after the last).

        model = MLP([2, 64, 64, 3], act='relu')
    """

    def __init__(self, sizes, act="tanh"):
        if isinstance(sizes, torch.Size):
            sizes = list(sizes)
        if not isinstance(sizes, (list, tuple)) or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            raise TypeError("MLP sizes must be a list of ints")
        if len(sizes) < 2:
            raise ValueError("MLP needs at least two sizes (in and out)")
        if act is None:
            act = "tanh"
        if act not in _ACTS:
            names = ", ".join(f"'{a}'" for a in _ACTS)
            raise ValueError(f"MLP act must be one of {names}, not '{act}'")
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(nn.Linear(sizes[i], sizes[i + 1]))
            if i + 2 < len(sizes):
                layers.append(_ACTS[act]())
        super().__init__(*layers)

    def _get_name(self):
        return "Sequential"  # it prints as the Sequential it is

    @property
    def num_params(self):
        return num_params(self)

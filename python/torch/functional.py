"""torch.functional: the functions PyTorch defines in Python in this
module, under their torch names (each is the same object as torch's)."""
import sys

import torch

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu",
           "norm", "meshgrid", "pca_lowrank", "split", "stft", "svd_lowrank", "tensordot",
           "unique", "unique_consecutive"]


def __getattr__(name):
    # looked up on use: some of torch's (stft, istft) load their module then
    if name in __all__:
        return getattr(torch, name)
    # name= and obj= keep Python's "Did you mean" suggestion
    raise AttributeError(f"module 'torch.functional' has no attribute '{name}'", name=name,
                         obj=sys.modules[__name__])


def __dir__():
    return sorted(list(globals()) + __all__)

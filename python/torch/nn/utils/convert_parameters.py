"""A model's parameters as one flat vector and back."""

import torch
from torch import _C


def parameters_to_vector(parameters):
    return _C._nn_flat_cat(list(parameters))


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}"
                        if hasattr(torch, "typename") else
                        f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n

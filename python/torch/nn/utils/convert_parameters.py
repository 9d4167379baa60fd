"""A model's parameters as one flat vector and back."""

import torch
from torch import _C


def parameters_to_vector(parameters):
    """parameters_to_vector(parameters) -> Tensor

    All the tensors of parameters (an iterable, e.g. model.parameters())
    flattened and joined into one 1-D tensor, in order (a copy).

    Example::

        >>> lin = torch.nn.Linear(2, 1)
        >>> torch.nn.utils.parameters_to_vector(lin.parameters()).shape
        torch.Size([3])
    """
    parameters = list(parameters)
    for p in parameters:
        if not p.is_contiguous():
            p.view(-1)  # PyTorch's flattening: a layout view(-1) refuses raises here
    return _C._nn_flat_cat(parameters)


def vector_to_parameters(vec, parameters):
    """vector_to_parameters(vec, parameters) -> None

    The inverse of parameters_to_vector: copy consecutive slices of the 1-D vec
    into each of parameters, in order, reshaped to their shapes (vec must have
    exactly as many elements).

    Example::

        >>> lin = torch.nn.Linear(2, 1)
        >>> torch.nn.utils.vector_to_parameters(torch.tensor([1.0, 2.0, 3.0]), lin.parameters())
        >>> lin.weight, lin.bias
        (Parameter containing:
        tensor([[1., 2.]], requires_grad=True), Parameter containing:
        tensor([3.], requires_grad=True))
    """
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}"
                        if hasattr(torch, "typename") else
                        f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n

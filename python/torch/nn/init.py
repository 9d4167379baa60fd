"""torch.nn.init: fill a tensor in place, without recording autograd.

The bounds and standard deviations are computed here as PyTorch computes
them (the same fans, gains and float arithmetic); the draws are one
uniform_ or normal_ fill from torch's default generator (binding/py_nn.c
over engine/nn_init.c), so a seeded init gives PyTorch's numbers.
"""

import math
import warnings

import torch
from torch import _C, Tensor  # noqa: F401 (torch.nn.init.Tensor, as in torch)


def calculate_gain(nonlinearity, param=None):
    """calculate_gain(nonlinearity, param=None) -> float

    The recommended gain for an activation function: the factor by which to
    scale the standard deviation of the initial weights of a layer followed by
    it, so that the scale of the signal stays the same through the layers.
    kaiming_* use it; pass it as gain to xavier_* and orthogonal_.

    ============================  ================================
    nonlinearity                  gain
    ============================  ================================
    'linear', 'conv1d', 'conv2d', 1
    'conv3d', 'conv_transpose1d',
    'conv_transpose2d',
    'conv_transpose3d', 'sigmoid'
    'tanh'                        5 / 3
    'relu'                        sqrt(2)
    'leaky_relu'                  sqrt(2 / (1 + negative_slope**2))
    'selu'                        3 / 4
    ============================  ================================

    param is leaky_relu's negative slope (default 0.01). Another name raises
    ValueError.

    Example::

        >>> torch.nn.init.calculate_gain('relu')
        1.4142135623730951
        >>> torch.nn.init.calculate_gain('leaky_relu', 0.2)
        1.3867504905630728
        >>> torch.nn.init.calculate_gain('tanh')
        1.6666666666666667
    """
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                  "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0):
    """uniform_(tensor, a=0.0, b=1.0) -> Tensor

    Fill tensor with numbers drawn uniformly from [a, b). The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.uniform_(torch.empty(2, 3), -1.0, 1.0)
        tensor([[-0.0075,  0.5364, -0.8230],
                [-0.7359, -0.3852,  0.2682]])
    """
    return _C._nn_init_uniform_(tensor, a, b)


def normal_(tensor, mean=0.0, std=1.0):
    """normal_(tensor, mean=0.0, std=1.0) -> Tensor

    Fill tensor with numbers drawn from the normal distribution N(mean, std**2)
    (std is the standard deviation, not the variance). The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.normal_(torch.empty(2, 3), std=0.02)
        tensor([[ 0.0308, -0.0059, -0.0436],
                [ 0.0114, -0.0217, -0.0280]])
    """
    return _C._nn_init_normal_(tensor, mean, std)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    """trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0) -> Tensor

    Fill tensor from the normal distribution N(mean, std**2) restricted to
    [a, b]: values outside are not clipped but redrawn (the distribution is
    renormalized on the interval). Note that a and b are absolute bounds, not
    in units of std: with std=0.02 the defaults [-2, 2] cut nothing; pass
    a=-2 * std, b=2 * std for the usual two-sigma truncation (as ViT code
    does). Warns when mean is more than 2 std outside [a, b]. The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> w = torch.nn.init.trunc_normal_(torch.empty(1000), std=1.0, a=-0.5, b=0.5)
        >>> bool(w.min() >= -0.5), bool(w.max() <= 0.5)
        (True, True)
    """
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    return _C._nn_init_trunc_normal_(tensor, mean, std, a, b)


def constant_(tensor, val):
    """constant_(tensor, val) -> Tensor

    Fill tensor with the value val. The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> torch.nn.init.constant_(torch.empty(2, 3), 0.5)
        tensor([[0.5000, 0.5000, 0.5000],
                [0.5000, 0.5000, 0.5000]])
    """
    return _C._nn_init_constant_(tensor, val)


def ones_(tensor):
    """ones_(tensor) -> Tensor

    Fill tensor with 1. The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> torch.nn.init.ones_(torch.empty(2, 3))
        tensor([[1., 1., 1.],
                [1., 1., 1.]])
    """
    return _C._nn_init_constant_(tensor, 1.0)


def zeros_(tensor):
    """zeros_(tensor) -> Tensor

    Fill tensor with 0 (the usual start for biases). The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> torch.nn.init.zeros_(torch.empty(2, 3))
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """
    return _C._nn_init_constant_(tensor, 0.0)


def eye_(tensor):
    """eye_(tensor) -> Tensor

    Fill a 2-D tensor with the identity matrix (1 on the diagonal, 0
    elsewhere; rectangular shapes work), so that a linear layer starts by
    passing its input through. The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> torch.nn.init.eye_(torch.empty(2, 3))
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        tensor.copy_(torch.eye(tensor.shape[0], tensor.shape[1], dtype=tensor.dtype))
    return tensor


def dirac_(tensor, groups=1):
    """dirac_(tensor, groups=1) -> Tensor

    Fill a 3-, 4- or 5-D convolution weight (out, in, *kernel) with the Dirac
    delta: in each of the groups groups, output channel d gets a 1 at the
    kernel's centre for input channel d (for the first min(out / groups, in)
    channels), so that the convolution starts as the identity on those
    channels. The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> torch.nn.init.dirac_(torch.empty(2, 2, 3))
        tensor([[[0., 1., 0.],
                 [0., 0., 0.]],
        <BLANKLINE>
                [[0., 0., 0.],
                 [0., 1., 0.]]])
    """
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError('dim 0 must be divisible by groups')
    per_group = sizes[0] // groups
    centre = tuple(s // 2 for s in sizes[2:])
    with torch.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


def sparse_(tensor, sparsity, std=0.01):
    """sparse_(tensor, sparsity, std=0.01) -> Tensor

    Fill a 2-D tensor from N(0, std**2), then set a fraction sparsity of the
    entries of each column to 0 (ceil(sparsity * rows) rows chosen at random
    per column). The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> w = torch.nn.init.sparse_(torch.empty(4, 3), sparsity=0.5)
        >>> (w == 0).sum(dim=0)
        tensor([2, 2, 2])
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std)
        # one torch.randperm per column, so a seeded run draws what torch draws
        for col in range(cols):
            zero_rows = torch.randperm(rows)[:num_zeros]
            tensor[zero_rows, col] = 0
    return tensor


def xavier_uniform_(tensor, gain=1.0):
    """xavier_uniform_(tensor, gain=1.0) -> Tensor

    Glorot initialization, uniform: fill tensor from U(-bound, bound) with
    bound = gain * sqrt(6 / (fan_in + fan_out)), so that the variance gain**2
    * 2 / (fan_in + fan_out) is kept both forward and backward. For tanh or
    sigmoid layers; pass gain=calculate_gain('tanh') for tanh.

    fan_in and fan_out are the number of inputs and outputs of each unit:
    for a Linear weight (out_features, in_features) they are in_features and
    out_features; for a convolution weight (out, in, *kernel) they are
    in * prod(kernel) and out * prod(kernel). tensor needs at least 2
    dimensions. The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.xavier_uniform_(torch.empty(2, 3))
        tensor([[-0.0082,  0.5876, -0.9016],
                [-0.8062, -0.4219,  0.2938]])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _C._nn_init_uniform_(tensor, -a, a)


def xavier_normal_(tensor, gain=1.0):
    """xavier_normal_(tensor, gain=1.0) -> Tensor

    Glorot initialization, normal: fill tensor from N(0, std**2) with std =
    gain * sqrt(2 / (fan_in + fan_out)). fan_in and fan_out as in
    xavier_uniform_ (in_features and out_features for a Linear weight). The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.xavier_normal_(torch.empty(2, 3))
        tensor([[ 0.9746, -0.1856, -1.3780],
                [ 0.3595, -0.6859, -0.8845]])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _C._nn_init_normal_(tensor, 0.0, std)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu') -> Tensor

    He initialization, uniform: fill tensor from U(-bound, bound) with
    bound = gain * sqrt(3 / fan), gain = calculate_gain(nonlinearity, a), so
    that the standard deviation is gain / sqrt(fan). For relu networks pass
    nonlinearity='relu'.

    - a: the negative slope of the leaky_relu that follows (only used with
      nonlinearity='leaky_relu', the default). nn.Linear and nn.Conv*d
      initialize their weights with a=sqrt(5), which gives
      bound = 1 / sqrt(fan_in).
    - mode: 'fan_in' (default) keeps the variance of the activations in the
      forward pass; 'fan_out' that of the gradients in the backward pass.
      fan_in is the number of inputs of each unit (in_features of a Linear
      weight (out_features, in_features), in * prod(kernel) of a convolution
      weight), fan_out the number of outputs (out_features, or
      out * prod(kernel)).

    The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.kaiming_uniform_(torch.empty(2, 3), nonlinearity='relu')
        tensor([[-0.0106,  0.7586, -1.1640],
                [-1.0408, -0.5447,  0.3792]])
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return _C._nn_init_uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu') -> Tensor

    He initialization, normal: fill tensor from N(0, std**2) with std =
    gain / sqrt(fan), gain = calculate_gain(nonlinearity, a). For relu
    networks pass nonlinearity='relu' (std = sqrt(2 / fan_in)); ResNets use
    mode='fan_out'.

    - a: the negative slope of the leaky_relu that follows (only used with
      nonlinearity='leaky_relu', the default).
    - mode: 'fan_in' (default) keeps the variance of the activations forward,
      'fan_out' that of the gradients backward; fan_in and fan_out as in
      kaiming_uniform_.

    The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.nn.init.kaiming_normal_(torch.empty(2, 3), mode='fan_out', nonlinearity='relu')
        tensor([[ 1.5410, -0.2934, -2.1788],
                [ 0.5684, -1.0845, -1.3986]])
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return _C._nn_init_normal_(tensor, 0.0, std)


def orthogonal_(tensor, gain=1):
    """orthogonal_(tensor, gain=1) -> Tensor

    Fill tensor with a random (semi-)orthogonal matrix times gain: the QR
    decomposition of a normal random matrix, with signs fixed so that the
    distribution is uniform. A tensor with more than 2 dimensions is treated
    as (size(0), the product of the rest). Rows (or columns, whichever are
    fewer) are orthonormal, which keeps the norm of signals through deep or
    recurrent layers. The tensor is filled in place, without recording autograd history (so a
    Parameter can be passed directly), and returned.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> w = torch.nn.init.orthogonal_(torch.empty(2, 3))
        >>> torch.allclose(w @ w.T, torch.eye(2), atol=1e-6)
        True
    """
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    return _C._nn_init_orthogonal_(tensor, gain)


def _deprecated(new):
    def old(*args, **kwargs):
        warnings.warn(f"nn.init.{new.__name__[:-1]} is now deprecated in favor of "
                      f"nn.init.{new.__name__}.", stacklevel=2)
        return new(*args, **kwargs)
    old.__name__ = new.__name__[:-1]
    old.__doc__ = f"""{old.__name__}(*args, **kwargs)

    Deprecated alias of {new.__name__}(), with a warning: call {new.__name__}().
    """
    return old


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
sparse = _deprecated(sparse_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)

"""torch.nn.functional's image ops: convolutions, pooling, unfold/fold,
interpolation, padding modes, pixel and channel shuffles, instance and
local response normalisation, affine_grid and grid_sample.

Convolution, unfold/fold and pooling are C kernels (torch._C._nn_conv,
_nn_unfold, _nn_fold, _nn_pool; engine/ops/ops_conv.c). The rest are
compositions of the public ops, written as PyTorch's own Python layer
writes them or as its kernels compute them (index and weight formulas of
ATen's UpSample.h), so autograd, the hooks and the debugger see each step.
functional.py imports every public name of this module.
"""

import math
import warnings
import struct

import torch
from torch import _C
from torch.nn.modules.utils import _ntuple, _pair, _single, _triple

__all__ = [
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
    "max_pool2d_with_indices", "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d",
    "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d_with_indices", "fractional_max_pool2d", "fractional_max_pool3d",
    "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices", "lp_pool1d", "lp_pool2d", "max_unpool1d",
    "max_unpool2d", "max_unpool3d", "unfold", "fold", "interpolate", "upsample",
    "upsample_nearest", "upsample_bilinear", "pixel_shuffle", "pixel_unshuffle",
    "channel_shuffle", "native_channel_shuffle", "instance_norm", "local_response_norm",
    "affine_grid", "grid_sample",
]


def _named(result, name):
    return _C._nn_named(result, name)


# ---- convolution ----

def _conv_padding(nsp, input, weight, padding, stride, dilation):
    """Numbers for [padding] ('same' and 'valid' resolved); 'same' with an
    odd total pads the input's right side first, as ATen does."""
    if not isinstance(padding, str):
        return input, _ntuple(nsp)(padding)
    if padding == "valid":
        return input, (0,) * nsp
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    if weight.dim() != nsp + 2:
        return input, (0,) * nsp
    left, extra = [], []
    for d in range(nsp):
        total = dilation[d] * (weight.shape[2 + d] - 1)
        left.append(total // 2)
        extra.append(total - total // 2 - total // 2)
    if any(extra):
        pad = []
        for d in reversed(range(nsp)):
            pad += [0, extra[d]]
        input = torch.nn.functional.pad(input, pad)
    return input, tuple(left)


def _conv(nsp, name, input, weight, bias, stride, padding, dilation, groups):
    if input.dim() not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input.shape)}")
    unbatched = input.dim() == nsp + 1
    if unbatched:
        input = input.unsqueeze(0)
    stride = _ntuple(nsp)(stride)
    dilation = _ntuple(nsp)(dilation)
    input, padding = _conv_padding(nsp, input, weight, padding, stride, dilation)
    out = _C._nn_conv(input, weight, bias, stride, padding, dilation, (0,) * nsp, groups, False)
    return out.squeeze(0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

    A 1-D convolution (a cross-correlation, as in all deep learning
    libraries: the kernel is not flipped), what nn.Conv1d computes.

    - input: (N, C_in, L) or unbatched (C_in, L).
    - weight: (C_out, C_in / groups, kL), the kernels.
    - bias: (C_out,) or None.
    - stride: the step between kernel positions (an int or one per dimension).
    - padding: zeros added on both sides of each spatial dimension (an int or
      one per dimension), or 'valid' (none) or 'same' (the output keeps the
      input's size; stride must be 1).
    - dilation: the spacing between kernel elements.
    - groups: split the channels into this many independent groups (C_in and
      C_out divisible by it; groups=C_in is a depthwise convolution).

    Each output size is floor((size + 2 * padding - dilation * (kernel - 1) -
    1) / stride) + 1.

    Example::

        >>> x = torch.tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]])
        >>> w = torch.tensor([[[1.0, 0.0, -1.0]]])
        >>> F.conv1d(x, w)
        tensor([[[-2., -2., -2.]]])
        >>> F.conv1d(x, w, padding=1, stride=2)
        tensor([[[-2., -2.,  4.]]])
    """
    return _conv(1, "conv1d", input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

    A 2-D convolution (a cross-correlation, as in all deep learning
    libraries: the kernel is not flipped), what nn.Conv2d computes.

    - input: (N, C_in, iH, iW) or unbatched (C_in, iH, iW).
    - weight: (C_out, C_in / groups, kH, kW), the kernels.
    - bias: (C_out,) or None.
    - stride: the step between kernel positions (an int or one per dimension).
    - padding: zeros added on both sides of each spatial dimension (an int or
      one per dimension), or 'valid' (none) or 'same' (the output keeps the
      input's size; stride must be 1).
    - dilation: the spacing between kernel elements.
    - groups: split the channels into this many independent groups (C_in and
      C_out divisible by it; groups=C_in is a depthwise convolution).

    Each output size is floor((size + 2 * padding - dilation * (kernel - 1) -
    1) / stride) + 1.

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> w = torch.ones(1, 1, 2, 2)
        >>> F.conv2d(x, w, stride=2)
        tensor([[[[10., 18.],
                  [42., 50.]]]])
        >>> F.conv2d(x, w, padding='same').shape
        torch.Size([1, 1, 4, 4])
    """
    return _conv(2, "conv2d", input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

    A 3-D convolution (a cross-correlation, as in all deep learning
    libraries: the kernel is not flipped), what nn.Conv3d computes.

    - input: (N, C_in, iT, iH, iW) or unbatched (C_in, iT, iH, iW).
    - weight: (C_out, C_in / groups, kT, kH, kW), the kernels.
    - bias: (C_out,) or None.
    - stride: the step between kernel positions (an int or one per dimension).
    - padding: zeros added on both sides of each spatial dimension (an int or
      one per dimension), or 'valid' (none) or 'same' (the output keeps the
      input's size; stride must be 1).
    - dilation: the spacing between kernel elements.
    - groups: split the channels into this many independent groups (C_in and
      C_out divisible by it; groups=C_in is a depthwise convolution).

    Each output size is floor((size + 2 * padding - dilation * (kernel - 1) -
    1) / stride) + 1.

    Example::

        >>> x = torch.ones(1, 2, 3, 3, 3)
        >>> F.conv3d(x, torch.ones(4, 2, 2, 2, 2)).shape
        torch.Size([1, 4, 2, 2, 2])
    """
    return _conv(3, "conv3d", input, weight, bias, stride, padding, dilation, groups)


def _conv_t(nsp, name, input, weight, bias, stride, padding, output_padding, groups, dilation):
    if input.dim() not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input.shape)}")
    if isinstance(padding, str):
        raise TypeError(f"{name}() received an invalid combination of arguments: padding must "
                        f"be a number or a tuple, not '{padding}'")
    unbatched = input.dim() == nsp + 1
    if unbatched:
        input = input.unsqueeze(0)
    t = _ntuple(nsp)
    out = _C._nn_conv(input, weight, bias, t(stride), t(padding), t(dilation), t(output_padding),
                      groups, True)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor

    A 1-D transposed convolution (the gradient of conv1d with respect to
    its input; sometimes called a deconvolution), what nn.ConvTranspose1d
    computes: it enlarges the spatial size, e.g. doubles it with kernel 2 and
    stride 2 (decoders, U-Nets).

    - input: (N, C_in, L) or unbatched.
    - weight: (C_in, C_out / groups, kL): in channels first, unlike conv1d.
    - bias: (C_out,) or None.
    - stride, padding, dilation, groups: those of the convolution this one
      reverses; padding removes rows from the output.
    - output_padding: extra size added to one side of the output, to pick
      between the input sizes a strided convolution maps to the same size.

    Each output size is (size - 1) * stride - 2 * padding + dilation *
    (kernel - 1) + output_padding + 1. Note the argument order: groups comes
    before dilation.

    Example::

        >>> F.conv_transpose1d(torch.tensor([[[1.0, 2.0]]]), torch.tensor([[[1.0, 1.0, 1.0]]]))
        tensor([[[1., 3., 3., 2.]]])
    """
    return _conv_t(1, "conv_transpose1d", input, weight, bias, stride, padding, output_padding,
                   groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor

    A 2-D transposed convolution (the gradient of conv2d with respect to
    its input; sometimes called a deconvolution), what nn.ConvTranspose2d
    computes: it enlarges the spatial size, e.g. doubles it with kernel 2 and
    stride 2 (decoders, U-Nets).

    - input: (N, C_in, iH, iW) or unbatched.
    - weight: (C_in, C_out / groups, kH, kW): in channels first, unlike conv2d.
    - bias: (C_out,) or None.
    - stride, padding, dilation, groups: those of the convolution this one
      reverses; padding removes rows from the output.
    - output_padding: extra size added to one side of the output, to pick
      between the input sizes a strided convolution maps to the same size.

    Each output size is (size - 1) * stride - 2 * padding + dilation *
    (kernel - 1) + output_padding + 1. Note the argument order: groups comes
    before dilation.

    Example::

        >>> x = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> F.conv_transpose2d(x, torch.ones(1, 1, 2, 2), stride=2)
        tensor([[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.],
                  [3., 3., 4., 4.],
                  [3., 3., 4., 4.]]]])
    """
    return _conv_t(2, "conv_transpose2d", input, weight, bias, stride, padding, output_padding,
                   groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor

    A 3-D transposed convolution (the gradient of conv3d with respect to
    its input; sometimes called a deconvolution), what nn.ConvTranspose3d
    computes: it enlarges the spatial size, e.g. doubles it with kernel 2 and
    stride 2 (decoders, U-Nets).

    - input: (N, C_in, iT, iH, iW) or unbatched.
    - weight: (C_in, C_out / groups, kT, kH, kW): in channels first, unlike conv3d.
    - bias: (C_out,) or None.
    - stride, padding, dilation, groups: those of the convolution this one
      reverses; padding removes rows from the output.
    - output_padding: extra size added to one side of the output, to pick
      between the input sizes a strided convolution maps to the same size.

    Each output size is (size - 1) * stride - 2 * padding + dilation *
    (kernel - 1) + output_padding + 1. Note the argument order: groups comes
    before dilation.

    Example::

        >>> F.conv_transpose3d(torch.ones(1, 2, 2, 2, 2), torch.ones(2, 3, 2, 2, 2), stride=2).shape
        torch.Size([1, 3, 4, 4, 4])
    """
    return _conv_t(3, "conv_transpose3d", input, weight, bias, stride, padding, output_padding,
                   groups, dilation)


# ---- pooling ----

_POOL_DIMS_MSG = {
    1: "max_pool1d() Expected 2D or 3D input tensor, but got {}",
}


def _pool_input(nsp, input, what):
    if input.dim() not in (nsp + 1, nsp + 2) or (input.dim() == nsp + 1 and input.numel() == 0):
        if nsp == 1:
            raise RuntimeError(f"{what}: Expected 2D or 3D (batch mode) tensor with optional 0 "
                               f"dim batch size for input, but got:{list(input.shape)}")
        raise RuntimeError(f"non-empty {nsp + 1}D or {nsp + 2}D (batch mode) tensor expected "
                           f"for input")
    unbatched = input.dim() == nsp + 1
    return (input.unsqueeze(0) if unbatched else input), unbatched


def _ctrunc_half(k):
    # C++'s k / 2, which rounds toward zero
    return -((-k) // 2) if k < 0 else k // 2


def _pool_out_size(size, k, pad, stride, dil, ceil):
    """ATen's pooling_output_shape, with its checks in its order."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > _ctrunc_half(k):
        raise RuntimeError(f"pad should be at most half of kernel size, but got pad={pad} and "
                           f"kernel_size={k}")
    out = (size + 2 * pad - dil * (k - 1) - 1 + (stride - 1 if ceil else 0)) // stride + 1
    if ceil and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _pool_check(shape, k, s, p, d, ceil, avg3d=None):
    """PyTorch's checks of a 2-D or 3-D pooling (ATen's Pool.h) on an input
    of [shape] (unbatched or batched), raising its errors in its order: the
    output sizes first, then kernel, stride, dilation, empty dimensions,
    avg_pool3d's input smaller than its kernel ([avg3d]: the name its
    messages use, None for max_pool3d), and an output under 1. 1-D pooling
    reaches here as PyTorch runs it, as 2-D over (..., 1, L)."""
    nsp = len(k)
    ins = shape[-nsp:]
    outs = [_pool_out_size(ins[i], k[i], p[i], s[i], d[i], ceil) for i in range(nsp)]
    names = ("T", "H", "W")[3 - nsp:]
    if any(v <= 0 for v in k):
        raise RuntimeError("kernel size should be greater than zero, but got " +
                           " ".join(f"k{n}: {v}" for n, v in zip(names, k)))
    if any(v <= 0 for v in s):
        raise RuntimeError("stride should be greater than zero, but got " +
                           " ".join(f"d{n}: {v}" for n, v in zip(names, s)))
    if any(v <= 0 for v in d):
        raise RuntimeError("dilation should be greater than zero, but got " +
                           " ".join(f"dilation{n}: {v}" for n, v in zip(names, d)))
    if nsp == 2:
        valid = shape[-3] != 0 and shape[-2] != 0 and shape[-1] != 0
        if not valid:
            raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                               f"size for input, but got:{list(shape)}")
    else:
        fn = avg3d or "max_pool3d_with_indices_out_cpu_template()"
        for i, n in enumerate(shape):
            if n == 0 and not (len(shape) == 5 and i == 0):
                raise RuntimeError(f"{fn}: Expected input's non-batch dimensions to have positive "
                                   f"length, but input has a shape of {list(shape)} and non-batch "
                                   f"dimension {n} has length zero!")
        if avg3d and any(i < kk for i, kk in zip(ins, k)):
            raise RuntimeError(f"input image (T: {ins[0]} H: {ins[1]} W: {ins[2]}) smaller than "
                               f"kernel size (kT: {k[0]} kH: {k[1]} kW: {k[2]})")
    if any(o < 1 for o in outs):
        planes = shape[-nsp - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (planes,) + tuple(ins)))}). "
                           f"Calculated output size: ({'x'.join(map(str, [planes] + outs))}). "
                           "Output size is too small")


def _max_pool1d_plain(input, k, s, p, d, ceil):
    """PyTorch's max_pool1d without indices (no grad wanted): its own checks
    and messages, and an empty result where the window does not fit."""
    if any(n == 0 for n in input.shape[-2:]):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim "
                           f"batch size for input, but got:{list(input.shape)}")
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got "
                           f"padding={p} and kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = _pool_out_size(input.shape[-1], k, p, s, d, ceil)
    if out < 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    return out


def _pool_params(nsp, kernel_size, stride, padding, dilation):
    # each an int or one value per dim; ATen also takes a single value in a
    # sequence for every dim (OpInfo's avg_pool2d passes padding=(0,))
    def t(v):
        v = _ntuple(nsp)(v)
        return tuple(v) * nsp if len(v) == 1 else tuple(v)
    k = t(kernel_size)
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else t(stride)
    return k, s, t(padding), t(dilation)


def _as_2d(nsp, shape, k, s, p, d):
    # PyTorch pools 1-D inputs as 2-D ones of height 1
    if nsp != 1:
        return shape, k, s, p, d
    return shape[:-1] + (1,) + shape[-1:], (1,) + k, (1,) + s, (0,) + p, (1,) + d


def _max_pool(nsp, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    k, s, p, d = _pool_params(nsp, kernel_size, stride, padding, dilation)
    if input.dim() in (nsp + 1, nsp + 2):
        if nsp == 1 and not return_indices and not (input.requires_grad and
                                                    torch.is_grad_enabled()):
            if _max_pool1d_plain(input, k[0], s[0], p[0], d[0], ceil_mode) == 0:
                return input.new_empty(input.shape[:-1] + (0,))
        elif input.numel() or nsp > 1:
            _pool_check(*_as_2d(nsp, tuple(input.shape), k, s, p, d), ceil_mode)
    x, unbatched = _pool_input(nsp, input, f"max_pool{nsp}d")
    name = "SqueezeBackward1" if nsp == 1 else f"MaxPool{nsp}DWithIndicesBackward0"
    r = _C._nn_pool(x, True, False, k, s, p, d, ceil_mode, False, None, return_indices, name)
    return _unbatch(r, unbatched, nsp, name, return_indices)


def _unbatch(r, unbatched, nsp, name, return_indices):
    """Drop the batch dim added for an unbatched input; PyTorch pools those
    directly in 2-D and 3-D, so the result keeps the pooling's name."""
    if not unbatched:
        return r
    if return_indices:
        out, ind = r
        out = out.squeeze(0)
        return (_named(out, name) if nsp > 1 else out), ind.squeeze(0)
    r = r.squeeze(0)
    return _named(r, name) if nsp > 1 and r.grad_fn is not None else r


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor

    The maximum over each kernel_size window of a (N, C, L) or (C, L)
    input, channel by channel (nn.MaxPool1d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size, so
      windows do not overlap and each size is divided by kernel_size.
    - padding: -inf padding on both sides (at most half the kernel).
    - dilation: the spacing between window elements.
    - ceil_mode: round the output size up instead of down, keeping a last
      partial window.
    - return_indices: also return the flat index of each maximum within its
      plane (what max_unpool1d takes).

    The same as max_pool1d with return_indices=True: returns (output,
    indices).

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> F.max_pool1d_with_indices(x, 2)
        (tensor([[[3., 5., 4.]]]), tensor([[[1, 3, 4]]]))
    """
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor

    The maximum over each kernel_size window of a (N, C, iH, iW) or (C, iH, iW)
    input, channel by channel (nn.MaxPool2d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size, so
      windows do not overlap and each size is divided by kernel_size.
    - padding: -inf padding on both sides (at most half the kernel).
    - dilation: the spacing between window elements.
    - ceil_mode: round the output size up instead of down, keeping a last
      partial window.
    - return_indices: also return the flat index of each maximum within its
      plane (what max_unpool2d takes).

    The same as max_pool2d with return_indices=True: returns (output,
    indices).

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> F.max_pool2d_with_indices(x, 2)
        (tensor([[[[ 5.,  7.],
                  [13., 15.]]]]), tensor([[[[ 5,  7],
                  [13, 15]]]]))
    """
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor

    The maximum over each kernel_size window of a (N, C, iT, iH, iW) or (C, iT, iH, iW)
    input, channel by channel (nn.MaxPool3d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size, so
      windows do not overlap and each size is divided by kernel_size.
    - padding: -inf padding on both sides (at most half the kernel).
    - dilation: the spacing between window elements.
    - ceil_mode: round the output size up instead of down, keeping a last
      partial window.
    - return_indices: also return the flat index of each maximum within its
      plane (what max_unpool3d takes).

    The same as max_pool3d with return_indices=True: returns (output,
    indices).

    Example::

        >>> F.max_pool3d_with_indices(torch.arange(8.0).view(1, 1, 2, 2, 2), 2)
        (tensor([[[[[7.]]]]]), tensor([[[[[7]]]]]))
    """
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor

    The maximum over each kernel_size window of a (N, C, L) or (C, L)
    input, channel by channel (nn.MaxPool1d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size, so
      windows do not overlap and each size is divided by kernel_size.
    - padding: -inf padding on both sides (at most half the kernel).
    - dilation: the spacing between window elements.
    - ceil_mode: round the output size up instead of down, keeping a last
      partial window.
    - return_indices: also return the flat index of each maximum within its
      plane (what max_unpool1d takes).

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> F.max_pool1d(x, 2)
        tensor([[[3., 5., 4.]]])
        >>> F.max_pool1d(x, 3, stride=1)
        tensor([[[3., 5., 5., 5.]]])
    """
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor

    The maximum over each kernel_size window of a (N, C, iH, iW) or (C, iH, iW)
    input, channel by channel (nn.MaxPool2d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size, so
      windows do not overlap and each size is divided by kernel_size.
    - padding: -inf padding on both sides (at most half the kernel).
    - dilation: the spacing between window elements.
    - ceil_mode: round the output size up instead of down, keeping a last
      partial window.
    - return_indices: also return the flat index of each maximum within its
      plane (what max_unpool2d takes).

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> F.max_pool2d(x, 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
        >>> F.max_pool2d(x, 3, stride=1, padding=1)
        tensor([[[[ 5.,  6.,  7.,  7.],
                  [ 9., 10., 11., 11.],
                  [13., 14., 15., 15.],
                  [13., 14., 15., 15.]]]])
    """
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False) -> Tensor

    The maximum over each kernel_size window of a (N, C, iT, iH, iW) or (C, iT, iH, iW)
    input, channel by channel (nn.MaxPool3d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size, so
      windows do not overlap and each size is divided by kernel_size.
    - padding: -inf padding on both sides (at most half the kernel).
    - dilation: the spacing between window elements.
    - ceil_mode: round the output size up instead of down, keeping a last
      partial window.
    - return_indices: also return the flat index of each maximum within its
      plane (what max_unpool3d takes).

    Example::

        >>> F.max_pool3d(torch.arange(8.0).view(1, 1, 2, 2, 2), 2)
        tensor([[[[[7.]]]]])
    """
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def _avg_pool(nsp, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override):
    k, s, p, d = _pool_params(nsp, kernel_size, stride, padding, 1)
    if nsp == 1 and input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor "
                           "for argument #1 'self' (while checking arguments for avg_pool1d)")
    if nsp == 2 and input.dim() < 3:
        # ATen reads input.size(-3) first
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.dim()}, "
                         f"{input.dim() - 1}], but got -3)")
    if input.dim() in (nsp + 1, nsp + 2):
        _pool_check(*_as_2d(nsp, tuple(input.shape), k, s, p, d), ceil_mode,
                    avg3d="avg_pool3d()" if nsp == 3 else None)
    x, unbatched = _pool_input(nsp, input, f"avg_pool{nsp}d")
    name = "SqueezeBackward1" if nsp == 1 else f"AvgPool{nsp}DBackward0"
    r = _C._nn_pool(x, False, False, k, s, p, d, ceil_mode, count_include_pad,
                    divisor_override, False, name)
    return _unbatch(r, unbatched, nsp, name, False)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True) -> Tensor

    The mean over each kernel_size window of a (N, C, L) or (C, L)
    input, channel by channel (nn.AvgPool1d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size.
    - padding: zeros added on both sides.
    - ceil_mode: round the output size up instead of down.
    - count_include_pad: count the padding zeros in each window's mean.

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> F.avg_pool1d(x, 2)
        tensor([[[2.0000, 3.5000, 2.0000]]])
    """
    return _avg_pool(1, input, kernel_size, stride, padding, ceil_mode, count_include_pad, None)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None) -> Tensor

    The mean over each kernel_size window of a (N, C, iH, iW) or (C, iH, iW)
    input, channel by channel (nn.AvgPool2d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size.
    - padding: zeros added on both sides.
    - ceil_mode: round the output size up instead of down.
    - count_include_pad: count the padding zeros in each window's mean.
    - divisor_override: divide each window's sum by this instead.

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> F.avg_pool2d(x, 2)
        tensor([[[[ 2.5000,  4.5000],
                  [10.5000, 12.5000]]]])
        >>> F.avg_pool2d(x, 2, padding=1, count_include_pad=False)
        tensor([[[[ 0.0000,  1.5000,  3.0000],
                  [ 6.0000,  7.5000,  9.0000],
                  [12.0000, 13.5000, 15.0000]]]])
    """
    return _avg_pool(2, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None) -> Tensor

    The mean over each kernel_size window of a (N, C, iT, iH, iW) or (C, iT, iH, iW)
    input, channel by channel (nn.AvgPool3d).

    - kernel_size: the window (an int or one per dimension).
    - stride: the step between windows; None (default) means kernel_size.
    - padding: zeros added on both sides.
    - ceil_mode: round the output size up instead of down.
    - count_include_pad: count the padding zeros in each window's mean.
    - divisor_override: divide each window's sum by this instead.

    Example::

        >>> F.avg_pool3d(torch.arange(8.0).view(1, 1, 2, 2, 2), 2)
        tensor([[[[[3.5000]]]]])
    """
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def _adaptive_size(nsp, input, output_size):
    if isinstance(output_size, int):
        return (output_size,) * nsp
    output_size = tuple(output_size)
    if len(output_size) != nsp:
        raise RuntimeError(f"adaptive_avg_pool{nsp}d: output_size must be {nsp}")
    return tuple(input.shape[input.dim() - nsp + i] if v is None else v
                 for i, v in enumerate(output_size))


def _adaptive(nsp, is_max, input, output_size, return_indices):
    what = f"adaptive_{'max' if is_max else 'avg'}_pool{nsp}d"
    if input.dim() not in (nsp + 1, nsp + 2):
        if nsp == 1:
            raise RuntimeError(f"{what}() argument 'output_size' (position 2) must be tuple of "
                               f"ints, not int" if False else
                               f"{what}(): Expected 2D or 3D tensor, but got "
                               f"{list(input.shape)}")
        raise RuntimeError(f"{what}(): Expected {nsp + 1}D or {nsp + 2}D tensor, but got "
                           f"{list(input.shape)}")
    size = _adaptive_size(nsp, input, output_size)
    for i in range(nsp):
        if input.shape[input.dim() - nsp + i] == 0 and input.numel() == 0:
            pass
    unbatched = input.dim() == nsp + 1
    x = input.unsqueeze(0) if unbatched else input
    if nsp == 1:
        name = "SqueezeBackward1"
    elif not is_max and all(v == 1 for v in size):
        name = "MeanBackward1"
    else:
        name = f"Adaptive{'Max' if is_max else 'Avg'}Pool{nsp}DBackward0"
    r = _C._nn_pool(x, is_max, True, size, size, (0,) * nsp, (1,) * nsp, False, False, None,
                    return_indices, name)
    return _unbatch(r, unbatched, nsp, name, return_indices)


def adaptive_avg_pool1d(input, output_size):
    """adaptive_avg_pool1d(input, output_size) -> Tensor

    The mean over windows chosen so that a (N, C, L) or (C, L) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global avg pool.

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> F.adaptive_avg_pool1d(x, 2)
        tensor([[[2., 3.]]])
    """
    return _adaptive(1, False, input, output_size, False)


def adaptive_avg_pool2d(input, output_size):
    """adaptive_avg_pool2d(input, output_size) -> Tensor

    The mean over windows chosen so that a (N, C, H, W) or (C, H, W) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global avg pool.

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> F.adaptive_avg_pool2d(x, 1)
        tensor([[[[7.5000]]]])
        >>> F.adaptive_avg_pool2d(x, (2, None))
        tensor([[[[ 2.,  3.,  4.,  5.],
                  [10., 11., 12., 13.]]]])
    """
    return _adaptive(2, False, input, output_size, False)


def adaptive_avg_pool3d(input, output_size):
    """adaptive_avg_pool3d(input, output_size) -> Tensor

    The mean over windows chosen so that a (N, C, D, H, W) or (C, D, H, W) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global avg pool.

    Example::

        >>> F.adaptive_avg_pool3d(torch.arange(8.0).view(1, 1, 2, 2, 2), 1)
        tensor([[[[[3.5000]]]]])
    """
    return _adaptive(3, False, input, output_size, False)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool1d_with_indices(input, output_size, return_indices=False) -> Tensor

    The maximum over windows chosen so that a (N, C, L) or (C, L) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global max pool.
    - return_indices: also return where each maximum is (for max_unpool).

    The same as adaptive_max_pool1d with return_indices=True.

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> F.adaptive_max_pool1d_with_indices(x, 2)
        (tensor([[[3., 5.]]]), tensor([[[1, 3]]]))
    """
    return _adaptive(1, True, input, output_size, True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool2d_with_indices(input, output_size, return_indices=False) -> Tensor

    The maximum over windows chosen so that a (N, C, H, W) or (C, H, W) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global max pool.
    - return_indices: also return where each maximum is (for max_unpool).

    The same as adaptive_max_pool2d with return_indices=True.

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> F.adaptive_max_pool2d_with_indices(x, 1)
        (tensor([[[[15.]]]]), tensor([[[[15]]]]))
    """
    return _adaptive(2, True, input, output_size, True)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool3d_with_indices(input, output_size, return_indices=False) -> Tensor

    The maximum over windows chosen so that a (N, C, D, H, W) or (C, D, H, W) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global max pool.
    - return_indices: also return where each maximum is (for max_unpool).

    The same as adaptive_max_pool3d with return_indices=True.

    Example::

        >>> F.adaptive_max_pool3d_with_indices(torch.arange(8.0).view(1, 1, 2, 2, 2), 1)
        (tensor([[[[[7.]]]]]), tensor([[[[[7]]]]]))
    """
    return _adaptive(3, True, input, output_size, True)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """adaptive_max_pool1d(input, output_size, return_indices=False) -> Tensor

    The maximum over windows chosen so that a (N, C, L) or (C, L) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global max pool.
    - return_indices: also return where each maximum is (for max_unpool).

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> F.adaptive_max_pool1d(x, 2)
        tensor([[[3., 5.]]])
    """
    return _adaptive(1, True, input, output_size, return_indices)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """adaptive_max_pool2d(input, output_size, return_indices=False) -> Tensor

    The maximum over windows chosen so that a (N, C, H, W) or (C, H, W) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global max pool.
    - return_indices: also return where each maximum is (for max_unpool).

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> F.adaptive_max_pool2d(x, 1)
        tensor([[[[15.]]]])
    """
    return _adaptive(2, True, input, output_size, return_indices)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """adaptive_max_pool3d(input, output_size, return_indices=False) -> Tensor

    The maximum over windows chosen so that a (N, C, D, H, W) or (C, D, H, W) input
    gives an output of size output_size whatever the input size (window i
    spans floor(i * in / out) to ceil((i + 1) * in / out)). Used before a
    classifier head so that any image size works.

    - output_size: an int, or one per dimension; None in a tuple keeps that
      dimension's size. output_size=1 is a global max pool.
    - return_indices: also return where each maximum is (for max_unpool).

    Example::

        >>> F.adaptive_max_pool3d(torch.arange(8.0).view(1, 1, 2, 2, 2), 1)
        tensor([[[[[7.]]]]])
    """
    return _adaptive(3, True, input, output_size, return_indices)


def _frac_intervals(sample, in_size, out_size, pool, dtype):
    """ATen's generate_intervals for every plane: window starts [N, C, out]."""
    n, c = sample.shape
    if out_size > 1:
        alpha = torch.tensor(float(in_size - pool), dtype=dtype) / (out_size - 1)
        i = torch.arange(out_size - 1).to(dtype)
        s = sample.unsqueeze(-1)
        seq = ((i + s) * alpha).long() - (s * alpha).long()
        last = torch.full((n, c, 1), in_size - pool, dtype=torch.long)
        return torch.cat([seq, last], -1)
    return torch.full((n, c, out_size), in_size - pool, dtype=torch.long)


def _fractional_max_pool(nsp, input, kernel_size, output_size, output_ratio, return_indices,
                         _random_samples):
    t = _ntuple(nsp)
    name = f"fractional_max_pool{nsp}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        ratio = t(output_ratio)
        output_size = [int(input.size(-nsp + i) * ratio[i]) for i in range(nsp)]
    if input.dim() not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"{name}(): Expected {nsp + 1}D or {nsp + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    if _random_samples is None:
        n_batch = 1 if input.dim() == nsp + 1 else input.size(0)
        _random_samples = torch.rand(n_batch, input.size(-nsp - 1), nsp, dtype=input.dtype)
    unbatched = input.dim() == nsp + 1
    x = input.unsqueeze(0) if unbatched else input
    k, out = t(kernel_size), t(output_size)
    n, c = x.shape[0], x.shape[1]
    insz = list(x.shape[2:])
    for d in range(nsp):
        if out[d] + k[d] - 1 > insz[d]:
            raise RuntimeError(f"{name}(): pool size {k[d]} too large relative to input size "
                               f"{insz[d]} and output size {out[d]}")
    # 2-D draws are (w, h); 3-D draws are (t, h, w), as ATen reads them
    which = [1, 0] if nsp == 2 else [0, 1, 2]
    idx = None
    stride = 1
    for d in reversed(range(nsp)):
        starts = _frac_intervals(_random_samples[..., which[d]], insz[d], out[d], k[d], x.dtype)
        shape_s = [n, c] + [1] * (2 * nsp)
        shape_s[2 + d] = out[d]
        shape_k = [1, 1] + [1] * (2 * nsp)
        shape_k[2 + nsp + d] = k[d]
        pos = starts.reshape(shape_s) + torch.arange(k[d]).reshape(shape_k)
        term = pos * stride
        idx = term if idx is None else idx + term
        stride *= insz[d]
    full = [n, c] + list(out) + list(k)
    kk = math.prod(k)
    lo = math.prod(out)
    idx = idx.expand(full).reshape(n, c, lo * kk)
    flat = x.reshape(n, c, math.prod(insz))
    windows = flat.gather(2, idx).reshape([n, c] + list(out) + [kk])
    arg = windows.argmax(-1, keepdim=True)
    chosen = idx.reshape([n, c] + list(out) + [kk]).gather(-1, arg).squeeze(-1)
    values = flat.gather(2, chosen.reshape(n, c, lo)).reshape([n, c] + list(out))
    values = _named(values, f"FractionalMaxPool{nsp}DBackward0")
    if unbatched:
        values, chosen = values.squeeze(0), chosen.squeeze(0)
    return (values, chosen) if return_indices else values


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None) -> Tuple[Tensor, Tensor]

    fractional_max_pool2d that also returns the indices of the maxima.
    """
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, True,
                                _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None) -> Tuple[Tensor, Tensor]

    fractional_max_pool3d that also returns the indices of the maxima.
    """
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, True,
                                _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None) -> Tensor

    Max pooling whose windows start at pseudo-random positions, so that the
    size can shrink by a non-integer factor. Give the output size either as
    output_size (ints) or as output_ratio (fractions in (0, 1) of the input
    size). input is (N, C, H, W) or (C, H, W).

    Example::

        >>> _ = torch.manual_seed(0)
        >>> F.fractional_max_pool2d(torch.arange(25.0).view(1, 1, 5, 5), 2, output_size=3).shape
        torch.Size([1, 1, 3, 3])
    """
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None) -> Tensor

    fractional_max_pool2d for (N, C, D, H, W) or (C, D, H, W) input.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> F.fractional_max_pool3d(torch.ones(1, 1, 5, 5, 5), 2, output_ratio=0.5).shape
        torch.Size([1, 1, 2, 2, 2])
    """
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False) -> Tensor

    The p-norm (sum of x**p) ** (1 / p) over each window of a (N, C, L) input,
    p = norm_type (p=1 is sum pooling; large p tends to max pooling). stride
    defaults to kernel_size.

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> F.lp_pool1d(x, 2, 2)
        tensor([[[3.1623, 5.3852, 4.0000]]])
    """
    # PyTorch's own composition (torch/nn/functional.py)
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False) -> Tensor

    The p-norm (sum of x**p) ** (1 / p) over each window of a (N, C, H, W)
    input, p = norm_type. stride defaults to kernel_size.

    Example::

        >>> F.lp_pool2d(torch.ones(1, 1, 2, 2), 1, 2)
        tensor([[[[4.]]]])
    """
    kw, kh = _pair(kernel_size)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = input.size()
    default_size = []
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] +
                            kernel_size[d] - 2 * padding[d])
    if output_size is None:
        return default_size
    output_size = list(output_size)
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError(f"output_size should be a sequence containing {len(kernel_size)} or "
                         f"{len(kernel_size) + 2} elements, but it has a length of "
                         f"'{len(output_size)}'")
    for d in range(len(kernel_size)):
        min_size = default_size[d] - stride[d]
        max_size = default_size[d] + stride[d]
        if not (min_size < output_size[d] < max_size):
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f'{min_size} and {max_size})')
    return output_size


def _max_unpool(nsp, input, indices, kernel_size, stride, padding, output_size):
    t = _ntuple(nsp)
    k = t(kernel_size)
    s = t(stride) if stride is not None else k
    size = _unpool_output_size(input, k, s, t(padding), output_size)
    lead = list(input.shape[:input.dim() - nsp])
    plane = 1
    for v in size:
        plane *= v
    flat_in = input.reshape(lead + [-1])
    flat_idx = indices.reshape(lead + [-1])
    if flat_idx.numel() and (int(flat_idx.min()) < 0 or int(flat_idx.max()) >= plane):
        bad = int(flat_idx.max()) if int(flat_idx.max()) >= plane else int(flat_idx.min())
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                           f"{'x'.join(str(v) for v in size)}")
    out = torch.zeros(lead + [plane], dtype=input.dtype).scatter(input.dim() - nsp, flat_idx,
                                                                 flat_in)
    return out.reshape(lead + list(size))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None) -> Tensor

    The partial inverse of max_pool1d: each value of input (N, C, L) is
    put back where indices (from max_pool1d(..., return_indices=True)) say
    its maximum came from, and every other position is 0.

    - kernel_size, stride, padding: those of the pooling (stride defaults to
      kernel_size).
    - output_size: the size to produce when several input sizes pool to the
      same size.

    Example::

        >>> x = torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> y, i = F.max_pool1d(x, 2, return_indices=True)
        >>> F.max_unpool1d(y, i, 2)
        tensor([[[0., 3., 0., 5., 4., 0.]]])
    """
    return _max_unpool(1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None) -> Tensor

    The partial inverse of max_pool2d: each value of input (N, C, H, W) is
    put back where indices (from max_pool2d(..., return_indices=True)) say
    its maximum came from, and every other position is 0.

    - kernel_size, stride, padding: those of the pooling (stride defaults to
      kernel_size).
    - output_size: the size to produce when several input sizes pool to the
      same size.

    Example::

        >>> x = torch.arange(16.0).view(1, 1, 4, 4)
        >>> y, i = F.max_pool2d(x, 2, return_indices=True)
        >>> F.max_unpool2d(y, i, 2)
        tensor([[[[ 0.,  0.,  0.,  0.],
                  [ 0.,  5.,  0.,  7.],
                  [ 0.,  0.,  0.,  0.],
                  [ 0., 13.,  0., 15.]]]])
    """
    return _max_unpool(2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None) -> Tensor

    The partial inverse of max_pool3d: each value of input (N, C, D, H, W) is
    put back where indices (from max_pool3d(..., return_indices=True)) say
    its maximum came from, and every other position is 0.

    - kernel_size, stride, padding: those of the pooling (stride defaults to
      kernel_size).
    - output_size: the size to produce when several input sizes pool to the
      same size.

    Example::

        >>> x = torch.arange(8.0).view(1, 1, 2, 2, 2)
        >>> y, i = F.max_pool3d(x, 2, return_indices=True)
        >>> F.max_unpool3d(y, i, 2).flatten()
        tensor([0., 0., 0., 0., 0., 0., 0., 7.])
    """
    return _max_unpool(3, input, indices, kernel_size, stride, padding, output_size)


# ---- unfold and fold ----

def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """unfold(input, kernel_size, dilation=1, padding=0, stride=1) -> Tensor

    Extract the sliding kernel_size blocks of a (N, C, H, W) image as columns:
    the result is (N, C * kH * kW, L), L the number of block positions (the
    im2col step of a convolution: conv2d is weight.view(C_out, -1) @ unfold).

    Example::

        >>> x = torch.arange(9.0).view(1, 1, 3, 3)
        >>> F.unfold(x, 2)
        tensor([[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    r = _C._nn_unfold(x, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))
    return r.squeeze(0) if unbatched else r


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor

    The inverse arrangement of unfold: columns (N, C * prod(kernel_size), L) of
    sliding blocks are put back into an image (N, C, *output_size), adding the
    values where blocks overlap.

    Example::

        >>> cols = torch.ones(1, 4, 4)
        >>> F.fold(cols, (3, 3), 2)
        tensor([[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    unbatched = input.dim() == 2
    x = input.unsqueeze(0) if unbatched else input
    r = _C._nn_fold(x, _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding),
                    _pair(stride))
    return r.squeeze(0) if unbatched else r


# ---- padding modes other than constant ----

def _pad_input_str(input, npad):
    # ATen's reflection_pad2d names the input by its dim count; 1d and 3d by its shape.
    return str(input.dim()) if npad == 2 else str(list(input.shape))


def _pad_indices(n, before, after, mode, dim, input, npad):
    if mode == "reflect":
        if before >= n or after >= n:
            # ATen numbers the pad argument of the dim it checks (#4, then #6, #8).
            arg = 4 + 2 * (input.dim() - 1 - dim)
            raise RuntimeError(f"Argument #{arg}: Padding size should be less than the corresponding "
                               f"input dimension, but got: padding ({before}, {after}) at "
                               f"dimension {dim} of input {_pad_input_str(input, npad)}")
        idx = list(range(before, 0, -1)) + list(range(n)) + list(range(n - 2, n - 2 - after, -1))
    elif mode == "replicate":
        idx = [0] * before + list(range(n)) + [n - 1] * after
    else:
        if before > n or after > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        idx = [(i - before) % n for i in range(n + before + after)]
    return torch.tensor(idx, dtype=torch.long)


def _pad_nonconstant(input, pad, mode):
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    npad = len(pad) // 2
    if mode != "circular" and not (input.dim() in (npad + 1, npad + 2) and npad <= 3):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                                  "supported for now")
    if mode == "circular" and input.dim() != npad + 2:
        raise AssertionError(f"Expected {npad + 1}D or {npad + 2}D (batch mode) tensor for "
                             f"input with possibly 0 batch size and non-zero dimensions for "
                             f"input, but got: {list(input.shape)}" if False else
                             "Padding length too large" if npad > input.dim() else
                             "Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                             "supported for now")
    out = input
    for i in range(npad):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        if before < 0:
            out = out.narrow(dim, -before, out.shape[dim] + before)
            before = 0
        if after < 0:
            out = out.narrow(dim, 0, out.shape[dim] + after)
            after = 0
        if before or after:
            out = out.index_select(dim, _pad_indices(out.shape[dim], before, after, mode, dim,
                                                     input, npad))
    names = {"reflect": "ReflectionPad", "replicate": "ReplicationPad"}
    if out is not input:
        out = _named(out, f"{names[mode]}{npad}DBackward0" if mode in names
                     else "torch::autograd::CopySlices")
    return out


# ---- interpolation ----

def _scale_t(dtype):
    return dtype if dtype in (torch.float32, torch.float64) else torch.float32


def _area_scale(in_size, out_size, align_corners, scale, dtype):
    """ATen's area_pixel_compute_scale in the computing type, as a 0-d tensor."""
    if align_corners:
        if out_size > 1:
            return torch.tensor(float(in_size - 1), dtype=dtype) / (out_size - 1)
        return torch.tensor(0.0, dtype=dtype)
    if scale is not None and scale > 0:
        return torch.tensor(1.0 / scale, dtype=dtype)
    return torch.tensor(float(in_size), dtype=dtype) / out_size


def _nearest_index(in_size, out_size, scale, exact):
    dst = torch.arange(out_size)
    if not exact and out_size == in_size:
        return dst
    if not exact and out_size == 2 * in_size:
        return dst // 2
    s = _area_scale(in_size, out_size, False, scale, torch.float32)
    if exact:
        src = ((dst.double() + 0.5) * s.double()).float().floor()
    else:
        src = (dst.float() * s).floor()
    return src.long().clamp(max=in_size - 1)


def _linear_taps(in_size, out_size, scale, align_corners, dtype):
    dst = torch.arange(out_size)
    if out_size == in_size:
        return [(dst, torch.ones(out_size, dtype=dtype)), (dst, torch.zeros(out_size, dtype=dtype))]
    r = _area_scale(in_size, out_size, align_corners, scale, dtype)
    d = dst.to(dtype)
    src = r * d if align_corners else (r * (d + 0.5) - 0.5).clamp(min=0)
    i0 = src.long()
    i1 = i0 + (i0 < in_size - 1).long()
    l1 = (src - i0.to(dtype)).clamp(0, 1)
    return [(i0, 1 - l1), (i1, l1)]


def _cubic_taps(in_size, out_size, scale, align_corners, dtype):
    r = _area_scale(in_size, out_size, align_corners, scale, dtype)
    d = torch.arange(out_size).to(dtype)
    src = r * d if align_corners else r * (d + 0.5) - 0.5
    i = src.floor().long().clamp(max=in_size - 1)
    t = (src - i.to(dtype)).clamp(0, 1)
    coeffs = _cubic_coeffs(t)
    return [((i - 1 + j).clamp(0, in_size - 1), coeffs[j]) for j in range(4)]


def _cubic_coeffs(t):
    """ATen's get_cubic_upsample_coefficients (A = -0.75) for offsets [t]."""
    A = -0.75

    def conv1(x):
        return ((x * (A + 2)) - (A + 3)) * x * x + 1

    def conv2(x):
        return ((x * A - 5 * A) * x + 8 * A) * x - 4 * A

    x2 = 1.0 - t
    return [conv2(t + 1.0), conv1(t), conv1(x2), conv2(x2 + 1.0)]


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def _aa_filter(kind, x):
    """ATen's antialias filters: the triangle, and Keys' cubic with a = -0.5
    (Pillow's, not the -0.75 of plain bicubic)."""
    x = abs(x)
    if kind == "linear":
        return 1.0 - x if x < 1.0 else 0.0
    a = -0.5
    if x < 1.0:
        return ((a + 2.0) * x - (a + 3.0)) * x * x + 1
    if x < 2.0:
        return (((x - 5) * x + 8) * x - 4) * a
    return 0.0


def _aa_taps(in_size, out_size, scale, align_corners, dtype, kind):
    """ATen's antialiased taps (HelperInterpBase::_compute_weights_aa): output
    i covers input [xmin, xmin + xsize) around center = scale (i + 0.5), the
    filter stretched by the scale when downsampling, weights normalised to
    sum 1; taps past xsize weigh 0. The arithmetic rounds where ATen stores
    into the input's type (float32 for float32 input)."""
    r = _f32 if dtype == torch.float32 else float
    scale = float(_area_scale(in_size, out_size, align_corners, scale, dtype))
    width = 2 if kind == "linear" else 4
    support = r((width * 0.5) * scale) if scale >= 1.0 else width * 0.5
    n_taps = int(math.ceil(support)) * 2 + 1
    invscale = r(1.0 / scale) if scale >= 1.0 else 1.0
    idx = [[0] * out_size for _ in range(n_taps)]
    wts = [[0.0] * out_size for _ in range(n_taps)]
    for i in range(out_size):
        center = r(scale * (i + 0.5))
        xmin = max(int(center - support + 0.5), 0)
        xsize = min(int(center + support + 0.5), in_size) - xmin
        ws = [r(_aa_filter(kind, r((r(j + xmin - center) + 0.5) * invscale)))
              for j in range(xsize)]
        total = 0.0
        for w in ws:
            total = r(total + w)
        for j in range(n_taps):
            idx[j][i] = min(xmin + j, in_size - 1)
            if j < xsize:
                wts[j][i] = r(ws[j] / total) if total != 0.0 else ws[j]
    return [(torch.tensor(idx[j]), torch.tensor(wts[j], dtype=dtype)) for j in range(n_taps)]


def _separable(x, nsp, sizes, scales, align_corners, kind, antialias=False):
    dtype = _scale_t(x.dtype)
    for k in reversed(range(nsp)):
        dim = x.dim() - nsp + k
        in_size = x.shape[dim]
        if antialias:
            # ATen leaves a dim whose size does not change as it is.
            if sizes[k] == in_size:
                continue
            taps = _aa_taps(in_size, sizes[k], scales[k] if scales else None, align_corners,
                            dtype, kind)
        else:
            taps = (_linear_taps if kind == "linear" else _cubic_taps)(
                in_size, sizes[k], scales[k] if scales else None, align_corners, dtype)
        shape = [1] * x.dim()
        shape[dim] = sizes[k]
        out = None
        for idx, w in taps:
            v = x.index_select(dim, idx)
            if out is None:
                out = v * w.reshape(shape)
            else:
                out = out + v * w.reshape(shape)
        x = out
    return x


_MODE_DIMS = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None, antialias=False) -> Tensor

    Resize the spatial dimensions of a batched input: (N, C, L), (N, C, H, W)
    or (N, C, D, H, W) (an unbatched image needs unsqueeze(0) first). Give
    either size (the output's spatial size) or scale_factor (a multiplier per
    spatial dimension), not both.

    - mode: 'nearest' (default), 'nearest-exact', 'linear' (3-D input),
      'bilinear' or 'bicubic' (4-D), 'trilinear' (5-D), 'area' (adaptive
      average pooling).
    - align_corners: for the linear modes and bicubic: True maps the corner
      pixels' centres onto each other, False (the default, None) their outer
      edges, which is what image libraries do.
    - recompute_scale_factor: compute the sampling from the output size rather
      than from scale_factor.
    - antialias: filter before downsampling (bilinear and bicubic), as PIL does.

    Example::

        >>> x = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> F.interpolate(x, scale_factor=2)
        tensor([[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.],
                  [3., 3., 4., 4.],
                  [3., 3., 4., 4.]]]])
        >>> F.interpolate(x, size=(3, 3), mode='bilinear', align_corners=True)
        tensor([[[[1.0000, 1.5000, 2.0000],
                  [2.0000, 2.5000, 3.0000],
                  [3.0000, 3.5000, 4.0000]]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size "
                    f"of {size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                    "and output size in (o1, o2, ...,oK) format.")
            output_size = list(size)
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, "
                    "C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [math.floor(float(input.size(i + 2)) * scale_factors[i])
                       for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")
    known = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
    if input.dim() not in (3, 4, 5) or mode not in known:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact "
            f"(got {mode})")
    need = _MODE_DIMS.get(mode)
    if need is not None and need != dim:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                  f"{need + 2}D input")
    if output_size is None:
        output_size = [int(input.size(i + 2) * scale_factors[i]) for i in range(dim)]
    for i, v in enumerate(output_size):
        if v <= 0:
            raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                               f"({', '.join(str(s) for s in input.shape[2:])}) and output "
                               f"({', '.join(str(s) for s in output_size)})")
    if mode == "area":
        return _adaptive(dim, False, input, output_size, False)
    tag = {1: "1D", 2: "2D", 3: "3D"}[dim]
    if mode in ("nearest", "nearest-exact"):
        x = input
        for k in reversed(range(dim)):
            d = x.dim() - dim + k
            x = x.index_select(d, _nearest_index(input.shape[2 + k], output_size[k],
                                                 scale_factors[k] if scale_factors else None,
                                                 mode == "nearest-exact"))
        name = ("UpsampleNearestExact" if mode == "nearest-exact" else "UpsampleNearest") + tag
        return _named(x, name + "Backward1") if x is not input else x
    kind = "cubic" if mode == "bicubic" else "linear"
    x = _separable(input, dim, output_size, scale_factors, align_corners, kind, antialias)
    if antialias:
        name = "UpsampleBilinear2DAa" if mode == "bilinear" else "UpsampleBicubic2DAa"
        return _named(x, name + "Backward0") if x is not input else x.clone()
    names = {"linear": "UpsampleLinear1D", "bilinear": "UpsampleBilinear2D",
             "bicubic": "UpsampleBicubic2D", "trilinear": "UpsampleTrilinear3D"}
    return _named(x, names[mode] + "Backward1")


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None) -> Tensor

    Deprecated (with a warning): the same as interpolate, which should be used
    instead.
    """
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """upsample_nearest(input, size=None, scale_factor=None) -> Tensor

    Deprecated (with a warning): interpolate(input, size, scale_factor,
    mode='nearest').
    """
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate "
                  "instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """upsample_bilinear(input, size=None, scale_factor=None) -> Tensor

    Deprecated (with a warning): interpolate(input, size, scale_factor,
    mode='bilinear', align_corners=True).
    """
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate "
                  "instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ---- shuffles ----

def pixel_shuffle(input, upscale_factor):
    """pixel_shuffle(input, upscale_factor) -> Tensor

    Rearrange (*, C * r**2, H, W) into (*, C, H * r, W * r), r =
    upscale_factor: each group of r**2 channels becomes an r x r block of
    pixels (sub-pixel convolution for super-resolution).

    Example::

        >>> F.pixel_shuffle(torch.arange(4.0).view(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    r = upscale_factor
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *lead, c, h, w = input.shape
    if c % (r * r) != 0:
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)={c} "
                           f"is not divisible by {r * r}")
    oc = c // (r * r)
    n = len(lead)
    x = input.reshape(list(lead) + [oc, r, r, h, w])
    perm = list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2]
    out = x.permute(perm).reshape(list(lead) + [oc, h * r, w * r])
    return _named(out, "PixelShuffleBackward0")


def pixel_unshuffle(input, downscale_factor):
    """pixel_unshuffle(input, downscale_factor) -> Tensor

    The inverse of pixel_shuffle: (*, C, H * r, W * r) becomes
    (*, C * r**2, H, W), r = downscale_factor.

    Example::

        >>> F.pixel_unshuffle(torch.arange(4.0).view(1, 1, 2, 2), 2).flatten()
        tensor([0., 1., 2., 3.])
    """
    r = downscale_factor
    if input.dim() < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *lead, c, h, w = input.shape
    if h % r != 0:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by "
                           f"downscale_factor, but input.size(-2)={h} is not divisible by {r}")
    if w % r != 0:
        raise RuntimeError(f"pixel_unshuffle expects width to be divisible by "
                           f"downscale_factor, but input.size(-1)={w} is not divisible by {r}")
    n = len(lead)
    x = input.reshape(list(lead) + [c, h // r, r, w // r, r])
    perm = list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3]
    out = x.permute(perm).reshape(list(lead) + [c * r * r, h // r, w // r])
    return _named(out, "PixelUnshuffleBackward0")


def channel_shuffle(input, groups):
    """channel_shuffle(input, groups) -> Tensor

    Interleave the channels of groups groups (ShuffleNet): channels (N, C, *)
    are seen as (groups, C / groups) and transposed, so channel order
    a0 a1 b0 b1 becomes a0 b0 a1 b1.

    Example::

        >>> F.channel_shuffle(torch.arange(4.0).view(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input to have at least 3 dimensions, but "
                           f"got input with {input.dim()} dimension(s)")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    c = input.shape[1]
    if c % groups != 0:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {groups} groups.")
    n = input.shape[0]
    rest = list(input.shape[2:])
    x = input.reshape([n, groups, c // groups] + rest).transpose(1, 2)
    return x.reshape(list(input.shape))


native_channel_shuffle = channel_shuffle


# ---- normalisation ----

def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1, eps=1e-05) -> Tensor

    Normalize each channel of each sample of an (N, C, ...) input over its
    positions: (x - mean) / sqrt(var + eps) * weight + bias (style transfer).
    With use_input_stats=True (default) the statistics are the input's and
    running_mean/running_var, when given, are updated with momentum as in
    batch_norm; with False the running statistics are used.

    Example::

        >>> x = torch.tensor([[[1.0, 3.0], [0.0, 4.0]]])
        >>> F.instance_norm(x)
        tensor([[[-1.0000,  1.0000],
                 [-1.0000,  1.0000]]])
    """
    # ATen's instance_norm: batch_norm over the input viewed as [1, N*C, ...]
    if use_input_stats:
        size = input.size()
        prod = 1
        for s in size[2:]:
            prod *= s
        if prod == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {size}")
    n, c = input.shape[0], input.shape[1]
    shape = [1, n * c] + list(input.shape[2:])
    x = input.reshape(shape)
    w = weight.repeat(n) if weight is not None else None
    b = bias.repeat(n) if bias is not None else None
    rm = running_mean.repeat(n) if running_mean is not None else None
    rv = running_var.repeat(n) if running_var is not None else None
    out = torch.nn.functional.batch_norm(x, rm, rv, w, b, use_input_stats, momentum, eps)
    with torch.no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(n, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(n, c).mean(0))
    return _named(out.view(input.shape), "ViewBackward0")


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """local_response_norm(input, size, alpha=0.0001, beta=0.75, k=1.0) -> Tensor

    Divide each element by (k + alpha / size * sum of squares over size
    neighbouring channels) ** beta (AlexNet's normalization). input is
    (N, C, ...) with at least 3 dimensions.

    Example::

        >>> F.local_response_norm(torch.ones(1, 3, 1), size=2, alpha=1.0)
        tensor([[[0.7378],
                 [0.5946],
                 [0.5946]]])
    """
    # PyTorch's own composition (torch/nn/functional.py)
    dim = input.dim()
    if dim < 3:
        # PyTorch's message, with the spaces its source's line continuation leaves
        raise ValueError("Expected 3D or higher dimensionality" + " " * 26 +
                         f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if dim == 3:
        div = torch.nn.functional.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = torch.nn.functional.pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ---- spatial transformers ----

def _linspace_grid(steps, align_corners, dtype):
    if steps <= 1:
        return torch.zeros(max(steps, 1), dtype=dtype)
    r = torch.linspace(-1, 1, steps, dtype=dtype)
    if not align_corners:
        r = r * (steps - 1) / steps
    return r


def affine_grid(theta, size, align_corners=None):
    """affine_grid(theta, size, align_corners=None) -> Tensor

    The sampling grid of an affine transform, for grid_sample: theta (N, 2, 3)
    maps output positions to input positions (in [-1, 1] coordinates) and size
    is the output's (N, C, H, W); the result is (N, H, W, 2). 3-D: theta
    (N, 3, 4), size (N, C, D, H, W). align_corners as in grid_sample.

    Example::

        >>> theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> F.affine_grid(theta, (1, 1, 2, 2), align_corners=True)
        tensor([[[[-1., -1.],
                  [ 1., -1.]],
        <BLANKLINE>
                 [[-1.,  1.],
                  [ 1.,  1.]]]])
    """
    if align_corners is None:
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = list(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {list(theta.shape)}.")
        n, _, h, w = size
        base = torch.ones(n, h, w, 3, dtype=theta.dtype)
        base[..., 0] = _linspace_grid(w, align_corners, theta.dtype)
        base[..., 1] = _linspace_grid(h, align_corners, theta.dtype).unsqueeze(-1)
        grid = base.view(n, h * w, 3).bmm(theta.transpose(1, 2))
        return grid.view(n, h, w, 2)
    if len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                             f"{size}. Got {list(theta.shape)}.")
        n, _, d, h, w = size
        base = torch.ones(n, d, h, w, 4, dtype=theta.dtype)
        base[..., 0] = _linspace_grid(w, align_corners, theta.dtype)
        base[..., 1] = _linspace_grid(h, align_corners, theta.dtype).unsqueeze(-1)
        base[..., 2] = _linspace_grid(d, align_corners, theta.dtype).unsqueeze(-1).unsqueeze(-1)
        grid = base.view(n, d * h * w, 4).bmm(theta.transpose(1, 2))
        return grid.view(n, d, h, w, 3)
    raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                              f"transforms, respectively. Got size {size}.")


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, lo, hi):
    # ATen's reflect_coordinates over [lo, hi] given doubled (twice_low, twice_high)
    if lo == hi:
        return torch.zeros_like(coord)
    mn = lo / 2
    span = (hi - lo) / 2
    c = (coord - mn).abs()
    extra = torch.fmod(c, span)
    flips = (c / span).floor()
    return torch.where(flips.remainder(2) == 0, extra + mn, span - extra + mn)


def _source_coord(coord, size, padding_mode, align_corners):
    return _pad_coord(_unnormalize(coord, size, align_corners), size, padding_mode,
                      align_corners)


def _pad_coord(coord, size, padding_mode, align_corners):
    if padding_mode == "border":
        coord = coord.clamp(0, size - 1)
    elif padding_mode == "reflection":
        if align_corners:
            coord = _reflect(coord, 0, 2 * (size - 1))
        else:
            coord = _reflect(coord, -1, 2 * size - 1)
        coord = coord.clamp(0, size - 1)
    return coord


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None) -> Tensor

    Sample input at arbitrary points (spatial transformer networks). input is
    (N, C, H, W) and grid (N, H_out, W_out, 2) holds (x, y) positions in
    [-1, 1] (-1 the left/top edge, 1 the right/bottom); the result is (N, C,
    H_out, W_out). 5-D input with a (N, D, H, W, 3) grid works the same.

    - mode: 'bilinear' (default), 'nearest' or 'bicubic' (4-D only).
    - padding_mode: the value outside the input: 'zeros', 'border' (the edge
      value) or 'reflection'.
    - align_corners: True puts -1 and 1 at the centres of the corner pixels,
      False (default) at their outer edges.

    Example::

        >>> x = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> grid = torch.tensor([[[[0.0, 0.0], [1.0, -1.0]]]])
        >>> F.grid_sample(x, grid, align_corners=True)
        tensor([[[[2.5000, 2.0000]]]])
    """
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        align_corners = False
    if input.dim() == 5 and grid.dim() == 5 and grid.shape[-1] == 3:
        if mode == "bicubic":
            raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
        return _grid_sample_3d(input, grid, mode, padding_mode, align_corners)
    if input.dim() != 4 or grid.dim() != 4 or grid.shape[-1] != 2:
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number "
                           f"of dimensions, but got input with sizes {list(input.shape)} and "
                           f"grid with sizes {list(grid.shape)}")
    n, c, ih, iw = input.shape
    oh, ow = grid.shape[1], grid.shape[2]
    flat = input.reshape(n, c, ih * iw)

    def gather(yi, xi, w):
        valid = ((xi >= 0) & (xi <= iw - 1) & (yi >= 0) & (yi <= ih - 1))
        xc = xi.clamp(0, iw - 1).long()
        yc = yi.clamp(0, ih - 1).long()
        idx = (yc * iw + xc).reshape(n, 1, oh * ow).expand(n, c, oh * ow)
        v = flat.gather(2, idx).reshape(n, c, oh, ow)
        return v * (w * valid.to(w.dtype)).unsqueeze(1)

    if mode == "bicubic":
        # ATen: 4x4 taps around the unpadded source point, each tap's
        # coordinate padded on its own, rows interpolated first
        x = _unnormalize(grid[..., 0], iw, align_corners)
        y = _unnormalize(grid[..., 1], ih, align_corners)
        x0 = x.floor()
        y0 = y.floor()
        cx = _cubic_coeffs(x - x0)
        cy = _cubic_coeffs(y - y0)
        out = None
        for i in range(4):
            yi = _pad_coord(y0 - 1 + i, ih, padding_mode, align_corners)
            row = None
            for j in range(4):
                v = gather(yi, _pad_coord(x0 - 1 + j, iw, padding_mode, align_corners), cx[j])
                row = v if row is None else row + v
            term = row * cy[i].unsqueeze(1)
            out = term if out is None else out + term
        return _named(out, "GridSampler2DBackward0")
    x = _source_coord(grid[..., 0], iw, padding_mode, align_corners)
    y = _source_coord(grid[..., 1], ih, padding_mode, align_corners)
    if mode == "nearest":
        xn = torch.round(x)
        yn = torch.round(y)
        return _named(gather(yn, xn, torch.ones_like(x)), "GridSampler2DBackward0")
    x0 = x.floor()
    y0 = y.floor()
    x1 = x0 + 1
    y1 = y0 + 1
    wx1 = x - x0
    wx0 = x1 - x
    wy1 = y - y0
    wy0 = y1 - y
    out = (gather(y0, x0, wy0 * wx0) + gather(y0, x1, wy0 * wx1) + gather(y1, x0, wy1 * wx0) +
           gather(y1, x1, wy1 * wx1))
    return _named(out, "GridSampler2DBackward0")


def _grid_sample_3d(input, grid, mode, padding_mode, align_corners):
    n, c, idp, ih, iw = input.shape
    od, oh, ow = grid.shape[1], grid.shape[2], grid.shape[3]
    flat = input.reshape(n, c, idp * ih * iw)
    x = _source_coord(grid[..., 0], iw, padding_mode, align_corners)
    y = _source_coord(grid[..., 1], ih, padding_mode, align_corners)
    z = _source_coord(grid[..., 2], idp, padding_mode, align_corners)

    def gather(zi, yi, xi, w):
        valid = ((xi >= 0) & (xi <= iw - 1) & (yi >= 0) & (yi <= ih - 1) & (zi >= 0) &
                 (zi <= idp - 1))
        idx = ((zi.clamp(0, idp - 1).long() * ih + yi.clamp(0, ih - 1).long()) * iw +
               xi.clamp(0, iw - 1).long())
        idx = idx.reshape(n, 1, od * oh * ow).expand(n, c, od * oh * ow)
        v = flat.gather(2, idx).reshape(n, c, od, oh, ow)
        return v * (w * valid.to(w.dtype)).unsqueeze(1)

    if mode == "nearest":
        out = gather(torch.round(z), torch.round(y), torch.round(x), torch.ones_like(x))
        return _named(out, "GridSampler3DBackward0")
    x0, y0, z0 = x.floor(), y.floor(), z.floor()
    x1, y1, z1 = x0 + 1, y0 + 1, z0 + 1
    wx = (x1 - x, x - x0)
    wy = (y1 - y, y - y0)
    wz = (z1 - z, z - z0)
    xs, ys, zs = (x0, x1), (y0, y1), (z0, z1)
    out = None
    # ATen's order: tnw, tne, tsw, tse, bnw, bne, bsw, bse
    for k in range(2):
        for j in range(2):
            for i in range(2):
                term = gather(zs[k], ys[j], xs[i], wx[i] * wy[j] * wz[k])
                out = term if out is None else out + term
    return _named(out, "GridSampler3DBackward0")

"""LayerNorm and GroupNorm (affine weight ones, bias zeros)."""

import numbers

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module, _check_device


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, device=None,
                 dtype=None):
        _check_device(device)
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, dtype=dtype))
            self.bias = Parameter(torch.empty(self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        _check_device(device)
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(torch.empty(num_channels, dtype=dtype))
            self.bias = Parameter(torch.empty(num_channels, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class LocalResponseNorm(Module):
    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class _CrossMapLRN2dFunction(torch.autograd.Function):
    """PyTorch's legacy cross-channel LRN (nn/modules/_functions.py), forward
    and its own backward, channel by channel in the same order."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        assert input.dim() == 4
        channels = input.size(1)
        sq = input * input
        pre_pad = int((size - 1) / 2 + 1)
        pre_pad_crop = min(pre_pad, channels)
        first = torch.zeros_like(sq[:, 0])
        for c in range(pre_pad_crop):
            first = first + sq[:, c]
        scales = [first]
        for c in range(1, channels):
            cur = scales[c - 1]
            if c < channels - pre_pad + 1:
                cur = cur + sq[:, c + pre_pad - 1]
            if c > pre_pad:
                cur = cur - sq[:, c - pre_pad]
            scales.append(cur)
        scale = torch.stack(scales, 1) * (alpha / size) + k
        output = torch.pow(scale, -beta) * input
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        ctx.save_for_backward(input, output, scale)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output, scale = ctx.saved_tensors
        size = ctx.size
        batch_size, channels, h, w = input.shape
        cache_ratio_value = 2 * ctx.alpha * ctx.beta / size
        inverse_pre_pad = int(size - (size - 1) / 2)
        grad_input = torch.pow(scale, -ctx.beta) * grad_output
        rows = []
        for n in range(batch_size):
            center = grad_output[n] * output[n] / scale[n]
            zeros = torch.zeros((1, h, w), dtype=input.dtype)
            padded = [zeros[0]] * inverse_pre_pad + list(center.unbind(0)) + \
                [zeros[0]] * (channels + size - 1 - inverse_pre_pad - channels)
            accum = torch.zeros((h, w), dtype=input.dtype)
            for i in range(size - 1):
                accum = accum + padded[i]
            chans = []
            for c in range(channels):
                accum = accum + padded[c + size - 1]
                chans.append(grad_input[n][c] - cache_ratio_value * input[n][c] * accum)
                accum = accum - padded[c]
            rows.append(torch.stack(chans))
        return torch.stack(rows), None, None, None, None


class CrossMapLRN2d(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return _CrossMapLRN2dFunction.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)

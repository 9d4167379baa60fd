"""torch.nn.grad: the gradients of a convolution with respect to its input
and to its weight, given the gradient of its output. A convolution is
linear in each, so each is one backward pass of the convolution from zeros
of the right shape (PyTorch calls its convolution_backward kernel; the
values are the same)."""

import torch
import torch.nn.functional as F

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input",
           "conv3d_weight"]


def _grad_input(conv, input_size, weight, grad_output, stride, padding, dilation, groups):
    with torch.enable_grad():
        x = torch.zeros(tuple(input_size), dtype=grad_output.dtype, requires_grad=True)
        out = conv(x, weight.detach(), None, stride, padding, dilation, groups)
        return torch.autograd.grad(out, x, grad_output)[0]


def _grad_weight(conv, input, weight_size, grad_output, stride, padding, dilation, groups):
    with torch.enable_grad():
        w = torch.zeros(tuple(weight_size), dtype=grad_output.dtype, requires_grad=True)
        out = conv(input.detach(), w, None, stride, padding, dilation, groups)
        return torch.autograd.grad(out, w, grad_output)[0]


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _grad_input(F.conv1d, input_size, weight, grad_output, stride, padding, dilation,
                       groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _grad_weight(F.conv1d, input, weight_size, grad_output, stride, padding, dilation,
                        groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _grad_input(F.conv2d, input_size, weight, grad_output, stride, padding, dilation,
                       groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _grad_weight(F.conv2d, input, weight_size, grad_output, stride, padding, dilation,
                        groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _grad_input(F.conv3d, input_size, weight, grad_output, stride, padding, dilation,
                       groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    return _grad_weight(F.conv3d, input, weight_size, grad_output, stride, padding, dilation,
                        groups)

"""Identity, Linear and Bilinear, initialised as PyTorch's reset_parameters
does (kaiming_uniform_ with a = sqrt(5), then the bias in +-1/sqrt(fan_in)),
drawing in the same order, so a seeded model gets PyTorch's weights."""

import math

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.parameter import Parameter, UninitializedParameter
from torch.nn.modules.module import Module, _check_device
from torch.nn.modules.lazy import LazyModuleMixin

__all__ = ["Identity", "Linear", "Bilinear", "LazyLinear"]


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        _check_device(device)
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        # self.weight and self.bias, read from _parameters: as attributes
        # they miss the instance dict and reach Module.__getattr__ only after
        # CPython 3.11 has built an AttributeError, which costs more than the
        # linear itself on small layers. A weight that is no longer a
        # parameter (torch.nn.utils.prune and parametrize replace it by a
        # plain attribute or a property) is read as an attribute.
        params = self._parameters
        try:
            weight = params["weight"]
            bias = params["bias"]
        except KeyError:
            weight = self.weight
            bias = self.bias
        return F.linear(input, weight, bias)


    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None,
                 dtype=None):
        _check_device(device)
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in1_features, in2_features),
                                            dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """Linear whose in_features is taken from the first input's last dim."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        _check_device(device)
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


# Calling a Linear makes Linear.forward's F.linear call from C, without the
# frame, while that is all the frame would do: the class's own forward,
# weight and bias in _parameters, F.linear unchanged, no hooks, no trace or
# profile function (linear_direct in binding/py_nn.c).
torch._C._module_fast_linear(Linear.forward, F.linear)

"""torch.* spellings of functions that user code usually reaches through
torch.nn.functional (torch.conv2d, torch.layer_norm, torch.kl_div, ...), and
the window functions (torch.hann_window, ...).

PyTorch exposes its ATen kernels under these names with ATen's argument
order: the losses take `reduction` as an integer (0 'none', 1 'mean',
2 'sum'), torch.embedding takes the weight first, torch.batch_norm the
affine parameters before the running statistics, torch.dropout the flag
`train`. Each function here maps that signature onto the nn.functional one,
which nndb already provides, and imports nn.functional only when called, so
`import torch` does not pay for it.
"""
import math

import torch

_REDUCTIONS = ("none", "mean", "sum")


def _F():
    import torch.nn.functional as F
    return F


def _reduction(r):
    if isinstance(r, str):
        return r
    if r not in (0, 1, 2):
        raise ValueError(f"{r} is not a valid value for reduction")
    return _REDUCTIONS[r]


# Same arguments, same order as nn.functional.
_SAME = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
         "conv_transpose3d", "celu", "selu", "threshold", "hardshrink", "prelu",
         "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "cosine_similarity",
         "pairwise_distance", "avg_pool1d", "adaptive_avg_pool1d", "bilinear")


def _same(name):
    def fn(*args, **kwargs):
        return getattr(_F(), name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    return fn


def celu_(input, alpha=1.0):
    return _F().celu(input, alpha, inplace=True)


def selu_(input):
    return _F().selu(input, inplace=True)


def threshold_(input, threshold, value):
    return _F().threshold(input, threshold, value, inplace=True)


def native_channel_shuffle(input, groups):
    return _F().channel_shuffle(input, groups)


def _max_pool(dims):
    def fn(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        return getattr(_F(), f"max_pool{dims}d")(input, kernel_size, stride or None, padding,
                                                 dilation, ceil_mode)
    fn.__name__ = fn.__qualname__ = f"max_pool{dims}d"
    return fn


def adaptive_max_pool1d(input, output_size):
    """(values, indices), as torch.adaptive_max_pool1d returns both."""
    return _F().adaptive_max_pool1d(input, output_size, return_indices=True)


def _dropout(name, inplace):
    def fn(input, p, train):
        return getattr(_F(), name)(input, p, train, inplace)
    fn.__name__ = fn.__qualname__ = name + ("_" if inplace else "")
    return fn


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    return _F().group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                           eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                              momentum, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return _F().embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                          scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def kl_div(input, target, reduction=1, *, log_target=False):
    # ATen's kl_div has no 'batchmean' and does not warn about 'mean'
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _F().kl_div(input, target, reduction=_reduction(reduction),
                           log_target=log_target)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    return _F().margin_ranking_loss(input1, input2, target, margin,
                                    reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    return _F().hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    return _F().cosine_embedding_loss(input1, input2, target, margin,
                                      reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        reduction=1):
    return _F().triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                    reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _F().poisson_nll_loss(input, target, log_input, full, eps=eps,
                                 reduction=_reduction(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    return _F().binary_cross_entropy_with_logits(input, target, weight,
                                                 reduction=_reduction(reduction),
                                                 pos_weight=pos_weight)


# ---- windows, computed as ATen's window functions compute them ----

def _window(name, window_length, periodic, dtype, requires_grad, body):
    if dtype is None:
        dtype = torch.get_default_dtype()
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {dtype}")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length="
                           f"{window_length}")
    if window_length == 0:
        w = torch.empty(0, dtype=dtype)
    elif window_length == 1:
        w = torch.ones(1, dtype=dtype)
    else:
        n = window_length + 1 if periodic else window_length
        w = body(n, dtype)
        if periodic:
            w = w[:-1].clone()
    return w.requires_grad_(requires_grad)


def _kw(kwargs):
    # layout and device are accepted as PyTorch's factories accept them
    return kwargs.get("dtype"), kwargs.get("requires_grad", False)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, **kwargs):
    def body(n, dt):
        return torch.arange(n, dtype=dt).mul_(math.pi * 2.0 / (n - 1)).cos_().mul_(-beta) \
            .add_(alpha)
    return _window("hamming_window", window_length, periodic, *_kw(kwargs), body)


def hann_window(window_length, periodic=True, **kwargs):
    def body(n, dt):
        return torch.arange(n, dtype=dt).mul_(math.pi * 2.0 / (n - 1)).cos_().mul_(-0.5) \
            .add_(0.5)
    return _window("hann_window", window_length, periodic, *_kw(kwargs), body)


def blackman_window(window_length, periodic=True, **kwargs):
    def body(n, dt):
        w = torch.arange(n, dtype=dt).mul_(math.pi / (n - 1))
        return w.mul(4).cos_().mul_(0.08) - w.mul(2).cos_().mul_(0.5) + 0.42
    return _window("blackman_window", window_length, periodic, *_kw(kwargs), body)


def bartlett_window(window_length, periodic=True, **kwargs):
    def body(n, dt):
        w = torch.arange(n, dtype=dt).mul_(2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        w[half:] = w[half:].mul(-1).add(2)
        return w
    return _window("bartlett_window", window_length, periodic, *_kw(kwargs), body)


def kaiser_window(window_length, periodic=True, beta=12.0, **kwargs):
    def body(n, dt):
        alpha = (n - 1) / 2.0
        a = torch.arange(n, dtype=dt)
        r = ((a - alpha) / alpha) ** 2
        return torch.i0(beta * torch.sqrt(1 - r)) / torch.i0(torch.tensor(beta, dtype=dt))
    return _window("kaiser_window", window_length, periodic, *_kw(kwargs), body)


def _rnn_function(name):
    # torch.lstm, torch.gru_cell, ...: python/torch/_rnn_aten.py, loaded on first call
    def fn(*args, **kwargs):
        import torch._rnn_aten
        return getattr(torch._rnn_aten, name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    return fn


def install(cls, module):
    """The functions into the dict [module], the methods on Tensor [cls]; a
    name torch already has keeps its own function."""
    names = {name: _same(name) for name in _SAME}
    for fn in (celu_, selu_, threshold_, native_channel_shuffle, adaptive_max_pool1d,
               layer_norm, group_norm, batch_norm, instance_norm, embedding, kl_div,
               margin_ranking_loss, hinge_embedding_loss, cosine_embedding_loss,
               triplet_margin_loss, poisson_nll_loss, binary_cross_entropy_with_logits,
               hamming_window, hann_window, blackman_window, bartlett_window, kaiser_window):
        names[fn.__name__] = fn
    for d in (1, 2, 3):
        names[f"max_pool{d}d"] = _max_pool(d)
    for name in ("lstm", "gru", "rnn_tanh", "rnn_relu"):
        names[name] = _rnn_function(name)
        names[name + "_cell"] = _rnn_function(name + "_cell")
    for name in ("dropout", "alpha_dropout", "feature_alpha_dropout"):
        names[name] = _dropout(name, False)
        names[name + "_"] = _dropout(name, True)
    for name, fn in names.items():
        module.setdefault(name, fn)
    methods = {
        "hardshrink": lambda self, lambd=0.5: _F().hardshrink(self, lambd),
        "prelu": lambda self, weight: _F().prelu(self, weight),
        "cfloat": lambda self, memory_format=None: self.to(torch.complex64),
        "cdouble": lambda self, memory_format=None: self.to(torch.complex128),
    }
    for name, fn in methods.items():
        if not hasattr(cls, name):
            fn.__name__ = fn.__qualname__ = name
            setattr(cls, name, fn)

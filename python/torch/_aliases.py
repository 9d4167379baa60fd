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
         "pairwise_distance", "avg_pool1d", "adaptive_avg_pool1d", "bilinear", "conv_tbc")


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
    """adaptive_max_pool1d(input, output_size) -> (Tensor, Tensor)

    The ATen spelling of torch.nn.functional.adaptive_max_pool1d: always
    returns (values, indices).
    """
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


def _on_generator(generator, fn):
    """fn() drawing from [generator] instead of the default one (for the
    nn.functional functions that have no generator argument)."""
    if generator is None:
        return fn()
    saved = torch.get_rng_state()
    torch.set_rng_state(generator.get_state())
    try:
        out = fn()
        generator.set_state(torch.get_rng_state())
    finally:
        torch.set_rng_state(saved)
    return out


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return _on_generator(generator, lambda: _F().rrelu(input, lower, upper, training))


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return _on_generator(generator, lambda: _F().rrelu(input, lower, upper, training, True))


def _feature_dropout(inplace):
    def fn(input, p, train):
        # ATen's _dropout_impl<feature_dropout=true>: one Bernoulli(1 - p) per
        # (sample, channel), divided by 1 - p, multiplied in
        if p < 0 or p > 1:
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
        if p == 0 or not train or input.numel() == 0:
            return input
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        if p == 1:
            zero = torch.zeros((), dtype=input.dtype)
            return input.mul_(zero) if inplace else input.mul(zero)
        noise = input.new_empty((input.size(0), input.size(1)) + (1,) * (input.dim() - 2))
        noise.bernoulli_(1 - p).div_(1 - p)
        return input.mul_(noise) if inplace else input.mul(noise)
    fn.__name__ = fn.__qualname__ = "feature_dropout" + ("_" if inplace else "")
    return fn


def native_dropout(input, p, train):
    """native_dropout(input, p, train) -> (Tensor, Tensor)

    The dropout kernel: returns (output, mask), mask the boolean tensor of the
    elements kept. Code should call torch.nn.functional.dropout.
    """
    if input.numel() == 0:
        return input, torch.empty_like(input)
    if train is None or train:
        p1m = 1.0 - p
        scale = 0.0 if p1m == 0 else 1.0 / p1m
        mask = torch.empty(input.shape, dtype=torch.bool).bernoulli_(p1m)
        return input.mul(mask).mul_(scale), mask
    return input.clone(), torch.ones(input.shape, dtype=torch.bool)


_MODES = ("bilinear", "nearest", "bicubic")
_PADDINGS = ("zeros", "border", "reflection")


def _grid_sampler(dims):
    def fn(input, grid, interpolation_mode, padding_mode, align_corners):
        if dims and input.dim() != dims + 2:
            raise RuntimeError(f"grid_sampler(): expected {dims + 2}D input and grid with same "
                               f"number of dimensions, but got input with sizes "
                               f"{list(input.shape)} and grid with sizes {list(grid.shape)}")
        return _F().grid_sample(input, grid, mode=_MODES[interpolation_mode],
                                padding_mode=_PADDINGS[padding_mode],
                                align_corners=align_corners)
    fn.__name__ = fn.__qualname__ = "grid_sampler" + (f"_{dims}d" if dims else "")
    return fn


def affine_grid_generator(theta, size, align_corners):
    return _F().affine_grid(theta, list(size), align_corners=align_corners)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0,
             zero_infinity=False):
    # reduction defaults to 0 ('none'): PyTorch 1.13's torch.ctc_loss does so (its
    # schema says Mean, which its argument parser reads as 0)
    return _F().ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                         _reduction(reduction), zero_infinity)


def embedding_renorm_(input, indices, max_norm, norm_type):
    """embedding_renorm_(input, indices, max_norm, norm_type) -> Tensor

    In place, scale down each row of input named in indices whose
    norm_type-norm is above max_norm to norm max_norm (what
    F.embedding(..., max_norm=) does to the looked-up rows); returns input.
    """
    # Scales each row named in indices (once, in sorted order) whose norm_type-norm is above
    # max_norm by max_norm / (norm + 1e-7).
    for i in sorted(set(indices.flatten().tolist())):
        row = input[i]
        norm = row.norm(norm_type).item()
        if norm > max_norm:
            row.mul_(max_norm / (norm + 1e-7))
    return input


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    d = weight.dim() - 2
    if d not in (1, 2, 3):
        raise RuntimeError(f"convolution: expected a 3-D, 4-D or 5-D weight, got {weight.dim()}-D")
    F = _F()
    if transposed:
        return getattr(F, f"conv_transpose{d}d")(input, weight, bias, stride, padding,
                                                  output_padding, groups, dilation)
    return getattr(F, f"conv{d}d")(input, weight, bias, stride, padding, dilation, groups)


def norm_except_dim(v, pow=2, dim=0):
    """norm_except_dim(v, pow=2, dim=0) -> Tensor

    The pow-norm of v over every dimension but dim, with those dimensions kept
    with size 1 (weight_norm's g); dim=-1 gives the norm of all of v.

    Example::

        >>> torch.norm_except_dim(torch.tensor([[3.0, 4.0], [6.0, 8.0]]), 2, 0)
        tensor([[ 5.],
                [10.]])
    """
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(
            (v.size(0),) + (1,) * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view(
            (1,) * (v.dim() - 1) + (v.size(-1),))
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> (Tensor, Tensor, Tensor)

    The group norm kernel: returns (output, mean, inverse standard deviation),
    the statistics of shape (N, group). Code should call
    torch.nn.functional.group_norm.
    """
    out = _F().group_norm(input, group, weight, bias, eps)
    x = input.detach().reshape(N, group, -1)
    mean = x.mean(-1)
    rstd = torch.rsqrt(x.var(-1, unbiased=False) + eps)
    return out, mean, rstd


def set_default_tensor_type(t):
    """set_default_tensor_type(t) -> None

    Deprecated in PyTorch: set the default tensor type, given as a legacy type
    or its name: torch.set_default_tensor_type(torch.DoubleTensor) (or
    'torch.DoubleTensor') makes float64 the default float dtype. Use
    torch.set_default_dtype(torch.float64).
    """
    if isinstance(t, str):
        name = t
        parts = t.split(".")
        obj = torch
        for part in parts[1:] if parts[0] == "torch" else parts:
            obj = getattr(obj, part, None)
            if obj is None:
                if "cuda" in parts:
                    raise TypeError(f"type {name} not available. Torch not compiled with CUDA "
                                    f"enabled.")
                raise ModuleNotFoundError(f"No module named '{name}'")
        t = obj
    dtype = getattr(t, "dtype", None)
    if not isinstance(dtype, torch.dtype):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    if not dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    torch.set_default_dtype(dtype)


def batch_norm_update_stats(input, running_mean, running_var, momentum):
    """batch_norm_update_stats(input, running_mean, running_var, momentum) -> (Tensor, Tensor)

    The per-channel (dimension 1) mean and biased variance of input, as batch
    norm computes them in training; running_mean and running_var, when given,
    move toward the mean and the unbiased variance by momentum, in place.
    """
    # (mean, biased variance) per channel (dim 1), in double as ATen's CPU kernel accumulates;
    # running_mean / running_var (when given) move by momentum towards the mean and the
    # unbiased variance, in place.
    dims = [0] + list(range(2, input.dim()))
    x = input.detach().double()
    n = input.numel() // input.size(1)
    mean = x.mean(dims)
    var_sum = (x - mean.view([1, -1] + [1] * (input.dim() - 2))).pow(2).sum(dims)
    with torch.no_grad():
        if running_mean is not None:
            running_mean.copy_(momentum * mean + (1 - momentum) * running_mean.double())
        if running_var is not None:
            running_var.copy_(momentum * (var_sum / (n - 1)) + (1 - momentum) *
                              running_var.double())
    return mean.to(input.dtype), (var_sum / n).to(input.dtype)


def from_file(filename, shared=None, size=0, *, dtype=None, layout=None, device=None,
              pin_memory=False):
    """from_file(filename, shared=None, size=0, *, dtype=None, layout=None, device=None, pin_memory=False) -> Tensor

    A 1-D tensor of the first size elements of dtype stored in the binary file
    filename (in the machine's byte order). The data is copied in: nndb does
    not provide shared=True, a tensor whose writes go back to the file.
    """
    # The first [size] elements of [dtype] stored in the file (native byte order), copied in:
    # shared=True (writes going back to the file through a shared mapping) is not provided.
    if shared:
        raise RuntimeError("from_file(shared=True) is not provided by nndb: the file is read "
                           "into memory (use shared=False)")
    dtype = dtype or torch.get_default_dtype()
    nbytes = size * torch.empty(0, dtype=dtype).element_size()
    try:
        with open(filename, "rb") as f:
            data = f.read(nbytes)
    except OSError as e:
        raise RuntimeError(f"unable to open file <{filename}> in read-only mode: "
                           f"{e.strerror} ({e.errno})") from None
    if len(data) < nbytes:
        raise RuntimeError(f"file <{filename}> size is smaller than the required mapping size "
                           f"<{nbytes}>")
    if size == 0:
        return torch.empty(0, dtype=dtype)
    return torch.frombuffer(bytearray(data), dtype=dtype)


def view_as_real_copy(input):
    return torch.view_as_real(input).clone()


def view_as_complex_copy(input):
    return torch.view_as_complex(input).clone()


_REINFORCE = """reinforce() was removed.
Use torch.distributions instead.
See https://pytorch.org/docs/master/distributions.html

Instead of:

probs = policy_network(state)
action = probs.multinomial()
next_state, reward = env.step(action)
action.reinforce(reward)
action.backward()

Use:

probs = policy_network(state)
# NOTE: categorical is equivalent to what used to be called multinomial
m = torch.distributions.Categorical(probs)
action = m.sample()
next_state, reward = env.step(action)
loss = -m.log_prob(action) * reward
loss.backward()
"""


def _reinforce(self, reward):
    raise RuntimeError(_REINFORCE)


def _volatile_get(self):
    import warnings
    warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
    return False


def _volatile_set(self, value):
    import warnings
    warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                  "instead.", stacklevel=2)


# ---- windows, computed as ATen's window functions compute them ----

_CPP_TYPES = {torch.int64: "long int", torch.int32: "int", torch.int16: "short int",
              torch.int8: "signed char", torch.uint8: "unsigned char", torch.bool: "bool"}


def _window(name, window_length, periodic, dtype, requires_grad, body):
    if dtype is None:
        dtype = torch.get_default_dtype()
    if not dtype.is_floating_point and not dtype.is_complex:
        # ATen prints the whole TensorOptions, with the C++ type's name
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                           f"{_CPP_TYPES.get(dtype, str(dtype))}, device=cpu, layout=Strided "
                           "(default), requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length="
                           f"{window_length}")
    if window_length == 0:
        w = torch.empty(0, dtype=dtype)
    elif window_length == 1:
        w = torch.ones(1, dtype=dtype)
    elif dtype.is_complex:
        # ATen's windows start from arange, which has no complex kernel
        kind = "ComplexFloat" if dtype == torch.complex64 else "ComplexDouble"
        raise RuntimeError(f'"arange_cpu" not implemented for \'{kind}\'')
    else:
        n = window_length + 1 if periodic else window_length
        w = body(n, dtype)
        if periodic:
            w = w[:-1].clone()
    return w.requires_grad_(requires_grad)


# PyTorch's window functions are overloads of torch._C, chosen by
# python_arg_parser.cpp: each signature in turn takes the call if every
# argument fits it (periodic must be a bool, window_length an int and not a
# bool, alpha/beta any real number, the later parameters only after the
# earlier ones: kaiser_window(4, beta=2.0) fits none). When none does, the
# one signature whose argument count fits says which argument is wrong, or
# the message lists them all.
_FACTORY_KW = (("torch.dtype", "dtype"), ("torch.layout", "layout"), ("Device", "device"),
               ("bool", "pin_memory"), ("bool", "requires_grad"))
_KW_SHOWN = ", ".join(f"{t if t != 'Device' else 'torch.device'} {n}" for t, n in _FACTORY_KW)


def _arg_typename(obj):
    t = type(obj)
    if isinstance(obj, torch.Tensor):
        return "Tensor"
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _arg_fits(kind, obj, name):
    if obj is None:
        return name in ("dtype", "layout", "device", "pin_memory", "requires_grad")
    if kind == "int":
        return (isinstance(obj, int) and not isinstance(obj, bool)) or (
            type(obj).__module__ == "numpy" and hasattr(obj, "__index__") and
            type(obj).__name__ != "bool_")
    if kind == "bool":
        return isinstance(obj, bool)
    if kind == "float":
        return isinstance(obj, (int, float)) or (
            type(obj).__module__ == "numpy" and hasattr(obj, "__float__")) or (
            isinstance(obj, torch.Tensor) and obj.dim() == 0)
    if kind == "torch.dtype":
        return isinstance(obj, torch.dtype)
    if kind == "torch.layout":
        return isinstance(obj, type(torch.strided))
    if kind == "Device":
        return isinstance(obj, (str, int, torch.device))
    raise AssertionError(kind)


def _arg_parse(name, sig, args, kwargs, loud):
    # the values of one signature's parameters, or None where the call does
    # not fit it ([loud]: raise PyTorch's TypeError saying why instead)
    params = list(sig) + list(_FACTORY_KW)
    if len(args) > len(sig):
        if loud:
            raise TypeError(f"{name}() takes {len(sig)} positional argument"
                            f"{'s' if len(sig) > 1 else ''} but {len(args)} "
                            f"{'were' if len(args) > 1 else 'was'} given")
        return None
    values = {}
    for i, (kind, pname) in enumerate(params):
        if i < len(args):
            obj = args[i]
            if pname in kwargs:
                if loud:
                    raise TypeError(f"{name}() got multiple values for argument '{pname}'")
                return None
        elif pname in kwargs:
            obj = kwargs[pname]
        elif i < len(sig):
            # the shorter signatures are the defaults: a signature's own
            # parameters are all required
            if loud:
                missing = ", ".join(f'"{p}"' for _, p in sig[i:] if p not in kwargs)
                raise TypeError(f"{name}() missing {len(sig) - i} required positional arguments: "
                                f"{missing}")
            return None
        else:
            continue
        if not _arg_fits(kind, obj, pname):
            if loud:
                where = f" (position {i + 1})" if i < len(args) else ""
                shown = "torch.device" if kind == "Device" else kind
                raise TypeError(f"{name}(): argument '{pname}'{where} must be {shown}, not "
                                f"{_arg_typename(obj)}")
            return None
        values[pname] = obj
    extra = [k for k in kwargs if k not in dict((p, 0) for _, p in params)]
    if extra:
        if loud:
            raise TypeError(f"{name}() got an unexpected keyword argument '{extra[0]}'")
        return None
    return values


def _window_args(name, sigs, args, kwargs):
    for sig in sigs:
        values = _arg_parse(name, sig, args, kwargs, False)
        if values is not None:
            return values
    given = len(args) + len(kwargs)
    plausible = [sig for sig in sigs if len(sig) <= given <= len(sig) + len(_FACTORY_KW)]
    if len(plausible) == 1:
        _arg_parse(name, plausible[0], args, kwargs, True)
    got = [_arg_typename(a) for a in args] + [f"{k}={_arg_typename(v)}" for k, v in kwargs.items()]
    shown = "".join(f"\n * ({', '.join(f'{t} {n}' for t, n in sig)}, *, {_KW_SHOWN})" for sig in sigs)
    raise TypeError(f"{name}() received an invalid combination of arguments - got "
                    f"({', '.join(got)}), but expected one of:{shown}\n")


def _window_call(name, sigs, args, kwargs, defaults, body_of):
    v = _window_args(name, sigs, args, kwargs)
    params = {**defaults, **{k: v[k] for k in defaults if k in v}}
    body = body_of(**params)
    return _window(name, v["window_length"], v.get("periodic", True), v.get("dtype"),
                   bool(v.get("requires_grad")), body)


_LEN = ("int", "window_length")
_PERIODIC = ("bool", "periodic")
_SIGS_PLAIN = ((_LEN,), (_LEN, _PERIODIC))


def hamming_window(*args, **kwargs):
    def body_of(alpha, beta):
        def body(n, dt):
            return torch.arange(n, dtype=dt).mul_(math.pi * 2.0 / (n - 1)).cos_() \
                .mul_(-beta).add_(alpha)
        return body
    sigs = _SIGS_PLAIN + ((_LEN, _PERIODIC, ("float", "alpha")),
                          (_LEN, _PERIODIC, ("float", "alpha"), ("float", "beta")))
    return _window_call("hamming_window", sigs, args, kwargs, {"alpha": 0.54, "beta": 0.46},
                        body_of)


def hann_window(*args, **kwargs):
    def body(n, dt):
        return torch.arange(n, dtype=dt).mul_(math.pi * 2.0 / (n - 1)).cos_().mul_(-0.5) \
            .add_(0.5)
    return _window_call("hann_window", _SIGS_PLAIN, args, kwargs, {}, lambda: body)


def blackman_window(*args, **kwargs):
    def body(n, dt):
        w = torch.arange(n, dtype=dt).mul_(math.pi / (n - 1))
        return w.mul(4).cos_().mul_(0.08) - w.mul(2).cos_().mul_(0.5) + 0.42
    return _window_call("blackman_window", _SIGS_PLAIN, args, kwargs, {}, lambda: body)


def bartlett_window(*args, **kwargs):
    def body(n, dt):
        w = torch.arange(n, dtype=dt).mul_(2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        w[half:] = w[half:].mul(-1).add(2)
        return w
    return _window_call("bartlett_window", _SIGS_PLAIN, args, kwargs, {}, lambda: body)


def kaiser_window(*args, **kwargs):
    def body_of(beta):
        beta = float(beta)

        def body(n, dt):
            alpha = (n - 1) / 2.0
            a = torch.arange(n, dtype=dt)
            r = ((a - alpha) / alpha) ** 2
            return torch.i0(beta * torch.sqrt(1 - r)) / torch.i0(torch.tensor(beta, dtype=dt))
        return body
    sigs = _SIGS_PLAIN + ((_LEN, _PERIODIC, ("float", "beta")),)
    return _window_call("kaiser_window", sigs, args, kwargs, {"beta": 12.0}, body_of)


def _rnn_function(name):
    # torch.lstm, torch.gru_cell, ...: python/torch/_rnn_aten.py, loaded on first call
    def fn(*args, **kwargs):
        import torch._rnn_aten
        return getattr(torch._rnn_aten, name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    return fn


_CPP_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
              "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
              "bool": "bool", "float16": "c10::Half", "bfloat16": "c10::BFloat16"}


def _options(dtype):
    # PyTorch's words for a dtype mismatch in the legacy constructors
    name = _CPP_NAMES.get(str(dtype).replace("torch.", ""), str(dtype))
    return (f"TensorOptions(dtype={name}, device=cpu, layout=Strided, requires_grad=false "
            f"(default), pinned_memory=false (default), memory_format=(nullopt))")


def _legacy_new(self, *args, **kwargs):
    """new(*args, **kwargs) -> Tensor

    The legacy constructor, with self's dtype: x.new() an empty tensor,
    x.new(2, 3) or x.new(torch.Size([2, 3])) an uninitialized one, x.new(data)
    a tensor of the data (a sequence), x.new(tensor) that tensor (of the same
    dtype). Newer code uses x.new_empty, x.new_zeros, x.new_tensor.

    Example::

        >>> x = torch.tensor([1, 2])
        >>> x.new([3, 4])
        tensor([3, 4])
        >>> x.new(2, 3).shape
        torch.Size([2, 3])
    """
    dtype = self.dtype
    if not args:
        return torch.empty(0, dtype=dtype)
    if len(args) == 1 and isinstance(args[0], torch.Tensor):
        if args[0].dtype != dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(args[0].dtype)})")
        return args[0].detach()
    if len(args) == 1 and isinstance(args[0], torch.Size):
        return torch.empty(tuple(args[0]), dtype=dtype)
    if len(args) == 1 and not isinstance(args[0], int):
        return torch.tensor(args[0], dtype=dtype)
    return torch.empty(args, dtype=dtype)


def install(cls, module):
    """The functions into the dict [module], the methods on Tensor [cls]; a
    name torch already has keeps its own function."""
    names = {name: _same(name) for name in _SAME}
    for fn in (celu_, selu_, threshold_, native_channel_shuffle, adaptive_max_pool1d,
               layer_norm, group_norm, batch_norm, instance_norm, embedding, kl_div,
               margin_ranking_loss, hinge_embedding_loss, cosine_embedding_loss,
               triplet_margin_loss, poisson_nll_loss, binary_cross_entropy_with_logits,
               hamming_window, hann_window, blackman_window, bartlett_window, kaiser_window,
               rrelu, rrelu_, native_dropout, affine_grid_generator, ctc_loss,
               embedding_renorm_, convolution, norm_except_dim, native_group_norm,
               set_default_tensor_type, batch_norm_update_stats, from_file, view_as_real_copy,
               view_as_complex_copy):
        names[fn.__name__] = fn
    for d in (1, 2, 3):
        names[f"max_pool{d}d"] = _max_pool(d)
    for name in ("lstm", "gru", "rnn_tanh", "rnn_relu"):
        names[name] = _rnn_function(name)
        names[name + "_cell"] = _rnn_function(name + "_cell")
    for name in ("dropout", "alpha_dropout", "feature_alpha_dropout"):
        names[name] = _dropout(name, False)
        names[name + "_"] = _dropout(name, True)
    for inplace in (False, True):
        fn = _feature_dropout(inplace)
        names[fn.__name__] = fn
    for dims in (0, 2, 3):
        fn = _grid_sampler(dims)
        names[fn.__name__] = fn
    for name, fn in names.items():
        module.setdefault(name, fn)
    methods = {
        "hardshrink": lambda self, lambd=0.5: _F().hardshrink(self, lambd),
        "prelu": lambda self, weight: _F().prelu(self, weight),
        "cfloat": lambda self, memory_format=None: self.to(torch.complex64),
        "cdouble": lambda self, memory_format=None: self.to(torch.complex128),
        "new": _legacy_new,
        "reinforce": _reinforce,
        "as_subclass": lambda self, cls: torch._C._alias_as(cls, self),
    }
    for name, fn in methods.items():
        if not hasattr(cls, name):
            fn.__name__ = fn.__qualname__ = name
            setattr(cls, name, fn)
    if not hasattr(cls, "volatile"):  # deprecated: always False, with PyTorch's warnings
        cls.volatile = property(_volatile_get, _volatile_set)

"""torch.nn.functional: PyTorch's functional layer API.

Each function checks and normalises its arguments as PyTorch's does (the
same defaults, warnings and error messages) and calls one kernel of
torch._C (binding/py_nn.c: _nn_*), or composes tensor ops where nndb has no
kernel of its own.
"""

import math
import warnings

import torch
from torch import _C

Tensor = torch.Tensor


# ---- reductions ----

def _legacy_reduction(size_average, reduce, emit_warning=True):
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        warnings.warn("size_average and reduce args will be deprecated, please use "
                      f"reduction='{ret}' instead.")
    return ret


def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _warn_size(input, target):
    if target.size() != input.size():
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", stacklevel=3)


# ---- linear layers ----

def linear(input, weight, bias=None):
    return _C._nn_linear(input, weight, bias)


def bilinear(input1, input2, weight, bias=None):
    # y[..., k] = sum_ij x1[..., i] W[k, i, j] x2[..., j] + b[k]
    out = torch.matmul(input1.unsqueeze(-2).unsqueeze(-3), weight)  # [..., k, 1, j]
    out = (out.squeeze(-2) * input2.unsqueeze(-2)).sum(-1)
    return out + bias if bias is not None else out


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    if max_norm is not None:
        raise NotImplementedError("embedding(max_norm=...) is not supported")
    out = _C._nn_embedding(input, weight)
    if padding_idx is not None and weight.requires_grad and torch.is_grad_enabled():
        # torch's backward leaves the padding row's gradient alone: the
        # padding positions pass their value but not their gradient.
        keep = (input != padding_idx).unsqueeze(-1)
        out = _named(torch.where(keep, out, out.detach()), "EmbeddingBackward0")
    return out


def one_hot(tensor, num_classes=-1):
    return _C._nn_one_hot(tensor, num_classes)


# ---- activations ----

def _named(result, name):
    # torch computes these in one kernel whose node has this name; here
    # they are compositions, named as torch's (see _nn_named in py_nn.c).
    return _C._nn_named(result, name)


def _inplace(input, result):
    with torch.no_grad():
        input.copy_(result)
    return input


def relu(input, inplace=False):
    r = torch.relu(input)
    return _inplace(input, r) if inplace else r


def relu_(input):
    return relu(input, inplace=True)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    r = _named(torch.clamp(input, min_val, max_val), "HardtanhBackward0")
    return _inplace(input, r) if inplace else r


def leaky_relu(input, negative_slope=0.01, inplace=False):
    r = _C._nn_leaky_relu(input, negative_slope)
    return _inplace(input, r) if inplace else r


def elu(input, alpha=1.0, inplace=False):
    r = _named(torch.where(input > 0, input, (torch.exp(input) - 1) * alpha), "EluBackward0")
    return _inplace(input, r) if inplace else r


def selu(input, inplace=False):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    r = _named(elu(input, alpha) * scale, "EluBackward0")
    return _inplace(input, r) if inplace else r


def celu(input, alpha=1.0, inplace=False):
    r = torch.where(input > 0, input, (torch.exp(input / alpha) - 1) * alpha)
    r = _named(r, "CeluBackward0")
    return _inplace(input, r) if inplace else r


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _C._nn_gelu(input, approximate == "tanh")


def silu(input, inplace=False):
    r = _C._nn_silu(input)
    return _inplace(input, r) if inplace else r


def mish(input, inplace=False):
    r = _named(input * torch.tanh(softplus(input)), "MishBackward0")
    return _inplace(input, r) if inplace else r


def hardsigmoid(input, inplace=False):
    r = _named(torch.clamp(input / 6 + 0.5, 0.0, 1.0), "HardsigmoidBackward0")
    return _inplace(input, r) if inplace else r


def hardswish(input, inplace=False):
    r = _named(input * torch.clamp(input + 3, 0.0, 6.0) / 6, "HardswishBackward0")
    return _inplace(input, r) if inplace else r


def softplus(input, beta=1, threshold=20):
    return _C._nn_softplus(input, beta, threshold)


def softsign(input):
    return input / (torch.abs(input) + 1)


def tanh(input):
    warnings.warn("nn.functional.tanh is deprecated. Use torch.tanh instead.")
    return torch.tanh(input)


def sigmoid(input):
    warnings.warn("nn.functional.sigmoid is deprecated. Use torch.sigmoid instead.")
    return torch.sigmoid(input)


def logsigmoid(input):
    return _named(-softplus(-input), "LogSigmoidBackward0")


def tanhshrink(input):
    return input - torch.tanh(input)


def threshold(input, threshold, value, inplace=False):
    r = torch.where(input > threshold, input, torch.full_like(input, value))
    r = _named(r, "ThresholdBackward0")
    return _inplace(input, r) if inplace else r


def glu(input, dim=-1):
    a, b = input.chunk(2, dim)
    return _named(a * torch.sigmoid(b), "GluBackward0")


def _softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return _C._nn_softmax(input, dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return _C._nn_softmax(-input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _C._nn_log_softmax(input, dim, dtype)


# ---- normalisation and dropout ----

def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    if training:
        _verify_batch_size(input.size())
    return _C._nn_batch_norm(input, running_mean, running_var, weight, bias, training,
                             0.0 if momentum is None else momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(normalized_shape):]) != normalized_shape:
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size"
            f"{list(input.size())}")
    return _C._nn_layer_norm(input, len(normalized_shape), weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    return _C._nn_group_norm(input, num_groups, weight, bias, eps)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    r = _C._nn_dropout(input, p, training)
    return _inplace(input, r) if inplace and training else r


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = torch.clamp(input.norm(p, dim, keepdim=True), min=eps)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # ATen's order: each side divided by its norm (clamped below by eps)
    # first, then the product summed.
    n1 = torch.clamp(x1.norm(2, dim, keepdim=True), min=eps)
    n2 = torch.clamp(x2.norm(2, dim, keepdim=True), min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


def pad(input, pad, mode="constant", value=None):
    if len(pad) % 2 != 0:
        raise AssertionError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise AssertionError("Padding length too large")
    if mode != "constant":
        raise NotImplementedError(f"pad(mode='{mode}') is not supported; only 'constant'")
    value = 0.0 if value is None else value
    out = input
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        if before < 0:
            out = out.narrow(dim, -before, out.shape[dim] + before)
            before = 0
        if after < 0:
            out = out.narrow(dim, 0, out.shape[dim] + after)
            after = 0
        parts = []
        if before:
            shape = list(out.shape)
            shape[dim] = before
            parts.append(torch.full(shape, value, dtype=out.dtype))
        parts.append(out)
        if after:
            shape = list(out.shape)
            shape[dim] = after
            parts.append(torch.full(shape, value, dtype=out.dtype))
        if len(parts) > 1:
            out = torch.cat(parts, dim)
    return _named(out, "ConstantPadNdBackward0")


# ---- losses ----

def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    reduction = _reduction(size_average, reduce, reduction)
    if input.is_floating_point() and target.is_floating_point():
        return _cross_entropy_probs(input, target, weight, reduction, label_smoothing)
    if weight is None:
        return _C._nn_cross_entropy(input, target, ignore_index, label_smoothing, reduction)
    logp = log_softmax(input, 1 if input.dim() >= 2 else 0)
    if label_smoothing == 0.0:
        return nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    raise NotImplementedError("cross_entropy with both weight and label_smoothing is not "
                              "supported")


def _cross_entropy_probs(input, target, weight, reduction, label_smoothing):
    if weight is None:
        return _C._nn_cross_entropy_probs(input, target, label_smoothing, reduction)
    cdim = 1 if input.dim() >= 2 else 0
    n_classes = input.shape[cdim]
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    shape = [1] * input.dim()
    shape[cdim] = n_classes
    loss = -(log_softmax(input, cdim) * target * weight.reshape(shape))
    if reduction == "mean":
        return loss.sum() / (input.numel() // n_classes)
    if reduction == "sum":
        return loss.sum()
    return loss.sum(cdim)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if weight is None:
        return _C._nn_nll_loss(input, target, ignore_index, reduction)
    # Weighted: -w[y] logp[y] per element; the mean divides by the sum of the
    # weights that were used, as PyTorch's does.
    cdim = 1 if input.dim() >= 2 else 0
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    picked = input.gather(cdim, safe.unsqueeze(cdim)).squeeze(cdim)
    w = weight[safe] * keep.to(input.dtype)
    loss = -picked * w
    if reduction == "mean":
        return _named(loss.sum() / w.sum(), "NllLossBackward0")
    return _named(_reduce(loss, reduction), "NllLossBackward0")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    return _C._nn_mse_loss(input, target, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    return _C._nn_l1_loss(input, target, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    d = torch.abs(input - target)
    if beta == 0.0:
        return _named(_reduce(d, reduction), "SmoothL1LossBackward0")
    loss = torch.where(d < beta, d * d * (0.5 / beta), d - 0.5 * beta)
    return _named(_reduce(loss, reduction), "SmoothL1LossBackward0")


def huber_loss(input, target, reduction="mean", delta=1.0):
    _warn_size(input, target)
    reduction = _reduction(None, None, reduction)
    d = torch.abs(input - target)
    loss = torch.where(d < delta, d * d * 0.5, (d - 0.5 * delta) * delta)
    return _named(_reduce(loss, reduction), "HuberLossBackward0")


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is None:
        return _C._nn_binary_cross_entropy(input, target, reduction)
    loss = _C._nn_binary_cross_entropy(input, target, "none") * weight
    return _named(_reduce(loss, reduction), "BinaryCrossEntropyBackward0")


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    if weight is None and pos_weight is None:
        return _C._nn_binary_cross_entropy_with_logits(input, target, reduction)
    if pos_weight is None:
        loss = _C._nn_binary_cross_entropy_with_logits(input, target, "none")
    else:
        # (1 - y) x + (1 + (pw - 1) y) softplus(-x)
        log_weight = (pos_weight - 1) * target + 1
        loss = (1 - target) * input + log_weight * softplus(-input)
    if weight is not None:
        loss = loss * weight
    return _named(_reduce(loss, reduction), "BinaryCrossEntropyWithLogitsBackward0")


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.")
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        loss = torch.where(target > 0, target * (torch.log(target) - input),
                           torch.zeros_like(target))
    if reduction == "batchmean":
        return loss.sum() / input.size()[0] if input.dim() != 0 else loss.sum()
    return _reduce(loss, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    return _reduce(loss, reduction)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _reduce(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _reduce(softplus(-target * input), reduction)


# No scaled_dot_product_attention: torch 1.13 has none (it came in 2.0), and
# course code (nanoGPT) tests hasattr(F, "scaled_dot_product_attention") to
# choose its attention path, so defining it would change what they print.


def multi_head_attention_forward(*args, **kwargs):
    # written beside nn.MultiheadAttention, which is its main caller
    from torch.nn.modules.attention import multi_head_attention_forward as forward
    return forward(*args, **kwargs)

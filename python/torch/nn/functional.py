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


_REDUCTIONS = ("mean", "sum", "none")


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
        # PyTorch's stacklevel=2 in the loss: the loss's caller
        torch._utils._warn_caller(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", depth=3)


# ---- linear layers ----

# The C function itself, as PyTorch's F.linear is torch._C._nn.linear: a
# Python wrapper's frame cost about as much as a small layer's product.
linear = _C.linear


def bilinear(input1, input2, weight, bias=None):
    # y[..., k] = sum_ij x1[..., i] W[k, i, j] x2[..., j] + b[k]
    out = torch.matmul(input1.unsqueeze(-2).unsqueeze(-3), weight)  # [..., k, 1, j]
    out = (out.squeeze(-2) * input2.unsqueeze(-2)).sum(-1)
    return out + bias if bias is not None else out


_LEGACY_TYPE = {torch.float32: "FloatTensor", torch.float64: "DoubleTensor",
                torch.float16: "HalfTensor", torch.bfloat16: "BFloat16Tensor",
                torch.int16: "ShortTensor", torch.int8: "CharTensor", torch.uint8: "ByteTensor",
                torch.bool: "BoolTensor"}


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if isinstance(input, Tensor) and input.dtype not in (torch.int64, torch.int32):
        # ATen's argument check, in its words (a float batch is a common slip)
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{_LEGACY_TYPE.get(input.dtype, 'Tensor')} instead "
            "(while checking arguments for embedding)")
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    if max_norm is not None:
        input = input.contiguous()
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    if sparse:
        _mark_sparse_grad(weight)
    out = _C._nn_embedding(input, weight)
    if padding_idx is not None and weight.requires_grad and torch.is_grad_enabled():
        # torch's backward leaves the padding row's gradient alone: the
        # padding positions pass their value but not their gradient.
        keep = (input != padding_idx).unsqueeze(-1)
        out = _named(torch.where(keep, out, out.detach()), "EmbeddingBackward0")
    if scale_grad_by_freq and weight.requires_grad and torch.is_grad_enabled():
        # each lookup's gradient divided by how often its index occurs in
        # input (the value is unchanged: out.detach() + 0 * scale)
        ids = input.reshape(-1).tolist()
        counts = {}
        for i in ids:
            counts[i] = counts.get(i, 0) + 1
        scale = torch.tensor([1.0 / counts[i] for i in ids], dtype=out.dtype)
        scale = scale.reshape(tuple(input.shape) + (1,))
        out = _named(out.detach() + (out - out.detach()) * scale, "EmbeddingBackward0")
    return out


def _mark_sparse_grad(weight):
    # nndb has no sparse tensors: the gradient stays dense, and the weight
    # is marked so that optim.SparseAdam accepts it (see sparse_adam.py)
    try:
        weight._nndb_sparse_grad = True
    except AttributeError:
        pass


def _no_grad_embedding_renorm_(weight, input, max_norm, norm_type):
    # ATen's embedding_renorm_: each row the input uses whose norm exceeds
    # max_norm is scaled in place by max_norm / (norm + 1e-7).
    with torch.no_grad():
        for i in sorted(set(input.reshape(-1).tolist())):
            norm = float(weight[i].norm(norm_type))
            if norm > max_norm:
                weight[i] *= max_norm / (norm + 1e-7)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         f"not None, then it must have the same shape as the input ({input.shape})")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is "
                             "a mini-batch of fixed length sequences. However, found offsets of "
                             f"type {type(offsets)}")
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub.")
    if scale_grad_by_freq:
        raise NotImplementedError("embedding_bag(scale_grad_by_freq=True) is not supported")
    if sparse:
        _mark_sparse_grad(weight)
    num = weight.size(0)
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num} "
                               f"through {num - 1}, but got {padding_idx}")
        padding_idx %= num
    # bag b holds input[offsets[b]:offsets[b + 1]]; the last bag runs to the
    # end, or with include_last_offset the last offset closes the last bag.
    n = input.numel()
    starts = offsets.tolist()
    if starts and starts[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {starts[0]}")
    ends = starts[1:] + ([] if include_last_offset else [n])
    if include_last_offset:
        starts = starts[:-1]
    pos = torch.arange(n).unsqueeze(0)
    member = (pos >= torch.tensor(starts, dtype=torch.int64).unsqueeze(1)) & \
        (pos < torch.tensor(ends, dtype=torch.int64).unsqueeze(1))  # [bags, n]
    if padding_idx is not None:
        member = member & (input != padding_idx).unsqueeze(0)
    rows = _C._nn_embedding(input, weight)  # [n, d]
    if mode == "max":
        big = rows.unsqueeze(0).masked_fill(~member.unsqueeze(2), float("-inf"))
        out = big.max(1)[0] if n else rows.new_zeros((len(starts), weight.size(1)))
        return out.masked_fill(~member.any(1, keepdim=True), 0)
    m = member.to(weight.dtype)
    if per_sample_weights is not None:
        m = m * per_sample_weights.unsqueeze(0)
    out = torch.matmul(m, rows)
    if mode == "mean":
        out = out / member.sum(1, keepdim=True).clamp(min=1).to(weight.dtype)
    return out


def one_hot(tensor, num_classes=-1):
    return _C._nn_one_hot(tensor, num_classes)


# ---- activations ----

def _named(result, name):
    # torch computes these in one kernel whose node has this name; here
    # they are compositions, named as torch's (see _nn_named in py_nn.c).
    return _C._nn_named(result, name)


def _src(input, inplace):
    """What an in-place activation computes from: a clone while autograd
    records, because [input] is overwritten with the result afterwards and
    the op's backward may need the values it saw (clamp, where, ...)."""
    if inplace and input.requires_grad and torch.is_grad_enabled():
        return input.clone()
    return input


def _inplace(input, result, name=None):
    """[result] written into [input], which is returned: the functional
    in-place forms (relu(x, inplace=True), nn.ReLU(inplace=True), ...).
    Under autograd the copy is recorded, so the gradient goes through
    [result]'s graph (the activation's mask, the dropout's scale) and
    input.grad_fn is named as torch names the in-place op's node; a
    no_grad copy would leave input's old history and lose that gradient."""
    if torch.is_grad_enabled() and (input.requires_grad or result.requires_grad):
        fn = result.grad_fn
        input[...] = result  # recorded (copy_ with history is not, in nndb)
        name = name or (fn.name() if fn is not None else None)
        return _named(input, name) if name else input
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
    r = _named(torch.clamp(_src(input, inplace), min_val, max_val), "HardtanhBackward0")
    return _inplace(input, r) if inplace else r


def leaky_relu(input, negative_slope=0.01, inplace=False):
    r = _C._nn_leaky_relu(_src(input, inplace), negative_slope)
    return _inplace(input, r, "LeakyReluBackward1") if inplace else r


def elu(input, alpha=1.0, inplace=False):
    x = _src(input, inplace)
    r = _named(torch.where(x > 0, x, (torch.exp(x) - 1) * alpha), "EluBackward0")
    return _inplace(input, r, "EluBackward1") if inplace else r


def selu(input, inplace=False):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    r = _named(elu(_src(input, inplace), alpha) * scale, "EluBackward0")
    return _inplace(input, r, "EluBackward1") if inplace else r


def celu(input, alpha=1.0, inplace=False):
    x = _src(input, inplace)
    r = torch.where(x > 0, x, (torch.exp(x / alpha) - 1) * alpha)
    r = _named(r, "CeluBackward0")
    return _inplace(input, r, "CeluBackward1") if inplace else r


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _C._nn_gelu(input, approximate == "tanh")


def silu(input, inplace=False):
    r = _C._nn_silu(_src(input, inplace))
    return _inplace(input, r) if inplace else r


def mish(input, inplace=False):
    x = _src(input, inplace)
    r = _named(x * torch.tanh(softplus(x)), "MishBackward0")
    return _inplace(input, r) if inplace else r


def hardsigmoid(input, inplace=False):
    r = _named(torch.clamp(_src(input, inplace) / 6 + 0.5, 0.0, 1.0), "HardsigmoidBackward0")
    return _inplace(input, r) if inplace else r


def hardswish(input, inplace=False):
    x = _src(input, inplace)
    r = _named(x * torch.clamp(x + 3, 0.0, 6.0) / 6, "HardswishBackward0")
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
    x = _src(input, inplace)
    r = torch.where(x > threshold, x, torch.full_like(x, value))
    r = _named(r, "ThresholdBackward0")
    return _inplace(input, r, "ThresholdBackward1") if inplace else r


_threshold = threshold


def glu(input, dim=-1):
    a, b = input.chunk(2, dim)
    return _named(a * torch.sigmoid(b), "GluBackward0")


def _get_softmax_dim(name, ndim, stacklevel):
    return _softmax_dim(name, ndim, stacklevel)


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
    if input.numel() == 0:  # nothing to normalise (OpInfo's empty samples)
        return input.clone()
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
    if input.numel() == 0:  # nothing to normalise (OpInfo's empty samples)
        return input.clone()
    return _C._nn_group_norm(input, num_groups, weight, bias, eps)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    r = _C._nn_dropout(_src(input, inplace), p, training)
    return _inplace(input, r) if inplace and training else r


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = torch.clamp(input.norm(p, dim, keepdim=True), min=eps).expand_as(input)
    if out is None:
        return input / denom
    # torch.div(input, denom, out=out): out keeps its identity (the power
    # iteration of spectral_norm writes its u and v buffers this way)
    if torch.is_grad_enabled() and (input.requires_grad or out.requires_grad):
        raise RuntimeError("normalize(): functions with out=... arguments don't support "
                           "automatic differentiation, but one of the arguments requires grad.")
    out.copy_(input / denom)
    return out


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # ATen's order: each side divided by its norm (clamped below by eps)
    # first, then the product summed.
    shape = torch.broadcast_shapes(x1.shape, x2.shape)
    x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = torch.clamp(x1.norm(2, dim, keepdim=True), min=eps)
    n2 = torch.clamp(x2.norm(2, dim, keepdim=True), min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


def pdist(input, p=2):
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = input.size(0)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    i = torch.tensor([a for a, _ in pairs], dtype=torch.int64)
    j = torch.tensor([b for _, b in pairs], dtype=torch.int64)
    return _named((input[i] - input[j]).norm(p, 1), "PdistBackward0")


def pad(input, pad, mode="constant", value=None):
    if len(pad) % 2 != 0:
        raise AssertionError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise AssertionError("Padding length too large")
    if mode != "constant":
        if value is not None and value != 0:
            raise AssertionError(f"Padding mode \"{mode}\" doesn't take in value argument")
        return _functional_image._pad_nonconstant(input, pad, mode)
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

def _check_class_target(target, input):
    # PyTorch's nll_loss_nd checks the batch first (a ValueError; the
    # weighted and smoothed paths below compose ops that do not), then
    # ATen's nll_loss that class indices are int64, in its words
    if input.dim() >= 2:
        tb = target.shape[0] if target.dim() else 0
        if tb != input.shape[0]:
            raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                             f"batch_size ({tb}).")
    if target.dtype != torch.int64:
        name = {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
                torch.bfloat16: "BFloat16", torch.int32: "Int", torch.int16: "Short",
                torch.int8: "Char", torch.uint8: "Byte", torch.bool: "Bool"}.get(target.dtype,
                                                                                 str(target.dtype))
        raise RuntimeError(f"expected scalar type Long but found {name}")


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    # The usual call (class indices, no weight, no legacy arguments, no
    # smoothing) goes straight to the kernel, which checks the rest; the
    # frames of the general path below cost more than a few-class batch's
    # loss.
    if (weight is None and size_average is None and reduce is None and type(target) is Tensor
            and target.dtype is torch.int64 and reduction in _REDUCTIONS
            and label_smoothing == 0.0 and input.dim() <= 2):
        return _C._nn_cross_entropy(input, target, ignore_index, 0.0, reduction)
    reduction = _reduction(size_average, reduce, reduction)
    if input.is_floating_point() and target.is_floating_point() and input.shape == target.shape:
        return _cross_entropy_probs(input, target, weight, reduction, label_smoothing)
    # as PyTorch: smoothing above 1 is an error, below 0 none at all
    if label_smoothing > 1.0:
        raise RuntimeError(
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    label_smoothing = max(label_smoothing, 0.0)
    _check_class_target(target, input)
    if weight is None and label_smoothing == 0.0 and input.dim() <= 2:
        return _C._nn_cross_entropy(input, target, ignore_index, 0.0, reduction)
    # [N, C, d...] (a sequence model's [B, C, T]), weights or smoothing:
    # PyTorch's ops, log_softmax along dim 1 and nll_loss, for its bits.
    cdim = 1 if input.dim() >= 2 else 0
    logp = log_softmax(input, cdim)
    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing == 0.0:
        return nll
    # PyTorch's cross_entropy_loss_label_smoothing, op for op (so that the
    # loss and its gradient have its bits): the smoothing term is the
    # (weighted) sum of -log p over the classes, 0 where the target is
    # ignored; its mean divides by the kept targets' count, or with a weight
    # by their summed weights, as nll_loss does.
    n_classes = input.shape[cdim]
    ignore = target == ignore_index
    if weight is None:
        smooth = -logp.sum(cdim)
    else:
        shape = [1] * input.dim()
        shape[cdim] = n_classes
        smooth = -(logp * weight.reshape(shape)).sum(cdim)
    smooth = smooth.masked_fill(ignore, 0.0)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / (~ignore).sum()
        else:
            smooth = smooth.sum() / weight.gather(0, target.masked_select(~ignore).flatten()).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / n_classes)


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
    _check_class_target(target, input)
    if weight is None:
        out = _C._nn_nll_loss(input, target, ignore_index, reduction)
        if input.dim() > 2 and out.grad_fn is not None:
            # PyTorch runs trailing dims through nll_loss2d, and views its
            # unreduced result back unless the input was 4-D
            out = _named(out, "ViewBackward0" if reduction == "none" and input.dim() != 4
                         else "NllLoss2DBackward0")
        return out
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
    if full:
        # Stirling's approximation of log(target!), counted where target > 1
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    a, pd, n = anchor.dim(), positive.dim(), negative.dim()
    if not (a == pd == n):
        raise RuntimeError(f"All inputs should have same dimension but got {a}D, {pd}D and {n}D "
                           "inputs.")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = torch.min(dist_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce(torch.clamp(margin + dist_pos - dist_neg, min=0), reduction)


def _ctc_lse(*xs):
    # log(sum(exp(x))) over the operands, as ATen's CTC: the max taken out,
    # an all -inf set giving -inf
    m = xs[0]
    for x in xs[1:]:
        m = torch.maximum(m, x)
    m = torch.where(m == float("-inf"), torch.zeros_like(m), m)
    acc = torch.exp(xs[0] - m)
    for x in xs[1:]:
        acc = acc + torch.exp(x - m)
    return torch.log(acc) + m


def _ctc_setup(log_probs, targets, input_lengths, target_lengths, blank):
    T, N, C = log_probs.shape
    il = [int(v) for v in (input_lengths.tolist() if isinstance(input_lengths, Tensor)
                           else input_lengths)]
    tl = [int(v) for v in (target_lengths.tolist() if isinstance(target_lengths, Tensor)
                           else target_lengths)]
    if len(il) != N:
        raise RuntimeError(f"input_lengths must be of size batch_size")
    if len(tl) != N:
        raise RuntimeError(f"target_lengths must be of size batch_size")
    for b in range(N):
        if il[b] > T:
            raise RuntimeError(f"Expected input_lengths to have value at most {T}, but got value "
                               f"{il[b]} (while checking arguments for ctc_loss_cpu)")
    lmax = max(tl) if tl else 0
    targets = targets.to(torch.int64)
    if targets.dim() == 1:
        rows, pos = [], 0
        flat = targets.tolist()
        for b in range(N):
            rows.append(flat[pos:pos + tl[b]] + [blank] * (lmax - tl[b]))
            pos += tl[b]
        padded = torch.tensor(rows, dtype=torch.int64).reshape(N, lmax)
    else:
        if targets.size(1) < lmax:
            raise RuntimeError(f"Expected tensor to have size at least {lmax} at dimension 1, but "
                               f"got size {targets.size(1)} for argument #2 'targets' (while "
                               "checking arguments for ctc_loss_cpu)")
        padded = targets[:, :lmax]
    S = 2 * lmax + 1
    lprime = torch.full((N, S), blank, dtype=torch.int64)
    if lmax:
        lprime[:, 1::2] = padded
    s_idx = torch.arange(S).unsqueeze(0)
    valid = s_idx <= torch.tensor([2 * v for v in tl], dtype=torch.int64).unsqueeze(1)
    skip = torch.zeros((N, S), dtype=torch.bool)
    if S > 2:
        skip[:, 2:] = lprime[:, 2:] != lprime[:, :-2]
    return il, tl, lprime, valid, skip


class _CTCLoss(torch.autograd.Function):
    """ATen's CPU CTC: log-space alpha forward, beta backward, and the
    gradient with respect to log_probs as ATen writes it,
    exp(lp) - exp(log(alpha beta) + nll - lp), which is the gradient through
    a log_softmax the caller is assumed to have applied."""

    @staticmethod
    def forward(ctx, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
        with torch.no_grad():
            lp = log_probs.detach()
            T, N, C = lp.shape
            il, tl, lprime, valid, skip = _ctc_setup(lp, targets, input_lengths, target_lengths,
                                                     blank)
            S = lprime.size(1)
            ninf = torch.full((N, S), float("-inf"), dtype=lp.dtype)
            idx = lprime.unsqueeze(0).expand(T, N, S)
            lpe = lp.gather(2, idx)  # [T, N, S]: lp[t, n, l'(s)]
            alphas = []
            a = ninf.clone()
            if T:
                a[:, 0] = lpe[0, :, 0]
                if S > 1:
                    a[:, 1] = torch.where(torch.tensor(tl) > 0, lpe[0, :, 1], ninf[:, 1])
                a = torch.where(valid, a, ninf)
                alphas.append(a)
            for t in range(1, T):
                a1 = a
                a2 = torch.cat([ninf[:, :1], a[:, :-1]], 1)
                a3 = torch.cat([ninf[:, :2], a[:, :-2]], 1)[:, :S]
                a3 = torch.where(skip, a3, ninf)
                a = torch.where(valid, _ctc_lse(a1, a2, a3) + lpe[t], ninf)
                alphas.append(a)
            alpha = torch.stack(alphas) if T else ninf.unsqueeze(0)
            nll = []
            for b in range(N):
                if il[b] == 0:
                    ll = 0.0 if tl[b] == 0 else float("-inf")
                    nll.append(torch.tensor(-ll, dtype=lp.dtype))
                    continue
                l1 = alpha[il[b] - 1, b, 2 * tl[b]]
                l2 = alpha[il[b] - 1, b, 2 * tl[b] - 1] if tl[b] > 0 else torch.tensor(
                    float("-inf"), dtype=lp.dtype)
                nll.append(-_ctc_lse(l1, l2))
            nll = torch.stack(nll) if N else torch.zeros(0, dtype=lp.dtype)
        ctx.save_for_backward(lp, alpha, nll)
        ctx.ctc = (il, tl, lprime, valid, skip, zero_infinity)
        return nll

    @staticmethod
    def backward(ctx, grad_out):
        lp, alpha, nll = ctx.saved_tensors
        il, tl, lprime, valid, skip, zero_infinity = ctx.ctc
        with torch.no_grad():
            T, N, C = lp.shape
            S = lprime.size(1)
            ninf = torch.full((N, S), float("-inf"), dtype=lp.dtype)
            idx = lprime.unsqueeze(0).expand(T, N, S)
            lpe = lp.gather(2, idx)
            ilt = torch.tensor(il, dtype=torch.int64)
            s_idx = torch.arange(S).unsqueeze(0)
            two_l = torch.tensor([2 * v for v in tl], dtype=torch.int64).unsqueeze(1)
            last = (s_idx == two_l) | ((s_idx == two_l - 1) & (two_l > 0))
            skip_up = torch.zeros((N, S), dtype=torch.bool)
            if S > 2:
                skip_up[:, :-2] = skip[:, 2:]
            betas = [None] * T
            b_ = ninf.clone()
            for t in range(T - 1, -1, -1):
                b1 = b_
                b2 = torch.cat([b_[:, 1:], ninf[:, :1]], 1)
                b3 = torch.cat([b_[:, 2:], ninf[:, :2]], 1)[:, :S]
                b3 = torch.where(skip_up, b3, ninf)
                rec = _ctc_lse(b1, b2, b3) + lpe[t]
                start = torch.where(last, lpe[t], ninf)
                at_end = (ilt - 1 == t).unsqueeze(1)
                inside = (ilt - 1 > t).unsqueeze(1)
                b_ = torch.where(at_end, start, torch.where(inside, rec, ninf))
                b_ = torch.where(valid, b_, ninf)
                betas[t] = b_
            beta = torch.stack(betas) if T else ninf.unsqueeze(0)[:0]
            ab = alpha[:T] + beta
            term = torch.exp(ab + nll.reshape(1, N, 1) - lpe)
            term = torch.where(ab == float("-inf"), torch.zeros_like(term), term)
            acc = torch.zeros((T, N, C), dtype=lp.dtype).scatter_add(2, idx, term)
            grad = (torch.exp(lp) - acc) * grad_out.reshape(1, N, 1)
            keep = (torch.arange(T).unsqueeze(1) < ilt.unsqueeze(0)).unsqueeze(2)
            if zero_infinity:
                keep = keep & (nll != float("inf")).reshape(1, N, 1)
            grad = torch.where(keep, grad, torch.zeros_like(grad))
        return grad, None, None, None, None, None


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    reduction = _reduction(None, None, reduction)
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    if not batched and isinstance(input_lengths, Tensor) and input_lengths.dim() == 0:
        input_lengths = input_lengths.reshape(1)
    if not batched and isinstance(target_lengths, Tensor) and target_lengths.dim() == 0:
        target_lengths = target_lengths.reshape(1)
    if not batched and targets.dim() == 1 and not isinstance(input_lengths, Tensor) and \
            isinstance(input_lengths, int):
        input_lengths, target_lengths = [input_lengths], [target_lengths]
    res = _CTCLoss.apply(lp, targets, input_lengths, target_lengths, blank, zero_infinity)
    if zero_infinity:
        res = torch.where(res == float("inf"), torch.zeros((), dtype=res.dtype), res)
    if reduction == "mean":
        tl = target_lengths if isinstance(target_lengths, Tensor) else torch.tensor(target_lengths)
        return (res / tl.to(res.dtype).clamp(min=1)).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _reduce(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _reduce(softplus(-target * input), reduction)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None):
    # torch 2.x's public function (1.13 has none; courses use it). Without a
    # mask or dropout it is one engine node: per (batch, head) block the
    # scores, the causal mask, the softmax and the product with v, with
    # the probabilities kept for the backward (docs/language-nn.md). The
    # rest is torch 2.x's documented composition.
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if (attn_mask is None and dropout_p == 0.0 and (scale is None or scale > 0)
            and query.dim() >= 2 and query.dim() == key.dim() == value.dim()
            and query.shape[:-2] == key.shape[:-2] == value.shape[:-2]):
        return _C._nn_sdpa(query, key, value, bool(is_causal), 0.0 if scale is None else scale)
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype)
    if is_causal:
        attn_bias.masked_fill_(torch.ones(L, S, dtype=torch.bool).tril().logical_not(),
                               float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_bias + attn_mask
    attn = query @ key.transpose(-2, -1) * scale_factor
    attn = softmax(attn + attn_bias, dim=-1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return attn @ value


def _scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                  need_attn_weights=False, is_causal=False):
    # torch 1.13's private composite (the math path): q times 1/sqrt(embed)
    # (1.13.0's order, checked bit for bit; later versions scale q and k by
    # embed**-1/4), a boolean mask turned into -inf, softmax, dropout, times
    # v. Returns (output, attention weights).
    q = query * (1.0 / math.sqrt(query.size(-1)))
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("Explicit attn_mask should not be set when is_causal=True")
        attn_mask = torch.ones(query.size(-2), key.size(-2), dtype=torch.bool).tril()
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        attn_mask = torch.zeros(attn_mask.shape, dtype=query.dtype).masked_fill(
            attn_mask.logical_not(), float("-inf"))
    attn = torch.matmul(q, key.transpose(-2, -1))
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = softmax(attn, -1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return torch.matmul(attn, value), attn


def multi_head_attention_forward(*args, **kwargs):
    # written beside nn.MultiheadAttention, which is its main caller
    from torch.nn.modules.attention import multi_head_attention_forward as forward
    return forward(*args, **kwargs)


# ---- shrinkage, randomized ReLU, channel and alpha dropout ----
# (compositions of tensor ops; the random ones draw from torch's generator in
# the order ATen's CPU kernels do, so seeded runs give PyTorch's numbers)

def prelu(input, weight):
    if weight.numel() != 1 and (input.dim() < 2 or input.shape[1] != weight.numel()):
        raise RuntimeError(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
            f"{weight.numel()} and channel size = {input.shape[1] if input.dim() >= 2 else 1}.")
    w = weight
    if weight.numel() > 1:
        shape = [1] * input.dim()
        shape[1] = weight.numel()
        w = weight.reshape(shape)
    return _named(torch.where(input >= 0, input, input * w), "PreluBackward0")


def hardshrink(input, lambd=0.5):
    return _named(torch.where(input.abs() > lambd, input, torch.zeros_like(input)),
                  "HardshrinkBackward0")


def softshrink(input, lambd=0.5):
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd:g}.")
    zero = torch.zeros_like(input)
    out = torch.where(input > lambd, input - lambd,
                      torch.where(input < -lambd, input + lambd, zero))
    return _named(out, "SoftshrinkBackward0")


def _rrelu_noise(input, lower, upper):
    # ATen's rrelu_with_noise (CPU): one uniform double in [lower, upper)
    # per element <= 0, in memory order; elements > 0 keep slope 1.
    flat = input.detach().reshape(-1)
    neg = flat <= 0
    k = int(neg.sum().item())
    noise = torch.ones(flat.shape, dtype=input.dtype)
    if k:
        r = torch.empty(k, dtype=torch.float64).uniform_(lower, upper).to(input.dtype)
        noise[neg] = r
    return noise.view(input.shape)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    x = _src(input, inplace)
    if training:
        out = x * _rrelu_noise(x, lower, upper)
    else:
        slope = (lower + upper) / 2
        out = torch.where(x >= 0, x, x * slope)
    out = _named(out, "RreluWithNoiseBackward0")
    return _inplace(input, out, "RreluWithNoiseBackward1") if inplace else out


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def selu_(input):
    return selu(input, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    return globals()["threshold"](input, threshold, value, inplace=True)


def _dropout_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, " "but got {}".format(p))


def _dropout_impl(input, p, training, inplace, feature, alpha):
    # ATen's _dropout_impl: noise drawn with bernoulli_(1 - p), per channel
    # (shape (N, C, 1, ...)) for the feature variants.
    if p == 0 or not training or input.numel() == 0:
        return input
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        out = input * torch.zeros((), dtype=input.dtype)
        return _inplace(input, out) if inplace else out
    shape = list(input.shape[:2]) + [1] * (input.dim() - 2) if feature else list(input.shape)
    noise = torch.empty(shape, dtype=input.dtype).bernoulli_(1 - p)
    if alpha:
        a_ = 1.7580993408473766
        a = 1.0 / math.sqrt((a_ * a_ * p + 1) * (1 - p))
        b = (noise - 1) * (a_ * a) + a_ * a * p
        out = _src(input, inplace) * (noise * a) + b
    else:
        out = _src(input, inplace) * noise.div_(1 - p)
    return _inplace(input, out) if inplace else out


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _dropout_p(p)
    return _dropout_impl(input, p, training, inplace, feature=False, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _dropout_p(p)
    return _dropout_impl(input, p, training, inplace, feature=True, alpha=True)


def _feature_dropout_nd(input, p, training, inplace, batched):
    if not batched:
        input = input.unsqueeze(0)
    out = _dropout_impl(input, p, training, False, feature=True, alpha=False)
    if not batched:
        out = out.squeeze(0)
    return out


def dropout1d(input, p=0.5, training=True, inplace=False):
    _dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {inp_dim}D input. "
                           "Note that dropout1d exists to provide channel-wise dropout on inputs "
                           "with 1 spatial dimension, a channel dimension, and an optional batch "
                           "dimension (i.e. 2D or 3D inputs).")
    out = _feature_dropout_nd(input, p, training, inplace, inp_dim == 3)
    return _inplace(input, out) if inplace and out is not input else out


def dropout2d(input, p=0.5, training=True, inplace=False):
    _dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout2d "
                      "exists to provide channel-wise dropout on inputs with 2 spatial dimensions, "
                      "a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                      "inputs).")
    if inp_dim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                      "1D dropout behavior is desired - input is interpreted as shape (N, C, L), "
                      "where C is the channel dim. This behavior will change in a future release "
                      "to interpret the input as one without a batch dimension, i.e. shape "
                      "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch "
                      "to using dropout1d instead.")
    return _dropout_impl(input, p, training, inplace, feature=True, alpha=False)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _dropout_p(p)
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {inp_dim}-D input to dropout3d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout3d "
                      "exists to provide channel-wise dropout on inputs with 3 spatial dimensions, "
                      "a channel dimension, and an optional batch dimension (i.e. 4D or 5D "
                      "inputs).")
    out = _feature_dropout_nd(input, p, training, inplace, inp_dim == 5)
    return _inplace(input, out) if inplace and out is not input else out


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.")
    gumbels = -torch.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


# ---- more losses ----

def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    if torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError(
            "1D target tensor expects 2D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}.")
    if targ_dim == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError(
            "0D target tensor expects 1D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}.")
    eps = 1e-12
    prod_sum = (input1 * input2).sum(targ_dim)
    mag1 = (input1 * input1).sum(targ_dim) + eps
    mag2 = (input2 * input2).sum(targ_dim) + eps
    cos = prod_sum / (mag1 * mag2).sqrt()
    zeros = torch.zeros_like(cos)
    pos = torch.where(target == 1, 1 - cos, zeros)
    neg = torch.where(target == -1, (cos - margin).clamp_min(0), zeros)
    return _reduce(pos + neg, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    zeros = torch.zeros_like(input)
    out = (torch.where(target != 1, (margin - input).clamp_min(0), zeros) +
           torch.where(target != -1, input, zeros))
    return _reduce(out, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    C = input.shape[-1] if input.dim() > 0 else 1
    if input.dim() > 2 or (input.dim() == 2 and target.dim() != 1) or \
            (input.dim() <= 1 and target.dim() > 1) or target.numel() != input.numel() // C:
        raise RuntimeError("inconsistent target size, expected " +
                           f"{input.numel() // C} but got {list(target.shape)}")
    x = input.reshape(-1, C)
    t = target.reshape(-1)
    xy = x.gather(1, t.unsqueeze(1))
    z = (margin - xy + x).clamp_min(0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight[t].unsqueeze(1)
    other = (torch.arange(C).unsqueeze(0) != t.unsqueeze(1)).to(x.dtype)
    loss = (z * other).sum(1) / C
    if input.dim() <= 1:
        loss = loss.reshape(())
    return _named(_reduce(loss, reduction), "MultiMarginLossBackward0")


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if input.dim() > 2 or target.shape != input.shape:
        raise RuntimeError("inconsistent target size: " + str(list(target.shape)) +
                           " for input of size: " + str(list(input.shape)))
    C = input.shape[-1] if input.dim() > 0 else 1
    x = input.reshape(-1, C)
    t = target.reshape(-1, C)
    # targets are the leading entries of each row up to the first -1
    valid = (t < 0).to(torch.int64).cumsum(1) == 0
    idx = torch.where(valid, t, torch.zeros_like(t))
    is_target = (one_hot(idx, C) * valid.unsqueeze(2).to(torch.int64)).sum(1) > 0
    xj = x.gather(1, idx)
    z = (1 - (xj.unsqueeze(2) - x.unsqueeze(1))).clamp_min(0)
    mask = valid.unsqueeze(2) & (~is_target).unsqueeze(1)
    loss = (z * mask.to(x.dtype)).sum((1, 2)) / C
    if input.dim() <= 1:
        loss = loss.reshape(())
    return _named(_reduce(loss, reduction), "MultilabelMarginLossBackward0")


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    distance_function = distance_function if distance_function is not None else \
        pairwise_distance
    positive_dist = distance_function(anchor, positive)
    negative_dist = distance_function(anchor, negative)
    if swap:
        swap_dist = distance_function(positive, negative)
        negative_dist = torch.min(negative_dist, swap_dist)
    output = torch.clamp(positive_dist - negative_dist + margin, min=0.0)
    if reduction == "mean":
        return output.mean()
    if reduction == "sum":
        return output.sum()
    if reduction == "none":
        return output
    raise ValueError(f"{reduction} is not a valid value for reduction")


# ---- the rest of torch.nn.functional's namespace ----
# Names PyTorch's functional module exports besides the functions: typing
# aliases, TorchScript helpers, the notes its docstrings are formatted with,
# and the __torch_function__ protocol checks. nndb's torch does not dispatch
# __torch_function__, so no argument ever has one to hand to: the checks say
# False, as PyTorch's do for plain tensors.

from typing import Callable, List, Optional, Tuple, Union, TYPE_CHECKING  # noqa: E402,F401

DType = int


class _BroadcastingListCls:
    def __getitem__(self, types):
        return


BroadcastingList1 = BroadcastingList2 = BroadcastingList3 = _BroadcastingListCls()

reproducibility_notes = {
    "forward_reproducibility_note": "This operation may behave nondeterministically when "
    "given tensors on a CUDA device. (nndb runs on the CPU: it is deterministic.)",
    "backward_reproducibility_note": "This operation may produce nondeterministic gradients "
    "when given tensors on a CUDA device. (nndb runs on the CPU: it is deterministic.)",
    "cudnn_reproducibility_note": "In some circumstances when given tensors on a CUDA device "
    "and using CuDNN, this operator may select a nondeterministic algorithm to increase "
    "performance. (nndb has no CuDNN.)",
}
sparse_support_notes = {
    "sparse_beta_warning": "Sparse support is a beta feature in PyTorch. (nndb has no sparse "
    "tensors.)",
}
tf32_notes = {
    "tf32_note": "This operator supports TensorFloat32 on Ampere GPUs. (nndb has no GPU.)",
}


def has_torch_function(relevant_args):
    return False


def has_torch_function_unary(input):
    return False


def has_torch_function_variadic(*args):
    return False


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    raise TypeError("no implementation found for '{}' on types that implement "
                    "__torch_function__: nndb's torch does not dispatch __torch_function__"
                    .format(getattr(public_api, "__qualname__", public_api)))


def boolean_dispatch(arg_name, arg_index, default, if_true, if_false, module_name, func_name):
    """One function that calls if_true or if_false by the boolean argument
    arg_name (position arg_index, default when absent), as
    torch._jit_internal.boolean_dispatch does (max_pool2d's return_indices)."""
    def fn(*args, **kwargs):
        flag = default
        if arg_name in kwargs:
            flag = kwargs[arg_name]
        elif arg_index < len(args):
            flag = args[arg_index]
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)

    doc = if_true.__doc__ if if_true.__doc__ is not None else if_false.__doc__
    fn.__doc__ = doc
    if module_name is not None:
        fn.__module__ = module_name
    if func_name is not None:
        fn.__name__ = func_name
    return fn


def assert_int_or_pair(arg, arg_name, message):
    assert isinstance(arg, int) or len(arg) == 2, message.format(arg_name)


# ---- image ops: convolution, pooling, interpolation, ... ----
from torch.nn import _functional_image  # noqa: E402
from torch.nn._functional_image import *  # noqa: E402,F401,F403


GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def conv_tbc(input, weight, bias, pad=0):
    """A 1-d convolution over input (time, batch, channels) with weight
    (kernel width, in channels, out channels): conv1d on the permuted
    tensors."""
    if input.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    out = conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return out.permute(2, 0, 1)


def __getattr__(name):
    # torch.nn.functional.grad and .utils are modules PyTorch imports here
    import importlib
    if name == "grad":
        return importlib.import_module("torch.nn.grad")
    if name == "utils":
        return importlib.import_module("torch.nn.modules.utils")
    raise AttributeError(f"module 'torch.nn.functional' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | {"grad", "utils"})


# ---- PyTorch's private helpers that code reaches for ----

class _Reduction:
    """torch.nn._reduction as functional.py exposes it."""

    @staticmethod
    def get_enum(reduction):
        if reduction == "none":
            return 0
        if reduction == "mean":
            return 1
        if reduction == "elementwise_mean":
            warnings.warn("reduction='elementwise_mean' is deprecated, please use "
                          "reduction='mean' instead.")
            return 1
        if reduction == "sum":
            return 2
        raise ValueError(f"{reduction} is not a valid value for reduction")

    @staticmethod
    def legacy_get_string(size_average, reduce, emit_warning=True):
        return _legacy_reduction(size_average, reduce, emit_warning)

    @staticmethod
    def legacy_get_enum(size_average, reduce, emit_warning=True):
        return _Reduction.get_enum(_legacy_reduction(size_average, reduce, emit_warning))


def _infer_size(a, b):
    return torch.Size(torch.broadcast_shapes(tuple(a), tuple(b)))


def _overload(func):
    return func


def _in_projection_packed(q, k, v, w, b=None):
    from torch.nn.modules.attention import _project
    return list(_project(q, k, v, w, b))


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    assert w_q.shape == (Eq, Eq), \
        f"expecting query weights shape of {(Eq, Eq)}, but got {w_q.shape}"
    assert w_k.shape == (Eq, Ek), \
        f"expecting key weights shape of {(Eq, Ek)}, but got {w_k.shape}"
    assert w_v.shape == (Eq, Ev), \
        f"expecting value weights shape of {(Eq, Ev)}, but got {w_v.shape}"
    assert b_q is None or b_q.shape == (Eq,), \
        f"expecting query bias shape of {(Eq,)}, but got {b_q.shape}"
    assert b_k is None or b_k.shape == (Eq,), \
        f"expecting key bias shape of {(Eq,)}, but got {b_k.shape}"
    assert b_v is None or b_v.shape == (Eq,), \
        f"expecting value bias shape of {(Eq,)}, but got {b_v.shape}"
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    from torch.nn.modules.attention import _shape_check
    return _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)

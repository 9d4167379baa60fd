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
    """bilinear(input1, input2, weight, bias=None) -> Tensor

    y[n, k] = input1[n] @ weight[k] @ input2[n] + bias[k]: what nn.Bilinear
    computes. input1 is (N, in1), input2 (N, in2), weight (out, in1, in2),
    bias (out,); the result is (N, out).

    Example::

        >>> a = torch.tensor([[1.0, 2.0]])
        >>> b = torch.tensor([[3.0, 4.0, 5.0]])
        >>> w = torch.ones(1, 2, 3)
        >>> F.bilinear(a, b, w)
        tensor([[36.]])
    """
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
    """embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False) -> Tensor

    Look up rows of a table: weight[input]. weight is the (num_embeddings,
    embedding_dim) table, input an integer tensor of indices of any shape; the
    result has shape input.shape + (embedding_dim,). Indices must be int64 (or
    int32) and in [0, num_embeddings).

    - padding_idx: the row at this index gets no gradient (a padding token).
    - max_norm: rows that are looked up and have a norm above max_norm are
      rescaled in place, in weight, to norm max_norm (norm_type the p of the
      p-norm).
    - scale_grad_by_freq: divide each row's gradient by how often its index
      occurs in the batch.
    - sparse: weight's gradient is a sparse tensor.

    Example::

        >>> table = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
        >>> F.embedding(torch.tensor([[1, 2], [2, 0]]), table)
        tensor([[[1., 2.],
                 [3., 4.]],
        <BLANKLINE>
                [[3., 4.],
                 [0., 0.]]])
    """
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
    """embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean', sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None) -> Tensor

    Sums, means or maxima of bags of embedding rows, without building the
    intermediate lookup. input is either a 2-D (B, L) index tensor (B bags of L
    indices each) or a 1-D tensor of all indices together with offsets, the
    start of each bag in it. The result is (B, embedding_dim).

    - mode: 'sum', 'mean' (default) or 'max'.
    - per_sample_weights: a weight for each index (mode='sum' only).
    - include_last_offset: offsets has one more entry, the end of the last bag.
    - padding_idx: indices equal to it are left out of their bag.
    - max_norm, norm_type, scale_grad_by_freq, sparse: as in embedding.

    Example::

        >>> table = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
        >>> F.embedding_bag(torch.tensor([1, 2, 0, 2]), table, torch.tensor([0, 2]))
        tensor([[2.0000, 3.0000],
                [1.5000, 2.0000]])
        >>> F.embedding_bag(torch.tensor([[1, 2], [0, 2]]), table, mode='sum')
        tensor([[4., 6.],
                [3., 4.]])
    """
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
    """one_hot(tensor, num_classes=-1) -> Tensor

    Class indices to one-hot vectors: an int64 tensor of any shape becomes
    int64 of shape tensor.shape + (num_classes,), with a 1 at each index.
    num_classes=-1 takes the largest index + 1 (so a batch missing the last
    classes gives fewer columns: pass num_classes). The input must be int64;
    call .float() on the result to use it in arithmetic with floats.

    Example::

        >>> F.one_hot(torch.tensor([0, 2, 1]))
        tensor([[1, 0, 0],
                [0, 0, 1],
                [0, 1, 0]])
        >>> F.one_hot(torch.tensor([0, 2]), num_classes=4)
        tensor([[1, 0, 0, 0],
                [0, 0, 1, 0]])
    """
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
    """relu(input, inplace=False) -> Tensor

    max(0, x) for each element: negatives become 0. inplace=True overwrites
    input (saves memory; not on a tensor autograd still needs).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.relu(x)
        tensor([0., 0., 0., 1., 3.])
    """
    r = torch.relu(input)
    return _inplace(input, r) if inplace else r


def relu_(input):
    """relu_(input) -> Tensor

    In-place version of relu(): input is overwritten with the result, which
    is returned.
    """
    return relu(input, inplace=True)


def relu6(input, inplace=False):
    """relu6(input, inplace=False) -> Tensor

    min(max(0, x), 6) for each element: relu capped at 6 (MobileNet).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.relu6(x * 3)
        tensor([0., 0., 0., 3., 6.])
    """
    return hardtanh(input, 0.0, 6.0, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False) -> Tensor

    x clamped to [min_val, max_val]: a piecewise-linear tanh.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.hardtanh(x)
        tensor([-1.0000, -0.5000,  0.0000,  1.0000,  1.0000])
    """
    r = _named(torch.clamp(_src(input, inplace), min_val, max_val), "HardtanhBackward0")
    return _inplace(input, r) if inplace else r


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """leaky_relu(input, negative_slope=0.01, inplace=False) -> Tensor

    x where x >= 0, negative_slope * x where x < 0: relu with a small slope
    for negatives so that their gradient is not 0.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.leaky_relu(x, 0.1)
        tensor([-0.2000, -0.0500,  0.0000,  1.0000,  3.0000])
    """
    r = _C._nn_leaky_relu(_src(input, inplace), negative_slope)
    return _inplace(input, r, "LeakyReluBackward1") if inplace else r


def elu(input, alpha=1.0, inplace=False):
    """elu(input, alpha=1.0, inplace=False) -> Tensor

    x where x > 0, alpha * (exp(x) - 1) where x <= 0: smooth for negatives,
    tending to -alpha.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.elu(x)
        tensor([-0.8647, -0.3935,  0.0000,  1.0000,  3.0000])
    """
    x = _src(input, inplace)
    r = _named(torch.where(x > 0, x, (torch.exp(x) - 1) * alpha), "EluBackward0")
    return _inplace(input, r, "EluBackward1") if inplace else r


def selu(input, inplace=False):
    """selu(input, inplace=False) -> Tensor

    scale * elu(x, alpha) with alpha = 1.6733 and scale = 1.0507 (to 4
    digits): constants chosen so that activations keep mean 0 and variance 1
    through many layers (self-normalizing networks; pair with alpha_dropout
    and kaiming_normal_ with nonlinearity='linear').

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.selu(x)
        tensor([-1.5202, -0.6918,  0.0000,  1.0507,  3.1521])
    """
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    r = _named(elu(_src(input, inplace), alpha) * scale, "EluBackward0")
    return _inplace(input, r, "EluBackward1") if inplace else r


def celu(input, alpha=1.0, inplace=False):
    """celu(input, alpha=1.0, inplace=False) -> Tensor

    max(0, x) + min(0, alpha * (exp(x / alpha) - 1)): elu rescaled so that its
    derivative is continuous for every alpha.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.celu(x, alpha=2.0)
        tensor([-1.2642, -0.4424,  0.0000,  1.0000,  3.0000])
    """
    x = _src(input, inplace)
    r = torch.where(x > 0, x, (torch.exp(x / alpha) - 1) * alpha)
    r = _named(r, "CeluBackward0")
    return _inplace(input, r, "CeluBackward1") if inplace else r


def gelu(input, approximate="none"):
    """gelu(input, approximate='none') -> Tensor

    x * P(X <= x) for a standard normal X, i.e. x * 0.5 * (1 + erf(x / sqrt(2))):
    the smooth relu of transformers (BERT, GPT). approximate='tanh' uses the
    tanh formula 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3))),
    which GPT-2 used; results differ slightly from 'none'.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.gelu(x)
        tensor([-0.0455, -0.1543,  0.0000,  0.8413,  2.9960])
        >>> F.gelu(x, approximate='tanh')
        tensor([-0.0454, -0.1543,  0.0000,  0.8412,  2.9964])
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _C._nn_gelu(input, approximate == "tanh")


def silu(input, inplace=False):
    """silu(input, inplace=False) -> Tensor

    x * sigmoid(x) for each element (also called swish).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.silu(x)
        tensor([-0.2384, -0.1888,  0.0000,  0.7311,  2.8577])
    """
    r = _C._nn_silu(_src(input, inplace))
    return _inplace(input, r) if inplace else r


def mish(input, inplace=False):
    """mish(input, inplace=False) -> Tensor

    x * tanh(softplus(x)) for each element: a smooth relu-like activation.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.mish(x)
        tensor([-0.2525, -0.2207,  0.0000,  0.8651,  2.9865])
    """
    x = _src(input, inplace)
    r = _named(x * torch.tanh(softplus(x)), "MishBackward0")
    return _inplace(input, r) if inplace else r


def hardsigmoid(input, inplace=False):
    """hardsigmoid(input, inplace=False) -> Tensor

    relu6(x + 3) / 6: 0 below -3, 1 above 3, linear between; a cheap sigmoid.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.hardsigmoid(x)
        tensor([0.1667, 0.4167, 0.5000, 0.6667, 1.0000])
    """
    r = _named(torch.clamp(_src(input, inplace) / 6 + 0.5, 0.0, 1.0), "HardsigmoidBackward0")
    return _inplace(input, r) if inplace else r


def hardswish(input, inplace=False):
    """hardswish(input, inplace=False) -> Tensor

    x * relu6(x + 3) / 6: a cheap silu (MobileNetV3).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.hardswish(x)
        tensor([-0.3333, -0.2083,  0.0000,  0.6667,  3.0000])
    """
    x = _src(input, inplace)
    r = _named(x * torch.clamp(x + 3, 0.0, 6.0) / 6, "HardswishBackward0")
    return _inplace(input, r) if inplace else r


def softplus(input, beta=1, threshold=20):
    """softplus(input, beta=1, threshold=20) -> Tensor

    log(1 + exp(beta * x)) / beta for each element: a smooth relu, always
    positive. Where beta * x > threshold the result is x itself (the formula
    would only round to it).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.softplus(x)
        tensor([0.1269, 0.4741, 0.6931, 1.3133, 3.0486])
        >>> F.softplus(x, beta=2)
        tensor([0.0091, 0.1566, 0.3466, 1.0635, 3.0012])
    """
    return _C._nn_softplus(input, beta, threshold)


def softsign(input):
    """softsign(input) -> Tensor

    x / (1 + |x|) for each element, in (-1, 1).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.softsign(x)
        tensor([-0.6667, -0.3333,  0.0000,  0.5000,  0.7500])
    """
    return input / (torch.abs(input) + 1)


def tanh(input):
    """tanh(input) -> Tensor

    Deprecated (with a warning): use torch.tanh, which is the same.
    The hyperbolic tangent of each element, in (-1, 1).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.tanh(x)
        tensor([-0.9640, -0.4621,  0.0000,  0.7616,  0.9951])
    """
    warnings.warn("nn.functional.tanh is deprecated. Use torch.tanh instead.")
    return torch.tanh(input)


def sigmoid(input):
    """sigmoid(input) -> Tensor

    Deprecated (with a warning): use torch.sigmoid, which is the same.
    1 / (1 + exp(-x)) for each element, in (0, 1).
    For a binary classifier's loss, give the raw scores to
    binary_cross_entropy_with_logits instead of a sigmoid then
    binary_cross_entropy.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.sigmoid(x)
        tensor([0.1192, 0.3775, 0.5000, 0.7311, 0.9526])
    """
    warnings.warn("nn.functional.sigmoid is deprecated. Use torch.sigmoid instead.")
    return torch.sigmoid(input)


def logsigmoid(input):
    """logsigmoid(input) -> Tensor

    log(sigmoid(x)) for each element, computed stably as -softplus(-x).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.logsigmoid(x)
        tensor([-2.1269, -0.9741, -0.6931, -0.3133, -0.0486])
    """
    return _named(-softplus(-input), "LogSigmoidBackward0")


def tanhshrink(input):
    """tanhshrink(input) -> Tensor

    x - tanh(x) for each element.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.tanhshrink(x)
        tensor([-1.0360, -0.0379,  0.0000,  0.2384,  2.0049])
    """
    return input - torch.tanh(input)


def threshold(input, threshold, value, inplace=False):
    """threshold(input, threshold, value, inplace=False) -> Tensor

    x where x > threshold, value elsewhere (relu is threshold(x, 0, 0)).

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.threshold(x, 0.5, -1.0)
        tensor([-1., -1., -1.,  1.,  3.])
    """
    x = _src(input, inplace)
    r = torch.where(x > threshold, x, torch.full_like(x, value))
    r = _named(r, "ThresholdBackward0")
    return _inplace(input, r, "ThresholdBackward1") if inplace else r


_threshold = threshold


def glu(input, dim=-1):
    """glu(input, dim=-1) -> Tensor

    The gated linear unit: input is split in two halves a, b along dim (whose
    size must be even) and a * sigmoid(b) is returned, half as large along dim.

    Example::

        >>> F.glu(torch.tensor([[1.0, 2.0, 0.0, 3.0]]))
        tensor([[0.5000, 1.9051]])
    """
    a, b = input.chunk(2, dim)
    return _named(a * torch.sigmoid(b), "GluBackward0")


def _get_softmax_dim(name, ndim, stacklevel):
    return _softmax_dim(name, ndim, stacklevel)


def _softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(input, dim=None, _stacklevel=3, dtype=None) -> Tensor

    exp(x) / sum(exp(x)) along dim: turns scores into probabilities, each
    slice along dim positive and summing to 1. Computed stably (the maximum is
    subtracted first), so large scores do not overflow.

    - dim: the dimension to normalize over; for a (N, C) batch of class scores
      that is dim=1 (or -1). Always give it: without it a dimension is guessed
      (0 for 0-, 1- and 3-D input, else 1) with a deprecation warning.
    - dtype: the input is cast to this dtype first (e.g. torch.float64 for
      accuracy, or to avoid overflow in float16).

    Do not feed softmax's output to cross_entropy (it expects raw scores), and
    prefer log_softmax to torch.log(softmax(x)), which underflows to -inf.

    Example::

        >>> x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
        >>> F.softmax(x, dim=1)
        tensor([[0.0900, 0.2447, 0.6652],
                [0.3333, 0.3333, 0.3333]])
        >>> F.softmax(x, dim=1).sum(dim=1)
        tensor([1., 1.])
    """
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return _C._nn_softmax(input, dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmin(input, dim=None, _stacklevel=3, dtype=None) -> Tensor

    softmax(-input) along dim: probabilities that favour the smallest values.
    dim and dtype as in softmax (give dim).

    Example::

        >>> F.softmin(torch.tensor([1.0, 2.0, 3.0]), dim=0)
        tensor([0.6652, 0.2447, 0.0900])
    """
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return _C._nn_softmax(-input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log_softmax(input, dim=None, _stacklevel=3, dtype=None) -> Tensor

    log(softmax(x)) along dim, computed directly as x - logsumexp(x) so that it
    stays finite where softmax would round to 0. The output are
    log-probabilities: feed them to nll_loss (log_softmax then nll_loss is
    cross_entropy) or kl_div.

    - dim: the dimension to normalize over (dim=1 for (N, C) class scores);
      without it a dimension is guessed with a deprecation warning.
    - dtype: the input is cast to this dtype first.

    Example::

        >>> x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
        >>> F.log_softmax(x, dim=1)
        tensor([[-2.4076, -1.4076, -0.4076],
                [-1.0986, -1.0986, -1.0986]])
        >>> F.log_softmax(x, dim=1).exp()
        tensor([[0.0900, 0.2447, 0.6652],
                [0.3333, 0.3333, 0.3333]])
    """
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
    """batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05) -> Tensor

    Normalize each channel (dimension 1) of an (N, C, ...) input:
    (x - mean) / sqrt(var + eps) * weight + bias, with weight and bias of
    shape (C,).

    With training=True the mean and (biased) variance are those of the batch,
    over every dimension but 1, and running_mean and running_var (when not
    None) are updated in place: running = (1 - momentum) * running + momentum *
    batch statistic (the unbiased variance for running_var). With
    training=False (the default here) running_mean and running_var are used.
    nn.BatchNorm1d/2d/3d keep these buffers and pass their training flag.

    Example::

        >>> x = torch.tensor([[1.0, 10.0], [3.0, 30.0]])
        >>> rm, rv = torch.zeros(2), torch.ones(2)
        >>> F.batch_norm(x, rm, rv, training=True)
        tensor([[-1.0000, -1.0000],
                [ 1.0000,  1.0000]])
        >>> rm, rv
        (tensor([0.2000, 2.0000]), tensor([ 1.1000, 20.9000]))
        >>> F.batch_norm(x, rm, rv)
        tensor([[0.7628, 1.7499],
                [2.6697, 6.1247]])
    """
    if training:
        _verify_batch_size(input.size())
    if input.numel() == 0:  # nothing to normalise (OpInfo's empty samples)
        return input.clone()
    return _C._nn_batch_norm(input, running_mean, running_var, weight, bias, training,
                             0.0 if momentum is None else momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05) -> Tensor

    Normalize over the last dimensions of input, those given by
    normalized_shape (an int or tuple equal to the end of input.shape), each
    sample on its own: (x - mean) / sqrt(var + eps) * weight + bias, with the
    biased variance. weight and bias have shape normalized_shape. The same in
    training and evaluation (no running statistics), unlike batch_norm.

    Example::

        >>> x = torch.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
        >>> F.layer_norm(x, (3,))
        tensor([[-1.2247,  0.0000,  1.2247],
                [ 0.0000,  0.0000,  0.0000]])
    """
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
    """group_norm(input, num_groups, weight=None, bias=None, eps=1e-05) -> Tensor

    Split the C channels (dimension 1) of an (N, C, ...) input into
    num_groups groups (C must be divisible by num_groups) and normalize each
    group of each sample over its channels and positions: (x - mean) /
    sqrt(var + eps), then times weight and plus bias, of shape (C,), per
    channel. num_groups=1 is layer_norm over (C, ...); num_groups=C is
    instance_norm.

    Example::

        >>> x = torch.tensor([[[1.0, 2.0], [3.0, 4.0], [0.0, 0.0], [5.0, 5.0]]])
        >>> F.group_norm(x, 2)
        tensor([[[-1.3416, -0.4472],
                 [ 0.4472,  1.3416],
                 [-1.0000, -1.0000],
                 [ 1.0000,  1.0000]]])
    """
    if input.numel() == 0:  # nothing to normalise (OpInfo's empty samples)
        return input.clone()
    return _C._nn_group_norm(input, num_groups, weight, bias, eps)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    """dropout(input, p=0.5, training=True, inplace=False) -> Tensor

    During training, zero each element with probability p and multiply the
    rest by 1 / (1 - p), so that the expected value is unchanged; with
    training=False, return input as it is.

    Note that training defaults to True here: inside a module's forward pass
    training=self.training, or use nn.Dropout, which follows model.train() and
    model.eval() by itself. A forgotten training flag keeps dropping at
    evaluation time.

    - p: the probability of zeroing an element, in [0, 1].
    - inplace: overwrite input.

    Example::

        >>> x = torch.ones(8)
        >>> _ = torch.manual_seed(0)
        >>> F.dropout(x, p=0.5)
        tensor([0., 0., 2., 0., 0., 0., 2., 2.])
        >>> F.dropout(x, p=0.5, training=False)
        tensor([1., 1., 1., 1., 1., 1., 1., 1.])
    """
    _check_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    r = _C._nn_dropout(_src(input, inplace), p, training)
    return _inplace(input, r) if inplace and training else r


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """normalize(input, p=2.0, dim=1, eps=1e-12, out=None) -> Tensor

    Divide each slice along dim by its p-norm, so that every slice has norm 1:
    x / max(||x||_p, eps). With the defaults, the rows of a (N, D) matrix
    become unit vectors (dim=1; use dim=-1 for the last dimension of other
    shapes). eps avoids a division by zero for all-zero slices.

    Example::

        >>> x = torch.tensor([[3.0, 4.0], [1.0, 0.0], [0.0, 0.0]])
        >>> F.normalize(x)
        tensor([[0.6000, 0.8000],
                [1.0000, 0.0000],
                [0.0000, 0.0000]])
        >>> F.normalize(x, p=1, dim=0)
        tensor([[0.7500, 1.0000],
                [0.2500, 0.0000],
                [0.0000, 0.0000]])
    """
    denom = torch.clamp(input.norm(p, dim, keepdim=True), min=eps).expand_as(input)
    if out is None:
        return input / denom
    # PyTorch's: out keeps its identity (the power iteration of spectral_norm
    # writes its u and v buffers this way), with div's out= checks
    return torch.div(input, denom, out=out)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """cosine_similarity(x1, x2, dim=1, eps=1e-08) -> Tensor

    The cosine of the angle between x1 and x2 along dim: (x1 . x2) /
    (max(||x1||, eps) * max(||x2||, eps)), in [-1, 1]. x1 and x2 broadcast; dim
    is removed from the result. For (N, D) batches of vectors, dim=1 gives N
    similarities; for every pair of rows use F.normalize(a) @ F.normalize(b).T.

    Example::

        >>> a = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> b = torch.tensor([[0.0, 1.0], [2.0, 2.0]])
        >>> F.cosine_similarity(a, b)
        tensor([0.0000, 1.0000])
        >>> F.cosine_similarity(a, b, dim=0)
        tensor([0.7071, 0.8944])
    """
    # ATen's order: each side divided by its norm (clamped below by eps)
    # first, then the product summed.
    shape = torch.broadcast_shapes(x1.shape, x2.shape)
    x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = torch.clamp(x1.norm(2, dim, keepdim=True), min=eps)
    n2 = torch.clamp(x2.norm(2, dim, keepdim=True), min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False) -> Tensor

    The p-norm distance ||x1 - x2 + eps||_p between matching rows of x1 and
    x2 (along the last dimension; they broadcast). Not all pairs: for every row
    of one against every row of the other use torch.cdist.

    - keepdim: keep the last dimension, with size 1.

    Example::

        >>> a = torch.tensor([[0.0, 0.0], [1.0, 1.0]])
        >>> b = torch.tensor([[3.0, 4.0], [1.0, 1.0]])
        >>> F.pairwise_distance(a, b)
        tensor([5.0000e+00, 1.4142e-06])
    """
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


def pdist(input, p=2):
    """pdist(input, p=2) -> Tensor

    The p-norm distances between all pairs of rows of a 2-D (N, M) input, as a
    1-D tensor of the N * (N - 1) / 2 values above the diagonal of the distance
    matrix, row by row.

    Example::

        >>> F.pdist(torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]))
        tensor([ 5., 10.,  5.])
    """
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
    """pad(input, pad, mode='constant', value=None) -> Tensor

    Add padding around a tensor. pad is a tuple of even length, read from the
    last dimension backwards: (left, right) pads the last dimension,
    (left, right, top, bottom) the last two, and so on. Negative amounts crop.

    - mode: 'constant' (fill with value, 0 by default), 'reflect' (mirror
      without repeating the edge), 'replicate' (repeat the edge) or 'circular'
      (wrap around). The modes other than 'constant' pad only the last 1, 2 or
      3 dimensions of a batched (N, C, ...) or unbatched input.
    - value: the fill value for mode='constant'.

    Example::

        >>> x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> F.pad(x, (1, 0))
        tensor([[0., 1., 2.],
                [0., 3., 4.]])
        >>> F.pad(x, (0, 0, 1, 1), value=9.0)
        tensor([[9., 9.],
                [1., 2.],
                [3., 4.],
                [9., 9.]])
        >>> F.pad(x.view(1, 2, 2), (1, 1), mode='reflect')
        tensor([[[2., 1., 2., 1.],
                 [4., 3., 4., 3.]]])
        >>> F.pad(x.view(1, 2, 2), (1, 1), mode='replicate')
        tensor([[[1., 1., 2., 2.],
                 [3., 3., 4., 4.]]])
    """
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
    """cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0) -> Tensor

    The classification loss: for each sample, minus the log of the probability
    that softmax(input) gives to the right class, averaged over the batch.

    input holds raw scores (logits), shape (N, C) for N samples and C classes,
    (C,) for one sample, or (N, C, d1, d2, ...) for a score per pixel or per
    position. Do not apply softmax or log_softmax first: cross_entropy does
    log_softmax itself, and a softmax before it gives a loss that trains
    badly. It is log_softmax followed by nll_loss.

    target is either class indices, an int64 tensor of shape (N,) (or
    (N, d1, ...)) with values in [0, C), or class probabilities, a float tensor
    of input's shape (each row summing to 1). A float tensor of indices, or a
    target of shape (N, 1), is a common mistake: squeeze it and call .long().

    - weight: a (C,) tensor, a rescaling of each class's loss (for imbalanced
      classes); with reduction='mean' the sum is divided by the sum of the
      targets' weights.
    - ignore_index: samples whose target is this index add nothing to the loss
      nor to the mean's count (index targets only; padding in sequences).
    - reduction: 'mean' (default) the average over samples, 'sum' the total,
      'none' one loss per sample, shape (N,).
    - label_smoothing: in [0, 1]; the target becomes (1 - label_smoothing) on
      the right class plus label_smoothing spread evenly over all C classes.
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
        >>> target = torch.tensor([0, 2])
        >>> F.cross_entropy(logits, target)
        tensor(0.1755)
        >>> F.cross_entropy(logits, target, reduction='none')
        tensor([0.2413, 0.1096])
        >>> F.cross_entropy(logits, target, label_smoothing=0.1)
        tensor(0.3455)
        >>> probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.0, 1.0]])
        >>> F.cross_entropy(logits, probs)
        tensor(0.4755)
    """
    # The usual call (class indices, no weight, no legacy arguments, no
    # smoothing) goes straight to the kernel, which checks the rest; the
    # frames of the general path below cost more than a few-class batch's
    # loss.
    if (weight is None and size_average is None and reduce is None and type(target) is Tensor
            and target.dtype is torch.int64 and reduction in _REDUCTIONS
            and label_smoothing == 0.0 and input.dim() <= 2):
        return _C._nn_cross_entropy(input, target, ignore_index, 0.0, reduction)
    for name, pos, value in (("input", 1, input), ("target", 2, target)):
        if not isinstance(value, Tensor):
            raise TypeError(f"cross_entropy_loss(): argument '{name}' (position {pos}) must be "
                            f"Tensor, not {type(value).__name__}")
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
    """nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean') -> Tensor

    The negative log likelihood loss: minus input[n, target[n]] for each
    sample n, averaged. input must hold log-probabilities, shape (N, C) (or
    (C,), or (N, C, d1, ...)): the output of log_softmax, not of softmax and
    not raw logits (for logits use cross_entropy, which is log_softmax then
    nll_loss). target is an int64 tensor of class indices, shape (N,) (or
    (N, d1, ...)), values in [0, C).

    - weight: a (C,) tensor scaling each class's loss; the mean then divides
      by the sum of the targets' weights.
    - ignore_index: targets equal to it add nothing and are not counted.
    - reduction: 'mean' (default), 'sum' or 'none' (one loss per sample).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> logp = F.log_softmax(torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]]), dim=1)
        >>> target = torch.tensor([0, 2])
        >>> F.nll_loss(logp, target)
        tensor(0.1755)
        >>> F.nll_loss(logp, target, reduction='none')
        tensor([0.2413, 0.1096])
    """
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
    """mse_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor

    The mean squared error: the average of (input - target)**2 over all
    elements (the regression loss). input and target broadcast, but should have
    the same shape: a prediction of shape (N, 1) against a target of shape (N,)
    broadcasts to (N, N), which is almost never meant (PyTorch warns; so does
    nndb).

    - reduction: 'mean' (default) the average, 'sum' the total, 'none' the
      squared error of each element.
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> pred = torch.tensor([2.5, 0.0, 2.0])
        >>> y = torch.tensor([3.0, -0.5, 2.0])
        >>> F.mse_loss(pred, y)
        tensor(0.1667)
        >>> F.mse_loss(pred, y, reduction='none')
        tensor([0.2500, 0.2500, 0.0000])
    """
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    return _C._nn_mse_loss(input, target, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """l1_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor

    The mean absolute error: the average of |input - target| over all elements.
    Less sensitive to outliers than mse_loss. input and target should have the
    same shape.

    - reduction: 'mean' (default), 'sum' or 'none' (one value per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> pred = torch.tensor([2.5, 0.0, 2.0])
        >>> y = torch.tensor([3.0, -0.5, 2.0])
        >>> F.l1_loss(pred, y)
        tensor(0.3333)
        >>> F.l1_loss(pred, y, reduction='sum')
        tensor(1.)
    """
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    return _C._nn_l1_loss(input, target, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0) -> Tensor

    An L1 loss with a rounded bottom: for each element with d = |input - target|,
    0.5 * d**2 / beta where d < beta, else d - 0.5 * beta; then averaged.
    Quadratic near zero (smooth gradients), linear far away (robust to
    outliers). huber_loss is the same curve multiplied by beta.

    - beta: where the curve turns from quadratic to linear (default 1.0;
      beta=0 is l1_loss).
    - reduction: 'mean' (default), 'sum' or 'none'.
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> pred = torch.tensor([0.2, 1.0, 4.0])
        >>> y = torch.tensor([0.0, 0.0, 0.0])
        >>> F.smooth_l1_loss(pred, y, reduction='none')
        tensor([0.0200, 0.5000, 3.5000])
        >>> F.smooth_l1_loss(pred, y, beta=2.0, reduction='none')
        tensor([0.0100, 0.2500, 3.0000])
    """
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    d = torch.abs(input - target)
    if beta == 0.0:
        return _named(_reduce(d, reduction), "SmoothL1LossBackward0")
    loss = torch.where(d < beta, d * d * (0.5 / beta), d - 0.5 * beta)
    return _named(_reduce(loss, reduction), "SmoothL1LossBackward0")


def huber_loss(input, target, reduction="mean", delta=1.0):
    """huber_loss(input, target, reduction='mean', delta=1.0) -> Tensor

    The Huber loss: for each element with d = |input - target|, 0.5 * d**2
    where d <= delta, else delta * (d - 0.5 * delta); then averaged. Squared
    error for small errors, absolute error (times delta) for large ones.
    smooth_l1_loss with beta=delta is this divided by delta.

    - delta: where the loss turns from quadratic to linear (default 1.0).
    - reduction: 'mean' (default), 'sum' or 'none'.

    Example::

        >>> pred = torch.tensor([0.2, 1.0, 4.0])
        >>> y = torch.tensor([0.0, 0.0, 0.0])
        >>> F.huber_loss(pred, y, reduction='none')
        tensor([0.0200, 0.5000, 3.5000])
        >>> F.huber_loss(pred, y, delta=2.0, reduction='none')
        tensor([0.0200, 0.5000, 6.0000])
    """
    _warn_size(input, target)
    reduction = _reduction(None, None, reduction)
    d = torch.abs(input - target)
    loss = torch.where(d < delta, d * d * 0.5, (d - 0.5 * delta) * delta)
    return _named(_reduce(loss, reduction), "HuberLossBackward0")


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction='mean') -> Tensor

    The binary classification loss for probabilities:
    -(target * log(input) + (1 - target) * log(1 - input)), averaged.

    input must be probabilities in [0, 1], usually the output of sigmoid;
    target (floats in [0, 1], input's shape) says how true each is. For raw
    scores use binary_cross_entropy_with_logits instead: it applies the sigmoid
    itself and stays accurate where sigmoid rounds to 0 or 1 (here the logs are
    clamped at -100). The target must be float, not int64.

    - weight: rescales each element's loss (broadcast to input's shape).
    - reduction: 'mean' (default), 'sum' or 'none'.
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> p = torch.tensor([0.9, 0.2, 0.6])
        >>> y = torch.tensor([1.0, 0.0, 0.0])
        >>> F.binary_cross_entropy(p, y)
        tensor(0.4149)
        >>> F.binary_cross_entropy(p, y, reduction='none')
        tensor([0.1054, 0.2231, 0.9163])
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if target.dtype != input.dtype:
        # ATen's check: class labels loaded as integers are a classic slip
        from torch._complex import _name
        raise RuntimeError(f"Found dtype {_name(target.dtype)} but expected {_name(input.dtype)}")
    if weight is None:
        return _C._nn_binary_cross_entropy(input, target, reduction)
    loss = _C._nn_binary_cross_entropy(input, target, "none") * weight
    return _named(_reduce(loss, reduction), "BinaryCrossEntropyBackward0")


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None) -> Tensor

    binary_cross_entropy(sigmoid(input), target), computed in one stable step:
    input holds raw scores (logits) of any shape, target the float labels in
    [0, 1] of the same shape. Prefer this to a sigmoid followed by
    binary_cross_entropy (large scores do not turn into log(0)). For several
    labels per sample (multi-label) give one score per label.

    - weight: rescales each element's loss (broadcast to input's shape).
    - pos_weight: a weight for the positive term of each class (shape (C,)
      against a last dimension of C); pos_weight > 1 raises recall, for rare
      positives (number of negatives / number of positives is the usual choice).
    - reduction: 'mean' (default), 'sum' or 'none'.
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> logits = torch.tensor([2.0, -1.0, 0.5])
        >>> y = torch.tensor([1.0, 0.0, 0.0])
        >>> F.binary_cross_entropy_with_logits(logits, y)
        tensor(0.4714)
        >>> F.binary_cross_entropy(torch.sigmoid(logits), y)
        tensor(0.4714)
        >>> F.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.tensor([3.0]))
        tensor(0.5560)
    """
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
    """kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False) -> Tensor

    The Kullback-Leibler divergence KL(target || model) for distributions where
    input holds the model's log-probabilities (log_softmax output, not
    probabilities) and target the reference probabilities (or
    log-probabilities with log_target=True). Each element contributes
    target * (log(target) - input).

    - reduction: 'mean' (default) divides the sum by the number of elements,
      which is not the KL divergence per sample: use 'batchmean' (the sum
      divided by the batch size, input.size(0)) for that. 'sum' and 'none' as
      in the other losses.
    - log_target: target is given as log-probabilities.
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> logq = torch.log(torch.tensor([[0.5, 0.3, 0.2]]))
        >>> p = torch.tensor([[0.4, 0.4, 0.2]])
        >>> F.kl_div(logq, p, reduction='batchmean')
        tensor(0.0258)
        >>> F.kl_div(logq, p, reduction='none')
        tensor([[-0.0893,  0.1151,  0.0000]])
    """
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
    """poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None, reduction='mean') -> Tensor

    The negative log likelihood of counts target under a Poisson distribution
    with rate input: exp(input) - target * input when log_input=True (input is
    the log of the rate), else input - target * log(input + eps).

    - full: add Stirling's approximation of log(target!) (for target > 1).
    - eps: avoids log(0) when log_input=False.
    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> F.poisson_nll_loss(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0]), reduction='none')
        tensor([ 1.0000, -0.2817])
    """
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
    """triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, size_average=None, reduce=None, reduction='mean') -> Tensor

    For (N, D) embeddings: max(0, d(anchor, positive) - d(anchor, negative) +
    margin), d the pairwise p-norm distance: the positive should be closer to
    the anchor than the negative by margin.

    - swap: also use d(positive, negative) when it is smaller than
      d(anchor, negative).
    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> a = torch.tensor([[0.0, 0.0]])
        >>> pos = torch.tensor([[1.0, 0.0]])
        >>> neg = torch.tensor([[0.0, 1.5]])
        >>> F.triplet_margin_loss(a, pos, neg)
        tensor(0.5000)
    """
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
    """ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', zero_infinity=False) -> Tensor

    The connectionist temporal classification loss (speech, handwriting):
    minus the log probability of the target sequence summed over all its
    alignments to the input frames.

    - log_probs: (T, N, C) log_softmax output: T frames, N sequences, C
      classes including the blank.
    - targets: (N, S) padded class indices, or all targets concatenated.
    - input_lengths, target_lengths: (N,) lengths of each sequence.
    - blank: the index of the blank class.
    - reduction: 'mean' (each loss divided by its target length, then the
      mean over the batch), 'sum' or 'none'.
    - zero_infinity: impossible alignments give 0 and a 0 gradient instead of
      inf.

    Example::

        >>> lp = torch.log(torch.full((3, 1, 3), 1 / 3))
        >>> F.ctc_loss(lp, torch.tensor([[1, 2]]), torch.tensor([3]), torch.tensor([2]))
        tensor(0.8432)
    """
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
    """margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean') -> Tensor

    max(0, -target * (input1 - input2) + margin) for each element: with
    target 1, input1 should rank above input2 by at least margin; with -1,
    below.

    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> a = torch.tensor([2.0, 1.0])
        >>> b = torch.tensor([1.0, 1.5])
        >>> F.margin_ranking_loss(a, b, torch.tensor([1.0, 1.0]), margin=0.5, reduction='none')
        tensor([0., 1.])
    """
    reduction = _reduction(size_average, reduce, reduction)
    return _reduce(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor

    log(1 + exp(-target * input)) for each element, with targets 1 or -1: a
    smooth two-class loss (the logistic loss).

    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> F.soft_margin_loss(torch.tensor([2.0, -1.0]), torch.tensor([1.0, 1.0]), reduction='none')
        tensor([0.1269, 1.3133])
    """
    reduction = _reduction(size_average, reduce, reduction)
    return _reduce(softplus(-target * input), reduction)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None):
    """scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None) -> Tensor

    Attention: softmax(query @ key.transpose(-2, -1) * scale + mask) @ value.
    query is (..., L, E), key (..., S, E), value (..., S, Ev); the result is
    (..., L, Ev). The leading dimensions (batch, heads) broadcast.

    - scale: defaults to 1 / sqrt(E).
    - attn_mask: a boolean mask (True where attention is allowed) or a float
      mask added to the scores (-inf to forbid), broadcast to (..., L, S).
    - is_causal: each position attends only to itself and earlier ones (a
      lower-triangular mask); do not pass attn_mask with it.
    - dropout_p: dropout on the attention weights; pass 0.0 at evaluation.

    (PyTorch 1.13 has no F.scaled_dot_product_attention; it came in 2.0, with
    this signature. nndb provides it for newer course code.)

    Example::

        >>> q = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> k = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> v = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> F.scaled_dot_product_attention(q, k, v)
        tensor([[1.6605, 2.6605],
                [2.3395, 3.3395]])
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True)
        tensor([[1.0000, 2.0000],
                [2.3395, 3.3395]])
    """
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
    """multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=True, key_padding_mask=None, need_weights=True, attn_mask=None, use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True) -> Tuple[Tensor, Optional[Tensor]]

    The computation of nn.MultiheadAttention with its parameters passed in:
    query, key and value ((L, N, E), (S, N, E), (S, N, E), or unbatched) are
    projected with in_proj_weight/in_proj_bias (or the three separate weights
    with use_separate_proj_weight=True), split into num_heads heads, attended
    with the masks, and projected with out_proj_weight/out_proj_bias. Returns
    (output, attention weights averaged over heads, or per head with
    average_attn_weights=False, or None with need_weights=False). Most code
    should use nn.MultiheadAttention, which holds these parameters.
    """
    # written beside nn.MultiheadAttention, which is its main caller
    from torch.nn.modules.attention import multi_head_attention_forward as forward
    return forward(*args, **kwargs)


# ---- shrinkage, randomized ReLU, channel and alpha dropout ----
# (compositions of tensor ops; the random ones draw from torch's generator in
# the order ATen's CPU kernels do, so seeded runs give PyTorch's numbers)

def prelu(input, weight):
    """prelu(input, weight) -> Tensor

    Leaky relu with a learned slope: x where x >= 0, weight * x elsewhere.
    weight holds one slope, or one per channel (dimension 1 of input), as
    nn.PReLU's parameter does.

    Example::

        >>> x = torch.tensor([[-2.0, 1.0], [-1.0, -3.0]])
        >>> F.prelu(x, torch.tensor([0.1, 0.5]))
        tensor([[-0.2000,  1.0000],
                [-0.1000, -1.5000]])
    """
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
    """hardshrink(input, lambd=0.5) -> Tensor

    x where |x| > lambd, 0 elsewhere.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.hardshrink(x)
        tensor([-2.,  0.,  0.,  1.,  3.])
    """
    return _named(torch.where(input.abs() > lambd, input, torch.zeros_like(input)),
                  "HardshrinkBackward0")


def softshrink(input, lambd=0.5):
    """softshrink(input, lambd=0.5) -> Tensor

    Shrink toward 0 by lambd: x - lambd where x > lambd, x + lambd where
    x < -lambd, 0 in between.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.softshrink(x)
        tensor([-1.5000,  0.0000,  0.0000,  0.5000,  2.5000])
    """
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
    """rrelu(input, lower=0.125, upper=0.3333333333333333, training=False, inplace=False) -> Tensor

    Randomized leaky relu: negatives are multiplied by a slope drawn
    uniformly from [lower, upper] for each element when training=True; when
    training=False (the default here, unlike the nn.RReLU module in training
    mode) the slope is the fixed (lower + upper) / 2.

    Example::

        >>> x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0])
        >>> F.rrelu(x)
        tensor([-0.4583, -0.1146,  0.0000,  1.0000,  3.0000])
    """
    x = _src(input, inplace)
    if training:
        out = x * _rrelu_noise(x, lower, upper)
    else:
        slope = (lower + upper) / 2
        out = torch.where(x >= 0, x, x * slope)
    out = _named(out, "RreluWithNoiseBackward0")
    return _inplace(input, out, "RreluWithNoiseBackward1") if inplace else out


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """rrelu_(input, lower=0.125, upper=0.3333333333333333, training=False) -> Tensor

    In-place version of rrelu(): input is overwritten with the result, which
    is returned.
    """
    return rrelu(input, lower, upper, training, inplace=True)


def elu_(input, alpha=1.0):
    """elu_(input, alpha=1.0) -> Tensor

    In-place version of elu(): input is overwritten with the result, which
    is returned.
    """
    return elu(input, alpha, inplace=True)


def celu_(input, alpha=1.0):
    """celu_(input, alpha=1.0) -> Tensor

    In-place version of celu(): input is overwritten with the result, which
    is returned.
    """
    return celu(input, alpha, inplace=True)


def selu_(input):
    """selu_(input) -> Tensor

    In-place version of selu(): input is overwritten with the result, which
    is returned.
    """
    return selu(input, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    """leaky_relu_(input, negative_slope=0.01) -> Tensor

    In-place version of leaky_relu(): input is overwritten with the result, which
    is returned.
    """
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """hardtanh_(input, min_val=-1.0, max_val=1.0) -> Tensor

    In-place version of hardtanh(): input is overwritten with the result, which
    is returned.
    """
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    """threshold_(input, threshold, value) -> Tensor

    In-place version of threshold(): input is overwritten with the result, which
    is returned.
    """
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
    """alpha_dropout(input, p=0.5, training=False, inplace=False) -> Tensor

    Dropout for selu networks: dropped elements take selu's negative
    saturation value instead of 0, and an affine correction keeps the mean and
    variance of the input. training defaults to False here; returns input
    unchanged when not training.

    Example::

        >>> x = torch.ones(4)
        >>> F.alpha_dropout(x, 0.5)
        tensor([1., 1., 1., 1.])
        >>> _ = torch.manual_seed(0)
        >>> F.alpha_dropout(x, 0.5, training=True)
        tensor([-0.7792, -0.7792,  1.6656, -0.7792])
    """
    _dropout_p(p)
    return _dropout_impl(input, p, training, inplace, feature=False, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """feature_alpha_dropout(input, p=0.5, training=False, inplace=False) -> Tensor

    alpha_dropout over whole channels (dimension 1): each channel is set to
    selu's saturation value with probability p, then the affine correction is
    applied. training defaults to False.

    Example::

        >>> x = torch.ones(1, 3, 2)
        >>> F.feature_alpha_dropout(x, 0.5).equal(x)
        True
    """
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
    """dropout1d(input, p=0.5, training=True, inplace=False) -> Tensor

    Channel dropout for (N, C, L) or (C, L) input: each whole channel (a row
    of length L) is zeroed with probability p, the others scaled by 1 / (1 - p).
    training and inplace as in dropout.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> F.dropout1d(torch.ones(1, 4, 3), p=0.5)
        tensor([[[0., 0., 0.],
                 [0., 0., 0.],
                 [2., 2., 2.],
                 [0., 0., 0.]]])
    """
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
    """dropout2d(input, p=0.5, training=True, inplace=False) -> Tensor

    Channel dropout for (N, C, H, W) or (C, H, W) input: each whole feature map
    is zeroed with probability p, the others scaled by 1 / (1 - p) (neighbouring
    pixels are correlated, so element dropout would do little). training and
    inplace as in dropout.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> F.dropout2d(torch.ones(1, 4, 2, 2), p=0.5)[0, :, 0, 0]
        tensor([0., 0., 2., 0.])
    """
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
    """dropout3d(input, p=0.5, training=True, inplace=False) -> Tensor

    Channel dropout for (N, C, D, H, W) or (C, D, H, W) input: each whole
    channel is zeroed with probability p, the others scaled by 1 / (1 - p).
    training and inplace as in dropout.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> F.dropout3d(torch.ones(1, 4, 1, 2, 2), p=0.5)[0, :, 0, 0, 0]
        tensor([0., 0., 2., 0.])
    """
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
    """gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1) -> Tensor

    A random sample from the categorical distribution given by logits (raw,
    unnormalized log-probabilities), made differentiable: Gumbel noise is added
    to logits, and softmax((logits + noise) / tau) along dim is returned.

    - tau: the temperature; small values give nearly one-hot samples.
    - hard: return exact one-hot vectors whose gradient is that of the soft
      sample (the straight-through trick).
    - eps: unused, kept for compatibility.
    - dim: the dimension of the categories.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> y = F.gumbel_softmax(torch.tensor([[1.0, 2.0, 3.0]]), tau=0.5, hard=True)
        >>> y.sum(), y.shape
        (tensor(1.), torch.Size([1, 3]))
    """
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
    """gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction='mean') -> Tensor

    The negative log likelihood of target under a normal distribution with
    mean input and variance var (predicted too, positive; clamped to at least
    eps): 0.5 * (log(var) + (input - target)**2 / var) for each element. var has
    input's shape, or one fewer dimension, or size 1 in the last one.

    - full: add the constant 0.5 * log(2 * pi).
    - reduction: 'mean' (default), 'sum' or 'none'.

    Example::

        >>> mu = torch.tensor([0.0, 1.0])
        >>> y = torch.tensor([1.0, 1.0])
        >>> F.gaussian_nll_loss(mu, y, torch.tensor([1.0, 4.0]), reduction='none')
        tensor([0.5000, 0.6931])
    """
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
    """cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean') -> Tensor

    For pairs of (N, D) vectors and targets of 1 (should be similar) or -1
    (should differ): 1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) -
    margin) where target is -1; then reduced.

    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> a = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> b = torch.tensor([[1.0, 1.0], [1.0, 1.0]])
        >>> F.cosine_embedding_loss(a, b, torch.tensor([1, -1]), reduction='none')
        tensor([0.2929, 1.0000])
    """
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
    """hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean') -> Tensor

    For distances (or any scores) in input and targets of 1 or -1: x where
    target is 1, max(0, margin - x) where target is -1; then reduced.

    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> d = torch.tensor([0.3, 0.3, 2.0])
        >>> F.hinge_embedding_loss(d, torch.tensor([1, -1, -1]), reduction='none')
        tensor([0.3000, 0.7000, 0.0000])
    """
    reduction = _reduction(size_average, reduce, reduction)
    zeros = torch.zeros_like(input)
    out = (torch.where(target != 1, (margin - input).clamp_min(0), zeros) +
           torch.where(target != -1, input, zeros))
    return _reduce(out, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean') -> Tensor

    Multi-label classification: binary cross-entropy with logits of each of the
    C scores in input (N, C) against target (N, C) of 0s and 1s, averaged over
    the C classes, giving one loss per sample, then reduced.

    - weight: a (C,) tensor scaling each class.
    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> s = torch.tensor([[2.0, -1.0, 0.5]])
        >>> F.multilabel_soft_margin_loss(s, torch.tensor([[1.0, 0.0, 0.0]]))
        tensor(0.4714)
    """
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
    """multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean') -> Tensor

    The multi-class hinge loss (as a linear SVM's): for scores input (N, C) and
    class indices target (N,), the sum over wrong classes i of
    max(0, margin - input[target] + input[i]) ** p, divided by C.

    - p: 1 or 2.
    - weight: a (C,) tensor scaling each sample's loss by its class's weight.
    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> s = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> F.multi_margin_loss(s, torch.tensor([3]))
        tensor(0.3250)
    """
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
    """multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor

    A hinge loss for several correct classes per sample: target (N, C) lists
    each sample's class indices first, ended by -1 (or filling the row); each
    (correct j, other i) pair adds max(0, 1 - (input[j] - input[i])), and the
    sum is divided by C.

    - reduction: 'mean' (default), 'sum' or 'none' (one loss per element).
    - size_average, reduce: deprecated, use reduction.

    Example::

        >>> s = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> F.multilabel_margin_loss(s, torch.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """
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
    """triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction='mean') -> Tensor

    triplet_margin_loss with a distance of your choice: distance_function(a, b)
    returns one distance per row (default pairwise_distance).

    Example::

        >>> a = torch.tensor([[0.0, 0.0]])
        >>> pos = torch.tensor([[1.0, 0.0]])
        >>> neg = torch.tensor([[0.0, 1.5]])
        >>> cos = lambda x, y: 1 - F.cosine_similarity(x + 1, y + 1)
        >>> F.triplet_margin_with_distance_loss(a, pos, neg, distance_function=cos)
        tensor(0.9705)
    """
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
    """has_torch_function(relevant_args) -> bool

    Whether any of relevant_args overrides torch functions with
    __torch_function__ (tensor subclasses and tensor-like objects do).
    nndb's own functions call it where PyTorch's do.
    """
    return False


def has_torch_function_unary(input):
    """has_torch_function_unary(input) -> bool

    has_torch_function((input,)), for one argument.
    """
    return False


def has_torch_function_variadic(*args):
    """has_torch_function_variadic(*args) -> bool

    has_torch_function(args), for arguments passed separately.
    """
    return False


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """handle_torch_function(public_api, relevant_args, *args, **kwargs) -> Any

    Call the __torch_function__ of the arguments in relevant_args that define
    one, for public_api(*args, **kwargs), and return what it returns (the
    dispatch step of __torch_function__ overrides).
    """
    raise TypeError("no implementation found for '{}' on types that implement "
                    "__torch_function__: nndb's torch does not dispatch __torch_function__"
                    .format(getattr(public_api, "__qualname__", public_api)))


def boolean_dispatch(arg_name, arg_index, default, if_true, if_false, module_name, func_name):
    """boolean_dispatch(arg_name, arg_index, default, if_true, if_false, module_name, func_name) -> Callable

    One function that calls if_true or if_false by the boolean argument
    arg_name (position arg_index, default when absent), as
    torch._jit_internal.boolean_dispatch does (max_pool2d's return_indices).
    """
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
    """assert_int_or_pair(arg, arg_name, message) -> None

    Check that arg is an int or a pair (a tuple or list of two); otherwise
    raise AssertionError with message formatted with arg_name.
    """
    assert isinstance(arg, int) or len(arg) == 2, message.format(arg_name)


# ---- image ops: convolution, pooling, interpolation, ... ----
from torch.nn import _functional_image  # noqa: E402
from torch.nn._functional_image import *  # noqa: E402,F401,F403


GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def conv_tbc(input, weight, bias, pad=0):
    """conv_tbc(input, weight, bias, pad=0) -> Tensor

    A 1-D convolution over input laid out as (time, batch, channels), with
    weight (kernel width, in channels, out channels) and bias (out
    channels,); pad zeros are added at both ends of time. The result is
    (time', batch, out channels): conv1d on the permuted tensors.

    Example::

        >>> x = torch.tensor([[[1.0]], [[2.0]], [[3.0]]])
        >>> F.conv_tbc(x, torch.ones(2, 1, 1), torch.zeros(1)).flatten()
        tensor([3., 5.])
    """
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

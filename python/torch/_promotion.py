"""torch's dtype rules as functions: promote_types, result_type, can_cast,
is_floating_point and friends. The promotion itself is the engine's (the
dtype an addition of small probes takes), so there is one rule."""

import builtins

from torch import _C


def _need_dtype(fname, name, pos, v):
    if not isinstance(v, _C.dtype):
        raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be torch.dtype, "
                        f"not {type(v).__name__}")


def _need_tensor(fname, v):
    if not isinstance(v, _C._TensorBase):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(v).__name__}")


def promote_types(type1, type2):
    """promote_types(type1, type2) -> dtype

    The smallest dtype that both dtypes promote to in arithmetic between two
    tensors of those dtypes (the rules for Python numbers differ: see
    result_type).

    Example::

        >>> torch.promote_types(torch.int32, torch.float32)
        torch.float32
        >>> torch.promote_types(torch.uint8, torch.int8)
        torch.int16
    """
    _need_dtype("promote_types", "type1", 1, type1)
    _need_dtype("promote_types", "type2", 2, type2)
    return (_C.zeros(1, dtype=type1) + _C.zeros(1, dtype=type2)).dtype


def _probe(x):
    """A stand-in with x's place in promotion: a tensor of the same dtype and
    the same class (0-dim or not), or the Python number itself."""
    if isinstance(x, _C._TensorBase):
        return _C.zeros(() if x.dim() == 0 else 1, dtype=x.dtype)
    if isinstance(x, (builtins.bool, builtins.int, builtins.float)):
        return x
    raise TypeError("result_type(): argument 'tensor' must be Tensor or Number, "
                    f"not {type(x).__name__}")


def result_type(tensor, other):
    """result_type(tensor, other) -> dtype

    The dtype that an arithmetic operation on tensor and other (tensors or
    Python numbers) gives: a Python float with an int tensor gives the default
    float dtype, an int with a float tensor keeps its dtype, and so on.

    Example::

        >>> torch.result_type(torch.tensor([1, 2]), 1.0)
        torch.float32
        >>> torch.result_type(torch.tensor([1.0], dtype=torch.float16), 2)
        torch.float16
    """
    a, b = _probe(tensor), _probe(other)
    if not isinstance(a, _C._TensorBase) and not isinstance(b, _C._TensorBase):
        a = _C.tensor(a)
        if isinstance(b, builtins.float) and not a.is_floating_point():
            return _C.get_default_dtype()
    return (a + b).dtype


def can_cast(from_, to):
    """can_cast(from_, to) -> bool

    Whether torch's casting rules allow results of dtype from_ to be written
    into a tensor of dtype to (out= arguments and in-place operations): not
    floating point into integers, nothing but bool into bool.

    Example::

        >>> torch.can_cast(torch.int64, torch.float32), torch.can_cast(torch.float32, torch.int64)
        (True, False)
    """
    _need_dtype("can_cast", "from", 1, from_)
    _need_dtype("can_cast", "to", 2, to)
    if from_.is_floating_point and not to.is_floating_point:
        return False
    if from_ != _C.bool and to == _C.bool:
        return False
    return True


def is_floating_point(input):
    _need_tensor("is_floating_point", input)
    return input.is_floating_point()


def is_complex(input):
    _need_tensor("is_complex", input)
    return False


def is_nonzero(input):
    _need_tensor("is_nonzero", input)
    return input.is_nonzero()


def is_same_size(input, other):
    return input.is_same_size(other)


def is_storage(obj):
    from torch.storage import TypedStorage
    return isinstance(obj, TypedStorage)


def typename(o):
    if isinstance(o, _C._TensorBase):
        return o.type()
    module = type(o).__module__
    name = type(o).__qualname__
    return name if module in ("builtins", None) else f"{module}.{name}"


def broadcast_shapes(*shapes):
    """broadcast_shapes(*shapes) -> Size

    The shape that tensors of these shapes broadcast to together, without
    making any tensor; RuntimeError when they do not broadcast.

    Example::

        >>> torch.broadcast_shapes((2, 1), (1, 3), (3,))
        torch.Size([2, 3])
    """
    ndim = builtins.max((len(s) if not isinstance(s, builtins.int) else 1 for s in shapes),
                        default=0)
    out = [1] * ndim
    for s in shapes:
        s = (s,) if isinstance(s, builtins.int) else tuple(s)
        for i, n in enumerate(s):
            j = ndim - len(s) + i
            if n == out[j] or n == 1:
                continue
            if out[j] != 1:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single "
                                   "shape")
            out[j] = n
    return _C.Size(out)


_deterministic = False


def use_deterministic_algorithms(mode, *, warn_only=False):
    """use_deterministic_algorithms(mode, *, warn_only=False) -> None

    Ask for deterministic algorithms only (same results on every run): in
    PyTorch, operations without a deterministic implementation then raise (or
    warn, with warn_only=True). nndb records the setting; its CPU kernels are
    deterministic already.
    """
    global _deterministic
    _deterministic = builtins.bool(mode)


def are_deterministic_algorithms_enabled():
    return _deterministic


def is_deterministic_algorithms_warn_only_enabled():
    return False


def set_flush_denormal(mode):
    """Whether float arithmetic in this thread flushes subnormal results and
    inputs to zero (the processor's FTZ and DAZ modes); True where the
    processor has them, as PyTorch's on x86."""
    return _C._set_flush_denormal(bool(mode))


def is_inference_mode_enabled():
    from torch.autograd import grad_mode
    return grad_mode._inference_depth > 0

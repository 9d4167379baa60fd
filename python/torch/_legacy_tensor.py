"""torch.FloatTensor, torch.LongTensor, ...: PyTorch's legacy tensor types,
still common in older course code. Calling one makes a tensor of its dtype
(from data, or zeros of a shape); isinstance checks the dtype; x.type(T)
converts."""

from torch import _C


class _LegacyTensorMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, _C._TensorBase) and obj.dtype == cls.dtype

    def __call__(cls, *args, **kwargs):
        dtype = cls.dtype
        if not args:
            return _C.empty(0, dtype=dtype)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args) or \
                (len(args) == 1 and isinstance(args[0], _C.Size)):
            # torch leaves the memory uninitialized; zeros are a valid reading
            return _C.zeros(*args, dtype=dtype)
        if len(args) == 1:
            if isinstance(args[0], _C._TensorBase):
                return args[0].to(dtype)
            return _C.tensor(args[0], dtype=dtype)
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)})")


def _make(name, dtype):
    cls = _LegacyTensorMeta(name, (), {"dtype": dtype, "is_cuda": False, "is_sparse": False,
                                       "__module__": "torch"})
    return cls


FloatTensor = _make("FloatTensor", _C.float32)
DoubleTensor = _make("DoubleTensor", _C.float64)
HalfTensor = _make("HalfTensor", _C.float16)
BFloat16Tensor = _make("BFloat16Tensor", _C.bfloat16)
LongTensor = _make("LongTensor", _C.int64)
IntTensor = _make("IntTensor", _C.int32)
ShortTensor = _make("ShortTensor", _C.int16)
CharTensor = _make("CharTensor", _C.int8)
ByteTensor = _make("ByteTensor", _C.uint8)
BoolTensor = _make("BoolTensor", _C.bool)

__all__ = ["FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "LongTensor",
           "IntTensor", "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor"]

"""A tensor's storage as PyTorch 1.13 shows it (Tensor.storage() gives a
torch.TypedStorage), and the legacy typed storage classes
(torch.FloatStorage, ...).

nndb keeps a tensor's memory in the engine; a TypedStorage here is a
window on it: a flat 1-D tensor over the whole of the memory the tensor
views, from element 0, so that reading or writing `x.storage()[i]`
reads or writes the tensor, and `data_ptr()` says where the memory is
(the idiom that shows two views share it). The legacy classes name a
dtype for checkpoints (torch.save writes and torch.load reads the
persistent ids PyTorch's files hold, e.g. ('storage', torch.FloatStorage,
'0', 'cpu', 6)); called, they make a new storage, as PyTorch's do.
"""

import torch
from torch import _C

__all__ = ['TypedStorage', 'DoubleStorage', 'FloatStorage', 'HalfStorage', 'BFloat16Storage',
           'LongStorage', 'IntStorage', 'ShortStorage', 'CharStorage', 'ByteStorage',
           'BoolStorage', 'ComplexFloatStorage', 'ComplexDoubleStorage']


class TypedStorage(object):
    """TypedStorage: the flat memory under one or more tensors, of one dtype.

    A tensor's storage() is every element of its memory, in order, whatever
    the tensor's shape, strides and offset: views of one tensor share one.

    >>> x = torch.arange(4.)
    >>> x[2:].storage().data_ptr() == x.storage().data_ptr()
    True
    >>> x[2:].storage().tolist()
    [0.0, 1.0, 2.0, 3.0]
    """
    is_sparse = False

    def __init__(self, *args, dtype=None, device=None, wrap_storage=None):
        if wrap_storage is not None:
            self._flat = wrap_storage
            return
        dtype = torch.get_default_dtype() if dtype is None else dtype
        if device is not None and torch.device(device).type != 'cpu':
            raise RuntimeError(f"nndb keeps storages on the CPU only, not on {device}")
        if len(args) == 0:
            self._flat = torch.empty(0, dtype=dtype)
        elif len(args) == 1 and isinstance(args[0], int):
            self._flat = torch.empty(args[0], dtype=dtype)
        elif len(args) == 1:
            self._flat = torch.tensor(list(args[0]), dtype=dtype).reshape(-1)
        else:
            raise TypeError("TypedStorage(): expected no argument, a size or a sequence, "
                            f"got {len(args)} arguments")

    @classmethod
    def _of(cls, tensor):
        _, numel = _C._storage_info(tensor)
        return cls(wrap_storage=_C._view_of_storage(tensor.detach(), 0, (numel,), (1,)))

    @property
    def dtype(self):
        return self._flat.dtype

    @property
    def device(self):
        return self._flat.device

    @property
    def is_cuda(self):
        return False

    def size(self):
        return self._flat.numel()

    def __len__(self):
        return self._flat.numel()

    def element_size(self):
        return self._flat.element_size()

    def nbytes(self):
        return self._flat.numel() * self._flat.element_size()

    def data_ptr(self):
        return self._flat.data_ptr()

    def get_device(self):
        return -1

    def is_shared(self):
        return False

    def is_pinned(self):
        return False

    def share_memory_(self):
        return self

    def pin_memory(self):
        return self

    def cpu(self):
        return self

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return 'torch.' + _BY_DTYPE[self.dtype].__name__
        cls = dtype if isinstance(dtype, type) else None
        if cls is None:
            name = dtype.rsplit('.', 1)[-1]
            cls = next((c for c in _BY_DTYPE.values() if c.__name__ == name), None)
            if cls is None:
                raise RuntimeError(f"invalid type: '{dtype}'")
        return self._to(cls.dtype)

    def _to(self, dtype):
        if dtype == self.dtype:
            return self
        return TypedStorage(wrap_storage=self._flat.to(dtype))

    def double(self):
        return self._to(torch.float64)

    def float(self):
        return self._to(torch.float32)

    def half(self):
        return self._to(torch.float16)

    def bfloat16(self):
        return self._to(torch.bfloat16)

    def long(self):
        return self._to(torch.int64)

    def int(self):
        return self._to(torch.int32)

    def short(self):
        return self._to(torch.int16)

    def char(self):
        return self._to(torch.int8)

    def byte(self):
        return self._to(torch.uint8)

    def bool(self):
        return self._to(torch.bool)

    def complex_float(self):
        return self._to(torch.complex64)

    def complex_double(self):
        return self._to(torch.complex128)

    def _index(self, idx):
        n = len(self)
        if not isinstance(idx, int):
            raise RuntimeError(f"can't index a {type(self)} with {type(idx)}")
        if idx < -n or idx >= n:
            raise IndexError(f"index {idx} out of range for storage of size {n}")
        return idx + n if idx < 0 else idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            raise RuntimeError('slices are only supported in UntypedStorage.__getitem__')
        return self._flat[self._index(idx)].item()

    def __setitem__(self, idx, value):
        if isinstance(idx, slice):
            self._flat[idx] = value
        else:
            self._flat[self._index(idx)] = value

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        return self._flat.tolist()

    def fill_(self, value):
        self._flat.fill_(value)
        return self

    def copy_(self, source, non_blocking=None):
        src = source._flat if isinstance(source, TypedStorage) else source
        if src.numel() != self._flat.numel():
            raise RuntimeError(f"size mismatch, {self._flat.numel()} and {src.numel()} elements")
        self._flat.copy_(src.reshape(-1))
        return self

    def clone(self):
        return TypedStorage(wrap_storage=self._flat.clone())

    def resize_(self, size):
        raise RuntimeError("nndb cannot resize a tensor's storage in place; make a new tensor "
                           "of the size you need")

    def __str__(self):
        info = f"[{torch.typename(self)}(dtype={self.dtype}, device={self.device}) " \
               f"of size {len(self)}]"
        return ' ' + '\n '.join(str(v) for v in self.tolist()) + '\n' + info

    __repr__ = __str__

    def __sizeof__(self):
        return super().__sizeof__() + self.nbytes()

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_rebuild_storage, (self.tolist(), self.dtype))


TypedStorage.__module__ = 'torch.storage'


def _rebuild_storage(values, dtype):
    return TypedStorage(values, dtype=dtype)


class _LegacyStorageMeta(type):
    # isinstance(x.storage(), torch.FloatStorage) holds for any storage of
    # float32, as in PyTorch
    def __instancecheck__(cls, instance):
        if type(instance) is TypedStorage:
            return cls.dtype is not None and instance.dtype == cls.dtype
        return type.__instancecheck__(cls, instance)


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """A storage type: its dtype and its name in the torch module; called,
    a new storage of that dtype (of a size, or holding a sequence)."""
    dtype = None

    def __new__(cls, *args, **kwargs):
        if cls is _LegacyStorage:
            raise RuntimeError("Only child classes of _LegacyStorage can be instantiated")
        return TypedStorage(*args, dtype=cls.dtype)


_BY_DTYPE = {}


def _storage_class(name, dtype):
    # Pickles name them torch.FloatStorage, ... (torch/__init__.py exports them).
    cls = type(name, (_LegacyStorage,), {'dtype': dtype, '__module__': 'torch'})
    _BY_DTYPE[dtype] = cls
    return cls


DoubleStorage = _storage_class('DoubleStorage', torch.float64)
FloatStorage = _storage_class('FloatStorage', torch.float32)
HalfStorage = _storage_class('HalfStorage', torch.float16)
BFloat16Storage = _storage_class('BFloat16Storage', torch.bfloat16)
LongStorage = _storage_class('LongStorage', torch.int64)
IntStorage = _storage_class('IntStorage', torch.int32)
ShortStorage = _storage_class('ShortStorage', torch.int16)
CharStorage = _storage_class('CharStorage', torch.int8)
ByteStorage = _storage_class('ByteStorage', torch.uint8)
BoolStorage = _storage_class('BoolStorage', torch.bool)
ComplexFloatStorage = _storage_class('ComplexFloatStorage', torch.complex64)
ComplexDoubleStorage = _storage_class('ComplexDoubleStorage', torch.complex128)


def _storage_type_for(dtype):
    """The storage class PyTorch names for tensors of [dtype]."""
    try:
        return _BY_DTYPE[dtype]
    except KeyError:
        raise RuntimeError("torch.save: tensors of dtype {} cannot be saved".format(dtype))

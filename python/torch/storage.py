"""torch's legacy typed storage classes (torch.FloatStorage, ...), as the
names checkpoints use for their storages.

nndb keeps a tensor's memory in the engine and has no storage objects of
its own; these classes only name a dtype, so that torch.save writes and
torch.load reads the persistent ids PyTorch's files hold, e.g.
('storage', torch.FloatStorage, '0', 'cpu', 6).
"""

import torch

__all__ = ['DoubleStorage', 'FloatStorage', 'HalfStorage', 'BFloat16Storage', 'LongStorage',
           'IntStorage', 'ShortStorage', 'CharStorage', 'ByteStorage', 'BoolStorage']


class _LegacyStorage(object):
    """A storage type: its dtype and its name in the torch module."""
    dtype = None

    def __init__(self, *args, **kwargs):
        raise RuntimeError("nndb has no storage objects: {} only names a dtype in "
                           "checkpoints; use a tensor".format(type(self).__name__))


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


def _storage_type_for(dtype):
    """The storage class PyTorch names for tensors of [dtype]."""
    try:
        return _BY_DTYPE[dtype]
    except KeyError:
        raise RuntimeError("torch.save: tensors of dtype {} cannot be saved".format(dtype))

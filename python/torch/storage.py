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


class DoubleStorage(_LegacyStorage):
    dtype = torch.float64


class FloatStorage(_LegacyStorage):
    dtype = torch.float32


class HalfStorage(_LegacyStorage):
    dtype = torch.float16


class BFloat16Storage(_LegacyStorage):
    dtype = torch.bfloat16


class LongStorage(_LegacyStorage):
    dtype = torch.int64


class IntStorage(_LegacyStorage):
    dtype = torch.int32


class ShortStorage(_LegacyStorage):
    dtype = torch.int16


class CharStorage(_LegacyStorage):
    dtype = torch.int8


class ByteStorage(_LegacyStorage):
    dtype = torch.uint8


class BoolStorage(_LegacyStorage):
    dtype = torch.bool


# Pickles name them torch.FloatStorage, ... (torch/__init__.py exports them).
for _cls in (DoubleStorage, FloatStorage, HalfStorage, BFloat16Storage, LongStorage, IntStorage,
             ShortStorage, CharStorage, ByteStorage, BoolStorage):
    _cls.__module__ = 'torch'
del _cls

_BY_DTYPE = {cls.dtype: cls for cls in (DoubleStorage, FloatStorage, HalfStorage,
                                         BFloat16Storage, LongStorage, IntStorage, ShortStorage,
                                         CharStorage, ByteStorage, BoolStorage)}


def _storage_type_for(dtype):
    """The storage class PyTorch names for tensors of [dtype]."""
    try:
        return _BY_DTYPE[dtype]
    except KeyError:
        raise RuntimeError("torch.save: tensors of dtype {} cannot be saved".format(dtype))

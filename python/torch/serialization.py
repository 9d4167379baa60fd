"""torch.save and torch.load in PyTorch's own file format, so that a
checkpoint written here loads in PyTorch and one PyTorch wrote loads here.

The format (PyTorch >= 1.6, `_use_new_zipfile_serialization`): an
uncompressed zip whose entries sit under one folder (the file's name
without its extension, or "archive"):
  <folder>/data.pkl   the object, pickled (protocol 2) with each storage
                      replaced by the persistent id
                      ('storage', torch.FloatStorage, '<key>', 'cpu', numel)
                      and each tensor by a call of
                      torch._utils._rebuild_tensor_v2(storage, offset, size,
                      stride, requires_grad, OrderedDict())
  <folder>/data/<key> each storage's bytes, little-endian, each starting at
                      a multiple of 64 bytes in the file
  <folder>/version    "3\\n"
torch.load also reads PyTorch's older (pre-1.6) pickle-stream format.

What is saved is what pickle can save: tensors, parameters, dicts (also
OrderedDicts with attributes, as state_dicts), lists, tuples, numbers,
strings, dtypes, and any picklable Python object. A damaged or forged file
raises an error that says so (RuntimeError, pickle.UnpicklingError,
EOFError); it never reads outside a storage.
"""

import io
import os
import pickle
import struct
import zipfile
from collections import OrderedDict

import torch
from torch import _C
from torch import _utils
from torch.storage import _LegacyStorage, _storage_type_for

__all__ = ['save', 'load']

DEFAULT_PROTOCOL = 2
_ALIGNMENT = 64
_LEGACY_MAGIC = 0x1950a86a20f9469cfc6c
_LEGACY_PROTOCOL = 1001


# ---- save ----

class _StorageRef(object):
    """Stands for one storage inside the pickle (see persistent_id)."""

    def __init__(self, key, storage_type, numel):
        self.key = key
        self.storage_type = storage_type
        self.numel = numel


def _save_dtype(pickler, obj):
    # torch.float32 is the global torch.float32, as PyTorch pickles it (the
    # lookup pickle makes by itself finds it in torch._C first).
    name = str(obj).split('.', 1)[1]
    pickler.write(pickle.GLOBAL + b'torch\n' + name.encode('ascii') + b'\n')
    pickler.memoize(obj)


class _Pickler(pickle._Pickler):
    """Pickles tensors as PyTorch does: each storage once, by key. (The
    Python implementation of the pickler, whose dispatch table can name
    dtypes as PyTorch does; storages stay out of the pickle, so it stays
    small.)"""

    dispatch = dict(pickle._Pickler.dispatch)
    dispatch[torch.dtype] = _save_dtype

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}  # engine storage id -> (_StorageRef, tensor holding it)

    def _storage_ref(self, t):
        sid, numel = _C._storage_info(t)
        entry = self.storages.get(sid)
        if entry is None:
            ref = _StorageRef(str(len(self.storages)), _storage_type_for(t.dtype), numel)
            entry = self.storages[sid] = (ref, t)
        elif entry[0].storage_type.dtype != t.dtype:
            raise RuntimeError("torch.save: two tensors view one storage as different "
                               "dtypes ({} and {}); save copies of them".format(
                                   entry[0].storage_type.dtype, t.dtype))
        return entry[0]

    def persistent_id(self, obj):
        if isinstance(obj, _StorageRef):
            return ('storage', obj.storage_type, obj.key, 'cpu', obj.numel)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, torch.Tensor):
            param_cls = _parameter_class()
            if param_cls is not None and isinstance(obj, param_cls):
                return (_utils._rebuild_parameter,
                        (obj.detach(), obj.requires_grad, OrderedDict()))
            return (_utils._rebuild_tensor_v2,
                    (self._storage_ref(obj), obj.storage_offset(), tuple(obj.shape),
                     tuple(obj.stride()), obj.requires_grad, OrderedDict()))
        return NotImplemented


def _parameter_class():
    try:
        from torch.nn.parameter import Parameter
    except ImportError:
        return None
    return Parameter


def _archive_name(f):
    if isinstance(f, (str, os.PathLike)):
        base = os.path.basename(os.fspath(f))
        name = os.path.splitext(base)[0]
        return name or 'archive'
    return 'archive'


def _padded_info(zf, name):
    """A ZipInfo for record [name] whose data will start at a multiple of
    64 bytes, padded with an 'FB' extra field as PyTorch's writer does."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    header = zf.fp.tell() + 30 + len(name.encode('utf-8'))
    pad = (-(header + 4)) % _ALIGNMENT
    info.extra = b'FB' + struct.pack('<H', pad) + b'Z' * pad
    return info


def _write_zip(f, archive, pickled, pickler):
    zf = zipfile.ZipFile(f, 'w', compression=zipfile.ZIP_STORED)
    try:
        zf.writestr(_padded_info(zf, archive + '/data.pkl'), pickled)
        # PyTorch writes the records in the order of their keys as strings.
        refs = {ref.key: t for ref, t in pickler.storages.values()}
        for key in sorted(refs):
            name = '{}/data/{}'.format(archive, key)
            zf.writestr(_padded_info(zf, name), _C._storage_bytes(refs[key]))
        zf.writestr(_padded_info(zf, archive + '/version'), b'3\n')
    finally:
        zf.close()


def _open_for_write(name):
    """open(name, 'wb') with the errors of PyTorch's zip writer: a parent
    directory that does not exist is named, any other failure is 'cannot be
    opened', both RuntimeErrors."""
    try:
        return open(name, 'wb')
    except OSError:
        parent = name[:name.rfind('/')] if '/' in name else ''
        if parent and not os.path.isdir(parent):
            raise RuntimeError("Parent directory {} does not exist.".format(parent)) from None
        raise RuntimeError("File {} cannot be opened.".format(name)) from None


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True):
    """save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True) -> None

    Save obj (a tensor, a model's state_dict(), an optimizer's, or any
    picklable object holding tensors) to f, a path or a writable binary file,
    in PyTorch's zip format: PyTorch reads nndb's files and the other way
    round. Save model.state_dict() rather than the model, and load it into a
    new model with load_state_dict.
    """
    if pickle_module is not pickle:
        raise RuntimeError("torch.save: nndb pickles with the standard pickle module only")
    if not _use_new_zipfile_serialization:
        raise RuntimeError("torch.save: nndb writes the zip format only "
                           "(_use_new_zipfile_serialization=True)")
    buf = io.BytesIO()
    pickler = _Pickler(buf, pickle_protocol)
    pickler.dump(obj)
    archive = _archive_name(f)
    if isinstance(f, (str, os.PathLike)):
        with _open_for_write(os.fspath(f)) as out:
            _write_zip(out, archive, buf.getvalue(), pickler)
    else:
        if not hasattr(f, 'write'):
            raise AttributeError("expected 'f' to be string, path, or a file-like object with "
                                 "a 'write' attribute")
        _write_zip(f, archive, buf.getvalue(), pickler)


# ---- load ----

# What weights_only=True lets a pickle name: the rebuild functions, the
# storage classes and plain containers, nothing that runs code.
_WEIGHTS_ONLY_GLOBALS = {
    ('torch._utils', '_rebuild_tensor_v2'), ('torch._utils', '_rebuild_tensor'),
    ('torch._utils', '_rebuild_parameter'), ('torch._utils', '_rebuild_parameter_with_state'),
    ('collections', 'OrderedDict'), ('torch', 'Size'),
    ('torch.nn.parameter', 'Parameter'),
}


def _damaged(msg):
    return RuntimeError(msg + "; the file is damaged or is not a PyTorch checkpoint")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, read_storage, weights_only, **kwargs):
        super().__init__(file, **kwargs)
        self.read_storage = read_storage
        self.weights_only = weights_only
        self.storages = {}

    def find_class(self, module, name):
        if module == 'torch' and name.endswith('Storage'):
            cls = getattr(torch, name, None)
            if isinstance(cls, type) and issubclass(cls, _LegacyStorage):
                return cls
            if name == 'UntypedStorage':
                return torch.ByteStorage
            raise pickle.UnpicklingError("unknown storage type torch.{}".format(name))
        if module == 'torch._utils' and hasattr(_utils, name) and name.startswith('_rebuild'):
            return getattr(_utils, name)
        if self.weights_only:
            dtype = getattr(torch, name, None) if module == 'torch' else None
            if (module, name) not in _WEIGHTS_ONLY_GLOBALS and not isinstance(dtype, torch.dtype):
                raise pickle.UnpicklingError(
                    "Weights only load failed: unsupported global {}.{} (load with "
                    "weights_only=False only if you trust the file)".format(module, name))
        return super().find_class(module, name)

    def persistent_load(self, pid):
        if not isinstance(pid, tuple) or len(pid) < 5 or pid[0] != 'storage':
            raise pickle.UnpicklingError("unsupported persistent id {!r}".format(pid)[:200])
        storage_type, key, numel = pid[1], pid[2], pid[4]
        if not (isinstance(storage_type, type) and issubclass(storage_type, _LegacyStorage)):
            raise pickle.UnpicklingError("persistent id names {!r}, not a storage type".format(
                storage_type)[:200])
        key = str(key)
        cached = self.storages.get(key)
        if cached is None:
            cached = self.storages[key] = self.read_storage(key, storage_type.dtype, numel)
        if len(pid) > 5 and pid[5] is not None:  # the legacy format's storage views
            offset, size = pid[5][1], pid[5][2]
            return _C._view_of_storage(cached, offset, (size,), (1,))
        return cached


def _storage_tensor(data, dtype, numel, what):
    if not isinstance(numel, int) or numel < 0:
        raise _damaged("{} has a bad element count {!r}".format(what, numel))
    t = _C._tensor_from_bytes(data, dtype)
    if t.numel() != numel:
        raise _damaged("{} holds {} elements of {}, the pickle says {}".format(
            what, t.numel(), dtype, numel))
    return t


def _load_zip(zf, weights_only, pickle_load_args):
    names = zf.namelist()
    if not names or '/' not in names[0]:
        raise _damaged("PytorchStreamReader failed locating the archive folder")
    archive = names[0].split('/', 1)[0]
    present = set(names)

    def record(name):
        full = archive + '/' + name
        if full not in present:
            raise _damaged("PytorchStreamReader failed locating file {}: file not found".format(
                name))
        try:
            return zf.read(full)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
            raise _damaged("PytorchStreamReader failed reading file {}: {}".format(name, e))

    def read_storage(key, dtype, numel):
        return _storage_tensor(record('data/' + key), dtype, numel,
                               "storage data/{}".format(key))

    data = record('data.pkl')
    unpickler = _Unpickler(io.BytesIO(data), read_storage, weights_only, **pickle_load_args)
    return unpickler.load()


def _load_legacy(f, weights_only, pickle_load_args):
    """PyTorch's pre-1.6 format: magic number, protocol, system info and
    the object as consecutive pickles, then the storage keys, then each
    storage as an 8-byte element count and its bytes."""
    def small_pickle():
        return pickle.Unpickler(f, **pickle_load_args).load()

    try:
        magic = small_pickle()
    except Exception as e:
        raise pickle.UnpicklingError("not a PyTorch checkpoint ({}: {})".format(
            type(e).__name__, e)) from None
    if magic != _LEGACY_MAGIC:
        raise RuntimeError("Invalid magic number; corrupt file?")
    if small_pickle() != _LEGACY_PROTOCOL:
        raise RuntimeError("Invalid protocol version; corrupt file?")
    sys_info = small_pickle()
    if isinstance(sys_info, dict) and not sys_info.get('little_endian', True):
        raise RuntimeError("the checkpoint was written big-endian; nndb reads little-endian "
                           "files only")
    wanted = {}

    def read_storage(key, dtype, numel):
        t = torch.zeros(numel, dtype=dtype)  # filled in once the storages are read
        wanted[key] = t
        return t

    unpickler = _Unpickler(f, read_storage, weights_only, **pickle_load_args)
    result = unpickler.load()
    keys = small_pickle()
    for key in keys:
        head = f.read(8)
        if len(head) != 8:
            raise _damaged("the file ends before storage {}".format(key))
        (numel,) = struct.unpack('<q', head)
        t = wanted.get(str(key))
        if t is None:
            raise _damaged("storage {} is not used by the pickle".format(key))
        nbytes = numel * t.element_size()
        if numel != t.numel():
            raise _damaged("storage {} holds {} elements, the pickle says {}".format(
                key, numel, t.numel()))
        data = f.read(nbytes)
        if len(data) != nbytes:
            raise _damaged("the file ends inside storage {}".format(key))
        t.copy_(_C._tensor_from_bytes(data, t.dtype))
    return result


def load(f, map_location=None, pickle_module=pickle, *, weights_only=False,
         **pickle_load_args):
    """load(f, map_location=None, pickle_module=pickle, *, weights_only=False, **pickle_load_args) -> Any

    Load an object saved with torch.save (by nndb or PyTorch) from f, a path or
    a readable binary file: a tensor, a state_dict, a whole model, ... Every
    tensor comes back on the CPU (nndb's only device), whatever map_location
    says. Only load files you trust: they are unpickled.

    Example::

        >>> import io
        >>> buf = io.BytesIO()
        >>> torch.save({'w': torch.tensor([1.0, 2.0])}, buf)
        >>> _ = buf.seek(0)
        >>> torch.load(buf)
        {'w': tensor([1., 2.])}
    """
    if pickle_module is not pickle:
        raise RuntimeError("torch.load: nndb unpickles with the standard pickle module only")
    pickle_load_args.setdefault('encoding', 'utf-8')
    if isinstance(f, (str, os.PathLike)):
        with open(f, 'rb') as fh:
            return _load_file(fh, weights_only, pickle_load_args)
    return _load_file(f, weights_only, pickle_load_args)


def _load_file(fh, weights_only, pickle_load_args):
    start = fh.tell() if fh.seekable() else None
    if start is not None and zipfile.is_zipfile(fh):
        fh.seek(start)
        try:
            zf = zipfile.ZipFile(fh)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
            raise _damaged("the zip directory cannot be read ({})".format(e)) from None
        with zf:
            return _load_zip(zf, weights_only, pickle_load_args)
    if start is not None:
        fh.seek(start)
        head = fh.read(4)
        fh.seek(start)
        if head[:2] == b'PK':
            raise _damaged("the zip archive is cut short or its directory is broken")
    return _load_legacy(fh, weights_only, pickle_load_args)

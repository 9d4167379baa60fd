"""default_collate and default_convert: how a DataLoader turns a list of
samples into a batch, as PyTorch 1.13 does it."""

import collections
import re

import torch

np_str_obj_array_pattern = re.compile(r'[SaUO]')

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, "
    "dicts or lists; found {}")


def _is_numpy(elem):
    return type(elem).__module__ == 'numpy'


def default_convert(data):
    """default_convert(data) -> Any

    Turn the NumPy arrays and numbers inside data into tensors, without
    batching (the collate_fn of a DataLoader with batch_size=None).
    """
    elem_type = type(data)
    if isinstance(data, torch.Tensor):
        return data
    if _is_numpy(data) and elem_type.__name__ != 'str_' and elem_type.__name__ != 'string_':
        if elem_type.__name__ == 'ndarray' and np_str_obj_array_pattern.search(data.dtype.str):
            return data
        return torch.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, '_fields'):  # namedtuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def default_collate(batch):
    """default_collate(batch) -> Any

    How a DataLoader joins a list of samples into a batch: tensors (and NumPy
    arrays) are stacked along a new first dimension (so they must have the
    same shape: pad or write your own collate_fn otherwise), Python numbers
    become a tensor (float64 for floats, int64 for ints), strings stay a list,
    and dicts and tuples are collated field by field (a list of (x, y) pairs
    becomes [xs, ys]).

    Example::

        >>> batch = [(torch.tensor([1.0, 2.0]), 0), (torch.tensor([3.0, 4.0]), 1)]
        >>> torch.utils.data.default_collate(batch)
        [tensor([[1., 2.],
                [3., 4.]]), tensor([0, 1])]
    """
    # Stack tensors (and numpy arrays) along a new first dim, make numbers a tensor (float64
    # for floats, int64 for ints), keep strings as a list, and collate dicts by key and
    # sequences position by position (tuples become lists, as in torch).
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, torch.Tensor):
        return torch.stack(batch, 0)
    if _is_numpy(elem) and elem_type.__name__ != 'str_' and elem_type.__name__ != 'string_':
        if elem_type.__name__ in ('ndarray', 'memmap'):
            if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
                raise TypeError(default_collate_err_msg_format.format(elem.dtype))
            return default_collate([torch.as_tensor(b) for b in batch])
        if elem.shape == ():  # numpy scalars
            return torch.as_tensor(batch)
    elif isinstance(elem, bool):
        return torch.tensor(batch)
    elif isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    elif isinstance(elem, int):
        return torch.tensor(batch)
    elif isinstance(elem, (str, bytes)):
        return batch
    elif isinstance(elem, collections.abc.Mapping):
        try:
            return elem_type({key: default_collate([d[key] for d in batch]) for key in elem})
        except TypeError:
            return {key: default_collate([d[key] for d in batch]) for key in elem}
    elif isinstance(elem, tuple) and hasattr(elem, '_fields'):  # namedtuple
        return elem_type(*(default_collate(samples) for samples in zip(*batch)))
    elif isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError('each element in list of batch should be of equal size')
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [default_collate(samples) for samples in transposed]
        try:
            return elem_type([default_collate(samples) for samples in transposed])
        except TypeError:
            return [default_collate(samples) for samples in transposed]
    raise TypeError(default_collate_err_msg_format.format(elem_type))

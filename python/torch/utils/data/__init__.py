"""torch.utils.data: datasets, samplers and the DataLoader, as PyTorch
1.13 has them (in one process; see dataloader.py)."""

from torch.utils.data.sampler import (  # noqa: F401
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
    WeightedRandomSampler)
from torch.utils.data.dataset import (  # noqa: F401
    ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset,
    random_split)
from torch.utils.data.dataloader import (  # noqa: F401
    DataLoader, _DatasetKind, get_worker_info, default_collate, default_convert)
from torch.utils.data.distributed import DistributedSampler  # noqa: F401

# DataPipes load on first use, so `import torch` does not pay for them.
_LAZY = {
    'IterDataPipe': 'torch.utils.data.datapipes.datapipe',
    'MapDataPipe': 'torch.utils.data.datapipes.datapipe',
    'DFIterDataPipe': 'torch.utils.data.datapipes.datapipe',
    'DataChunk': 'torch.utils.data.datapipes.datapipe',
    'functional_datapipe': 'torch.utils.data.datapipes._decorator',
    'guaranteed_datapipes_determinism': 'torch.utils.data.datapipes._decorator',
    'non_deterministic': 'torch.utils.data.datapipes._decorator',
    'argument_validation': 'torch.utils.data.datapipes._decorator',
    'runtime_validation': 'torch.utils.data.datapipes._decorator',
    'runtime_validation_disabled': 'torch.utils.data.datapipes._decorator',
    'DataLoader2': 'torch.utils.data.dataloader_experimental',
}
_SUBMODULES = ('datapipes', 'graph', 'graph_settings', 'dataloader_experimental')


def __getattr__(name):
    import importlib
    if name in _SUBMODULES:
        return importlib.import_module('torch.utils.data.' + name)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'torch.utils.data' has no attribute '{}'".format(name))
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))


__all__ = ['BatchSampler', 'ChainDataset', 'ConcatDataset', 'DFIterDataPipe', 'DataChunk',
           'DataLoader', 'DataLoader2', 'Dataset', 'DistributedSampler', 'IterDataPipe',
           'MapDataPipe', 'argument_validation', 'functional_datapipe',
           'guaranteed_datapipes_determinism', 'non_deterministic', 'runtime_validation',
           'runtime_validation_disabled',
           'IterableDataset', 'RandomSampler', 'Sampler', 'SequentialSampler', 'Subset',
           'SubsetRandomSampler', 'TensorDataset', 'WeightedRandomSampler',
           'default_collate', 'default_convert', 'get_worker_info', 'random_split']

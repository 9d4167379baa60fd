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

__all__ = ['BatchSampler', 'ChainDataset', 'ConcatDataset', 'DataLoader', 'Dataset',
           'DistributedSampler',
           'IterableDataset', 'RandomSampler', 'Sampler', 'SequentialSampler', 'Subset',
           'SubsetRandomSampler', 'TensorDataset', 'WeightedRandomSampler',
           'default_collate', 'default_convert', 'get_worker_info', 'random_split']

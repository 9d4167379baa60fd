"""Datasets of torch.utils.data: map-style (Dataset, TensorDataset, Subset,
ConcatDataset) and iterable ones, and random_split, as PyTorch 1.13 has them."""

import bisect
import math
import warnings
from itertools import accumulate
from typing import Generic, TypeVar

import torch
from torch._random import default_generator

__all__ = ['Dataset', 'IterableDataset', 'TensorDataset', 'ConcatDataset', 'ChainDataset',
           'Subset', 'random_split']


T_co = TypeVar('T_co', covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: __getitem__(index) gives a sample; define
    __len__ too for the default samplers."""

    def __getitem__(self, index):
        raise NotImplementedError

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A dataset that is an iterable of samples (define __iter__)."""

    def __iter__(self):
        raise NotImplementedError

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Sample i is (t[i] for each tensor t); all share their first size."""

    def __init__(self, *tensors):
        assert all(tensors[0].size(0) == tensor.size(0) for tensor in tensors), \
            "Size mismatch between tensors"
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """The datasets one after another."""

    @staticmethod
    def cumsum(sequence):
        sizes, total = [], 0
        for e in sequence:
            total += len(e)
            sizes.append(total)
        return sizes

    def __init__(self, datasets):
        super(ConcatDataset, self).__init__()
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, 'datasets should not be an empty iterable'
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), \
                "ConcatDataset does not support IterableDataset"
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]

    @property
    def cummulative_sizes(self):
        warnings.warn("cummulative_sizes attribute is renamed to cumulative_sizes",
                      DeprecationWarning, stacklevel=2)
        return self.cumulative_sizes


class ChainDataset(IterableDataset):
    """Iterable datasets chained one after another."""

    def __init__(self, datasets):
        super(ChainDataset, self).__init__()
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            assert isinstance(d, IterableDataset), "ChainDataset only supports IterableDataset"
            for x in d:
                yield x

    def __len__(self):
        total = 0
        for d in self.datasets:
            assert isinstance(d, IterableDataset), "ChainDataset only supports IterableDataset"
            total += len(d)
        return total


class Subset(Dataset):
    """The samples of [dataset] at [indices], in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=default_generator):
    """random_split(dataset, lengths, generator=default_generator) -> List[Subset]

    Split dataset into non-overlapping random Subsets of the given lengths:
    counts that add up to len(dataset), or fractions that add up to 1 (the
    leftover items then go one by one to the first subsets). One random
    permutation is drawn from generator; pass
    torch.Generator().manual_seed(42) for the same split every run.

    Example::

        >>> data = list(range(10))
        >>> train, val = torch.utils.data.random_split(data, [8, 2], generator=torch.Generator().manual_seed(0))
        >>> len(train), len(val)
        (8, 2)
        >>> sorted(list(train) + list(val)) == data
        True
    """
    # Split [dataset] into Subsets of [lengths] (counts, or fractions that sum to 1) by one
    # randperm(len(dataset)) from [generator].
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(int(math.floor(len(dataset) * frac)))
        remainder = len(dataset) - sum(subset_lengths)
        # The remainder goes round-robin, one each.
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. "
                              f"This might result in an empty dataset.")
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = torch.randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[offset - length: offset])
            for offset, length in zip(accumulate(lengths), lengths)]

"""The MapDataPipes (see __init__.py), each as PyTorch 1.13 defines it."""

import copy
import random
import warnings
from collections.abc import Sized

from torch.utils.data.sampler import _draw_seed
from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import DataChunk, IterDataPipe, MapDataPipe


class SequenceWrapperMapDataPipe(MapDataPipe):
    def __init__(self, sequence, deepcopy=True):
        if deepcopy:
            try:
                self.sequence = copy.deepcopy(sequence)
            except TypeError:
                warnings.warn("The input sequence can not be deepcopied, please be aware of "
                              "in-place modification would affect source data")
                self.sequence = sequence
        else:
            self.sequence = sequence

    def __getitem__(self, index):
        return self.sequence[index]

    def __len__(self):
        return len(self.sequence)


def default_fn(data):
    return data


@functional_datapipe("map")
class MapperMapDataPipe(MapDataPipe):
    def __init__(self, datapipe, fn=default_fn):
        super().__init__()
        self.datapipe = datapipe
        self.fn = fn

    def __len__(self):
        return len(self.datapipe)

    def __getitem__(self, index):
        return self.fn(self.datapipe[index])


@functional_datapipe("batch")
class BatcherMapDataPipe(MapDataPipe):
    def __init__(self, datapipe, batch_size, drop_last=False, wrapper_class=DataChunk):
        assert batch_size > 0, "Batch size is required to be larger than 0!"
        super().__init__()
        self.datapipe = datapipe
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.length = None
        self.wrapper_class = wrapper_class

    def __getitem__(self, index):
        batch = []
        indices = range(index * self.batch_size, (index + 1) * self.batch_size)
        try:
            for i in indices:
                batch.append(self.datapipe[i])
            return self.wrapper_class(batch)
        except IndexError:
            if not self.drop_last and len(batch) > 0:
                return self.wrapper_class(batch)
            raise IndexError(f"Index {index} is out of bound.")

    def __len__(self):
        if self.length is not None:
            return self.length
        if isinstance(self.datapipe, Sized):
            n = len(self.datapipe)
            self.length = n // self.batch_size if self.drop_last else \
                (n + self.batch_size - 1) // self.batch_size
            return self.length
        raise TypeError("{} instance doesn't have valid length".format(type(self).__name__))


def _sized_map_inputs(datapipes):
    """The inputs of concat and zip: at least one, each a sized MapDataPipe."""
    if len(datapipes) == 0:
        raise ValueError("Expected at least one DataPipe, but got nothing")
    if not all(isinstance(dp, MapDataPipe) for dp in datapipes):
        raise TypeError("Expected all inputs to be `MapDataPipe`")
    if not all(isinstance(dp, Sized) for dp in datapipes):
        raise TypeError("Expected all inputs to be `Sized`")
    return datapipes


@functional_datapipe("concat")
class ConcaterMapDataPipe(MapDataPipe):
    def __init__(self, *datapipes):
        self.datapipes = _sized_map_inputs(datapipes)
        self.length = -1

    def __getitem__(self, index):
        offset = 0
        for dp in self.datapipes:
            if index - offset < len(dp):
                return dp[index - offset]
            offset += len(dp)
        raise IndexError("Index {} is out of range.".format(index))

    def __len__(self):
        if self.length == -1:
            self.length = sum(len(dp) for dp in self.datapipes)
        return self.length


@functional_datapipe("zip")
class ZipperMapDataPipe(MapDataPipe):
    def __init__(self, *datapipes):
        self.datapipes = _sized_map_inputs(datapipes)
        self.length = -1

    def __getitem__(self, index):
        res = []
        for dp in self.datapipes:
            try:
                res.append(dp[index])
            except IndexError:
                raise IndexError(f"Index {index} is out of range for one of the input "
                                 f"MapDataPipes {dp}.")
        return tuple(res)

    def __len__(self):
        if self.length == -1:
            self.length = min(len(dp) for dp in self.datapipes)
        return self.length


class ShufflerIterDataPipe(IterDataPipe):
    """map-style shuffle: an IterDataPipe over the indices in an order drawn
    when each iteration starts."""

    def __init__(self, datapipe, *, indices=None):
        super().__init__()
        self.datapipe = datapipe
        self.indices = list(range(len(datapipe))) if indices is None else indices
        self._enabled = True
        self._seed = None
        self._rng = random.Random()
        self._shuffled_indices = self.indices

    def set_shuffle(self, shuffle=True):
        self._enabled = shuffle
        return self

    def set_seed(self, seed):
        self._seed = seed
        return self

    def __iter__(self):
        if not self._enabled:
            for idx in self.indices:
                yield self.datapipe[idx]
        else:
            while self._shuffled_indices:
                idx = self._shuffled_indices.pop()
                yield self.datapipe[idx]

    def reset(self):
        if self._enabled and self._seed is None:
            # torch.empty((), dtype=torch.int64).random_().item() in PyTorch
            self._seed = _draw_seed()
        self._rng.seed(self._seed)
        self._seed = None
        self._shuffled_indices = self._rng.sample(self.indices, len(self.indices))

    def __len__(self):
        return len(self.datapipe)


MapDataPipe.register_datapipe_as_function("shuffle", ShufflerIterDataPipe)

"""The IterDataPipes (see __init__.py), each as PyTorch 1.13 defines it."""

import copy
import random
import warnings
from collections.abc import Sized

from torch.utils.data.sampler import _draw_seed
from torch.utils.data._utils.collate import default_collate
from torch.utils.data.sampler import SequentialSampler
from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import DataChunk, IterDataPipe


def _no_len(dp):
    return TypeError("{} instance doesn't have valid length".format(type(dp).__name__))


class IterableWrapperIterDataPipe(IterDataPipe):
    def __init__(self, iterable, deepcopy=True):
        self.iterable = iterable
        self.deepcopy = deepcopy

    def __iter__(self):
        source_data = self.iterable
        if self.deepcopy:
            try:
                source_data = copy.deepcopy(self.iterable)
            except TypeError:
                warnings.warn("The input iterable can not be deepcopied, please be aware of "
                              "in-place modification would affect source data.")
        for data in source_data:
            yield data

    def __len__(self):
        return len(self.iterable)


@functional_datapipe("map")
class MapperIterDataPipe(IterDataPipe):
    def __init__(self, datapipe, fn, input_col=None, output_col=None):
        super().__init__()
        self.datapipe = datapipe
        self.fn = fn
        self.input_col = input_col
        if input_col is None and output_col is not None:
            raise ValueError("`output_col` must be None when `input_col` is None.")
        if isinstance(output_col, (list, tuple)):
            if len(output_col) > 1:
                raise ValueError("`output_col` must be a single-element list or tuple")
            output_col = output_col[0]
        self.output_col = output_col

    def _apply_fn(self, data):
        if self.input_col is None and self.output_col is None:
            return self.fn(data)
        if self.input_col is None:
            res = self.fn(data)
        elif isinstance(self.input_col, (list, tuple)):
            res = self.fn(*(data[col] for col in self.input_col))
        else:
            res = self.fn(data[self.input_col])
        t_flag = isinstance(data, tuple)
        if t_flag:
            data = list(data)
        if self.output_col is None:
            if isinstance(self.input_col, (list, tuple)):
                data[self.input_col[0]] = res
                for idx in sorted(self.input_col[1:], reverse=True):
                    del data[idx]
            else:
                data[self.input_col] = res
        elif self.output_col == -1:
            data.append(res)
        else:
            data[self.output_col] = res
        return tuple(data) if t_flag else data

    def __iter__(self):
        for data in self.datapipe:
            yield self._apply_fn(data)

    def __len__(self):
        if isinstance(self.datapipe, Sized):
            return len(self.datapipe)
        raise _no_len(self)


@functional_datapipe("collate")
class CollatorIterDataPipe(MapperIterDataPipe):
    def __init__(self, datapipe, conversion=default_collate, collate_fn=None):
        if collate_fn is not None:
            super().__init__(datapipe, fn=collate_fn)
        elif callable(conversion):
            super().__init__(datapipe, fn=conversion)
        else:
            raise NotImplementedError("collate with a dict of column conversions (DataFrame "
                                      "pipes) is not supported")


@functional_datapipe("filter")
class FilterIterDataPipe(IterDataPipe):
    def __init__(self, datapipe, filter_fn, drop_empty_batches=None, input_col=None):
        super().__init__()
        self.datapipe = datapipe
        self.filter_fn = filter_fn
        if drop_empty_batches is None:
            drop_empty_batches = True
        else:
            warnings.warn("`FilterIterDataPipe()`'s argument `drop_empty_batches` is "
                          "deprecated since 1.12 and will be removed in 1.14.\nSee "
                          "https://github.com/pytorch/data/issues/163 for details.")
        self.drop_empty_batches = drop_empty_batches
        self.input_col = input_col

    def _apply_filter_fn(self, data):
        if self.input_col is None:
            return self.filter_fn(data)
        if isinstance(self.input_col, (list, tuple)):
            return self.filter_fn(*(data[col] for col in self.input_col))
        return self.filter_fn(data[self.input_col])

    def __iter__(self):
        for data in self.datapipe:
            condition = self._apply_filter_fn(data)
            if not isinstance(condition, bool):
                raise ValueError("Boolean output is required for `filter_fn` of "
                                 "FilterIterDataPipe, got", type(condition))
            if condition and not (isinstance(data, list) and len(data) == 0 and
                                  self.drop_empty_batches):
                yield data


@functional_datapipe("batch")
class BatcherIterDataPipe(IterDataPipe):
    def __init__(self, datapipe, batch_size, drop_last=False, wrapper_class=DataChunk):
        assert batch_size > 0, "Batch size is required to be larger than 0!"
        super().__init__()
        self.datapipe = datapipe
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.length = None
        self.wrapper_class = wrapper_class

    def __iter__(self):
        batch = []
        for x in self.datapipe:
            batch.append(x)
            if len(batch) == self.batch_size:
                yield self.wrapper_class(batch)
                batch = []
        if len(batch) > 0 and not self.drop_last:
            yield self.wrapper_class(batch)

    def __len__(self):
        if self.length is not None:
            return self.length
        if isinstance(self.datapipe, Sized):
            n = len(self.datapipe)
            self.length = n // self.batch_size if self.drop_last else \
                (n + self.batch_size - 1) // self.batch_size
            return self.length
        raise _no_len(self)


@functional_datapipe("unbatch")
class UnBatcherIterDataPipe(IterDataPipe):
    def __init__(self, datapipe, unbatch_level=1):
        self.datapipe = datapipe
        self.unbatch_level = unbatch_level

    def __iter__(self):
        for element in self.datapipe:
            for i in self._dive(element, unbatch_level=self.unbatch_level):
                yield i

    def _dive(self, element, unbatch_level):
        if unbatch_level < -1:
            raise ValueError("unbatch_level must be -1 or >= 0")
        if unbatch_level == -1:
            if isinstance(element, (list, DataChunk)):
                for item in element:
                    yield from self._dive(item, unbatch_level=-1)
            else:
                yield element
        elif unbatch_level == 0:
            yield element
        elif isinstance(element, (list, DataChunk)):
            for item in element:
                yield from self._dive(item, unbatch_level=unbatch_level - 1)
        else:
            raise IndexError(f"unbatch_level {self.unbatch_level} exceeds the depth of the "
                             "DataPipe")


@functional_datapipe("shuffle")
class ShufflerIterDataPipe(IterDataPipe):
    """A buffer of buffer_size elements; each new element replaces a random
    one, which is yielded. The seed is drawn from torch's generator when an
    iteration starts (or set with set_seed; DataLoader sets it)."""

    def __init__(self, datapipe, *, buffer_size=10000, unbatch_level=0):
        super().__init__()
        self._buffer = []
        assert buffer_size > 0, "buffer_size should be larger than 0"
        self.datapipe = datapipe if unbatch_level == 0 else \
            datapipe.unbatch(unbatch_level=unbatch_level)
        self.buffer_size = buffer_size
        self._enabled = True
        self._seed = None
        self._rng = random.Random()

    def set_shuffle(self, shuffle=True):
        self._enabled = shuffle
        return self

    def set_seed(self, seed):
        self._seed = seed
        return self

    def __iter__(self):
        if not self._enabled:
            for x in self.datapipe:
                yield x
        else:
            for x in self.datapipe:
                if len(self._buffer) == self.buffer_size:
                    idx = self._rng.randint(0, len(self._buffer) - 1)
                    val, self._buffer[idx] = self._buffer[idx], x
                    yield val
                else:
                    self._buffer.append(x)
            while self._buffer:
                idx = self._rng.randint(0, len(self._buffer) - 1)
                yield self._buffer.pop(idx)

    def __len__(self):
        if isinstance(self.datapipe, Sized):
            return len(self.datapipe)
        raise _no_len(self)

    def reset(self):
        self._buffer = []
        if self._enabled:
            if self._seed is None:
                # torch.empty((), dtype=torch.int64).random_().item() in PyTorch
                self._seed = _draw_seed()
            self._rng.seed(self._seed)
            self._seed = None


class SamplerIterDataPipe(IterDataPipe):
    def __init__(self, datapipe, sampler=SequentialSampler, sampler_args=None,
                 sampler_kwargs=None):
        assert isinstance(datapipe, Sized), \
            "Sampler class requires input datapipe implemented `__len__`"
        super().__init__()
        self.datapipe = datapipe
        self.sampler_args = () if sampler_args is None else sampler_args
        self.sampler_kwargs = {} if sampler_kwargs is None else sampler_kwargs
        self.sampler = sampler(*self.sampler_args, data_source=self.datapipe,
                               **self.sampler_kwargs)

    def __iter__(self):
        return iter(self.sampler)

    def __len__(self):
        if isinstance(self.sampler, Sized) and len(self.sampler) >= 0:
            return len(self.sampler)
        raise _no_len(self)


@functional_datapipe("sharding_filter")
class ShardingFilterIterDataPipe(IterDataPipe):
    def __init__(self, source_datapipe):
        self.source_datapipe = source_datapipe
        self.num_of_instances = 1
        self.instance_id = 0

    def is_shardable(self):
        return True

    def apply_sharding(self, num_of_instances, instance_id):
        self.num_of_instances = num_of_instances
        self.instance_id = instance_id

    def __iter__(self):
        for i, item in enumerate(self.source_datapipe):
            if i % self.num_of_instances == self.instance_id:
                yield item

    def __len__(self):
        if isinstance(self.source_datapipe, Sized):
            n = len(self.source_datapipe)
            return n // self.num_of_instances + \
                (1 if self.instance_id < n % self.num_of_instances else 0)
        raise _no_len(self)


@functional_datapipe("concat")
class ConcaterIterDataPipe(IterDataPipe):
    def __init__(self, *datapipes):
        if len(datapipes) == 0:
            raise ValueError("Expected at least one DataPipe, but got nothing")
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("Expected all inputs to be `IterDataPipe`")
        self.datapipes = datapipes
        self.length = None

    def __iter__(self):
        for dp in self.datapipes:
            for data in dp:
                yield data

    def __len__(self):
        if self.length is None:
            self.length = sum(len(dp) for dp in self.datapipes) \
                if all(isinstance(dp, Sized) for dp in self.datapipes) else -1
        if self.length == -1:
            raise _no_len(self)
        return self.length


@functional_datapipe("zip")
class ZipperIterDataPipe(IterDataPipe):
    def __init__(self, *datapipes):
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("All inputs are required to be `IterDataPipe` for "
                            "`ZipIterDataPipe`.")
        super().__init__()
        self.datapipes = datapipes
        self.length = None

    def __iter__(self):
        iterators = [iter(datapipe) for datapipe in self.datapipes]
        for data in zip(*iterators):
            yield data

    def __len__(self):
        if self.length is None:
            self.length = min(len(dp) for dp in self.datapipes) \
                if all(isinstance(dp, Sized) for dp in self.datapipes) else -1
        if self.length == -1:
            raise _no_len(self)
        return self.length


@functional_datapipe("mux")
class MultiplexerIterDataPipe(IterDataPipe):
    def __init__(self, *datapipes):
        self.datapipes = datapipes
        self.length = None
        self.buffer = []

    def __iter__(self):
        iterators = [iter(x) for x in self.datapipes]
        while len(iterators):
            for it in iterators:
                try:
                    self.buffer.append(next(it))
                except StopIteration:
                    self.buffer.clear()
                    return
            for value in self.buffer:
                yield value
            self.buffer.clear()

    def __len__(self):
        if self.length is None:
            self.length = min(len(dp) for dp in self.datapipes) * len(self.datapipes) \
                if all(isinstance(dp, Sized) for dp in self.datapipes) else -1
        if self.length == -1:
            raise _no_len(self)
        return self.length

    def reset(self):
        self.buffer = []

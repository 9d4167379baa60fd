"""torch.utils.data.DataLoader: batches from a dataset through a sampler and
a collate function, with PyTorch 1.13's draws from torch's generators (each
iterator draws a base seed; a shuffling RandomSampler seeds a private
generator), so batches come in the order PyTorch gives for a seed.

There is one process here. num_workers > 0 is accepted and the workers run
in-process, in turn (batch k is worker k % num_workers's, as torch hands
them out): each has its own torch and `random` generator states, seeded with
base_seed + worker_id as a worker process is, and get_worker_info() and
worker_init_fn see what they would in a worker. What a worker would do to
its copy of the dataset happens to the dataset itself.
"""

import copy
import random
import warnings

import torch
from ._utils.collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, _draw_seed

__all__ = ['DataLoader', 'get_worker_info', 'default_collate', 'default_convert']


class _DatasetKind(object):
    Map = 0
    Iterable = 1


class _InfiniteConstantSampler(Sampler):
    """None forever: the indices of an iterable dataset."""

    def __init__(self):
        super(_InfiniteConstantSampler, self).__init__(None)

    def __iter__(self):
        while True:
            yield None


class WorkerInfo(object):
    """What get_worker_info() returns inside a worker: id, num_workers,
    seed and dataset (read-only)."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError("Cannot assign attributes to {} objects".format(
                self.__class__.__name__))
        return super(WorkerInfo, self).__setattr__(key, val)

    def __repr__(self):
        items = ['{}={}'.format(k, getattr(self, k)) for k in self.__keys]
        return '{}({})'.format(self.__class__.__name__, ', '.join(items))


_worker_info = None


def get_worker_info():
    """get_worker_info() -> Optional[WorkerInfo]

    In a DataLoader worker process: information about this worker (id,
    num_workers, seed, dataset), for splitting an IterableDataset's work;
    None in the main process.

    Example::

        >>> torch.utils.data.get_worker_info() is None
        True
    """
    return _worker_info


class _BaseDatasetFetcher(object):
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last


class _MapFetcher(_BaseDatasetFetcher):
    def fetch(self, index):
        if self.auto_collation:
            data = [self.dataset[idx] for idx in index]
        else:
            data = self.dataset[index]
        return self.collate_fn(data)


class _IterableFetcher(_BaseDatasetFetcher):
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        super(_IterableFetcher, self).__init__(dataset, auto_collation, collate_fn, drop_last)
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def _is_iter_datapipe(dataset):
    from torch.utils.data.datapipes.datapipe import IterDataPipe
    return isinstance(dataset, IterDataPipe)


def _seed_datapipes(dataset, shared_seed):
    from torch.utils.data import graph_settings
    shared_rng = torch.Generator()
    shared_rng.manual_seed(shared_seed)
    return graph_settings.apply_random_seed(dataset, shared_rng)


def _make_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
    cls = _MapFetcher if kind == _DatasetKind.Map else _IterableFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)


class DataLoader(object):
    """Batches of [dataset]: batch_size samples (None: no batching) in the
    order of [sampler] (shuffle=True: a RandomSampler over [generator] or
    the default generator), collated by [collate_fn]."""

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False,
                 timeout=0, worker_init_fn=None, multiprocessing_context=None, generator=None,
                 *, prefetch_factor=2, persistent_workers=False, pin_memory_device=""):
        if num_workers < 0:
            raise ValueError('num_workers option should be non-negative; '
                             'use num_workers=0 to disable multiprocessing.')
        if timeout < 0:
            raise ValueError('timeout option should be non-negative')
        if num_workers == 0 and prefetch_factor != 2:
            raise ValueError('prefetch_factor option could only be specified in '
                             'multiprocessing.let num_workers > 0 to enable multiprocessing.')
        assert prefetch_factor > 0
        if persistent_workers and num_workers == 0:
            raise ValueError('persistent_workers option needs num_workers > 0')

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if _is_iter_datapipe(dataset):
                if shuffle is not None:
                    from torch.utils.data import graph_settings
                    # as 1.13: the Shuffler it may add at the end is not kept
                    # (self.dataset is already set); existing ones switch
                    dataset = graph_settings.apply_shuffle_settings(dataset, shuffle=shuffle)
            elif shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 "shuffle option, but got shuffle={}".format(shuffle))
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 "sampler option, but got sampler={}".format(sampler))
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 "batch_sampler option, but got batch_sampler={}".format(
                                     batch_sampler))
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map

        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with shuffle')
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError('batch_sampler option is mutually exclusive with batch_size, '
                                 'shuffle, sampler, and drop_last')
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError('batch_size=None option disables auto-batching and is mutually '
                             'exclusive with drop_last')

        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ('batch_size', 'batch_sampler', 'sampler',
                                           'drop_last', 'dataset', 'persistent_workers'):
            raise ValueError('{} attribute should not be set after {} is initialized'.format(
                attr, self.__class__.__name__))
        super(DataLoader, self).__setattr__(attr, val)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        return _InProcessWorkersDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = -(-length // self.batch_size)
            return length
        return len(self._index_sampler)


class _BaseDataLoaderIter(object):
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._shared_seed = None
        if _is_iter_datapipe(self._dataset):
            # PyTorch 1.13: a seed shared by the workers, drawn first, gives
            # each random DataPipe (Shuffler) its seed for this epoch
            self._shared_seed = _draw_seed(loader.generator)
            self._dataset = _seed_datapipes(self._dataset, self._shared_seed)
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # torch draws this even in one process; it moves the generator.
        self._base_seed = _draw_seed(loader.generator)
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        if _is_iter_datapipe(self._dataset):
            self._shared_seed = _draw_seed(loader.generator)
            self._dataset = _seed_datapipes(self._dataset, self._shared_seed)

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if self._dataset_kind == _DatasetKind.Iterable and \
                self._IterableDataset_len_called is not None and \
                self._num_yielded > self._IterableDataset_len_called:
            warnings.warn("Length of IterableDataset {} was reported to be {} (when accessing "
                          "len(dataloader)), but {} samples have been fetched. ".format(
                              self._dataset, self._IterableDataset_len_called,
                              self._num_yielded))
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super(_SingleProcessDataLoaderIter, self).__init__(loader)
        self._dataset_fetcher = _make_fetcher(self._dataset_kind, self._dataset,
                                              self._auto_collation, self._collate_fn,
                                              self._drop_last)

    def _next_data(self):
        index = self._next_index()
        return self._dataset_fetcher.fetch(index)


class _Worker(object):
    """One emulated worker: its generator states and its fetcher."""

    def __init__(self, loader, it, worker_id):
        global _worker_info
        self.id = worker_id
        seed = it._base_seed + worker_id
        self.dataset = it._dataset
        if _is_iter_datapipe(self.dataset):
            # a worker process has its own copy of the pipeline, seeded with
            # the shared seed and sharded by worker (PyTorch 1.13)
            from torch.utils.data import graph_settings
            self.dataset = _seed_datapipes(copy.deepcopy(self.dataset), it._shared_seed)
            graph_settings.apply_sharding(self.dataset, it._num_workers, worker_id)
        self.info = WorkerInfo(id=worker_id, num_workers=it._num_workers, seed=seed,
                               dataset=self.dataset)
        self.torch_state = None
        self.random_state = None
        self.done = False
        with self._inside(fresh_seed=seed):
            if loader.worker_init_fn is not None:
                loader.worker_init_fn(worker_id)
            self.fetcher = _make_fetcher(it._dataset_kind, self.dataset, it._auto_collation,
                                         it._collate_fn, it._drop_last)

    def _inside(self, fresh_seed=None):
        worker = self

        class _Switch(object):
            def __enter__(self):
                global _worker_info
                self.torch_state = torch.get_rng_state()
                self.random_state = random.getstate()
                self.info = _worker_info
                if fresh_seed is not None:
                    random.seed(fresh_seed)
                    torch.manual_seed(fresh_seed)
                else:
                    torch.set_rng_state(worker.torch_state)
                    random.setstate(worker.random_state)
                _worker_info = worker.info

            def __exit__(self, *exc):
                global _worker_info
                worker.torch_state = torch.get_rng_state()
                worker.random_state = random.getstate()
                torch.set_rng_state(self.torch_state)
                random.setstate(self.random_state)
                _worker_info = self.info
                return False

        return _Switch()

    def fetch(self, index):
        with self._inside():
            return self.fetcher.fetch(index)


class _InProcessWorkersDataLoaderIter(_BaseDataLoaderIter):
    """num_workers > 0 in one process: batches go to the workers in turn,
    each fetching with its own generator states; an iterable dataset's
    worker that runs out leaves the rotation, as a worker process does."""

    def __init__(self, loader):
        super(_InProcessWorkersDataLoaderIter, self).__init__(loader)
        self._workers = [_Worker(loader, self, i) for i in range(self._num_workers)]
        self._turn = 0
        self._loader = loader

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        for w in self._workers:
            w.done = False
            if _is_iter_datapipe(w.dataset):
                _seed_datapipes(w.dataset, self._shared_seed)
            w.fetcher = _make_fetcher(self._dataset_kind, w.dataset, self._auto_collation,
                                      self._collate_fn, self._drop_last)
        self._turn = 0

    def _next_data(self):
        while True:
            active = [w for w in self._workers if not w.done]
            if not active:
                raise StopIteration
            index = self._next_index()
            worker = self._workers[self._turn % len(self._workers)]
            while worker.done:
                self._turn += 1
                worker = self._workers[self._turn % len(self._workers)]
            self._turn += 1
            try:
                return worker.fetch(index)
            except StopIteration:
                if self._dataset_kind != _DatasetKind.Iterable:
                    raise
                worker.done = True


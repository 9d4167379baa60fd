"""torch.utils.data.DataLoader2 (1.13's experimental loader): for an
IterDataPipe it batches with .batch() and hands the pipeline to a
DataLoader; any other dataset goes to DataLoader as it is. The 'thread'
parallelism mode is not provided."""

import torch.utils.data.graph_settings
from torch.utils.data._utils.collate import default_collate
from torch.utils.data.dataloader import DataLoader
from torch.utils.data.datapipes.datapipe import IterDataPipe
from torch.utils.data.datapipes.iter import IterableWrapper

__all__ = ["DataLoader2"]


class DataLoader2:
    def __new__(cls, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                worker_init_fn=None, *, prefetch_factor=2, persistent_workers=False,
                batch_outside_worker=False, parallelism_mode="mp"):
        if isinstance(dataset, IterDataPipe):
            if batch_sampler is not None:
                raise Exception("batch_sampler is not yet supported by DataPipes")
            if sampler is not None:
                raise Exception("sampler is not yet supported by DataPipes")
            datapipe = torch.utils.data.graph_settings.apply_shuffle_settings(dataset,
                                                                               shuffle=shuffle)
            if batch_outside_worker and pin_memory:
                raise Exception("pin_memory is not yet compatible with batch_outside_worker")
            if parallelism_mode != "mp":
                raise Exception("Unsupported parallelism mode", parallelism_mode)
            if not batch_outside_worker:
                if batch_size is not None:
                    datapipe = datapipe.batch(batch_size, drop_last=drop_last)
                    if collate_fn is None:
                        collate_fn = default_collate
            data_loader = DataLoader(datapipe, batch_size=None, shuffle=shuffle, sampler=None,
                                     batch_sampler=None, num_workers=num_workers,
                                     collate_fn=collate_fn, pin_memory=pin_memory,
                                     drop_last=False, timeout=timeout,
                                     worker_init_fn=worker_init_fn,
                                     prefetch_factor=prefetch_factor,
                                     persistent_workers=persistent_workers)
            if not batch_outside_worker:
                return data_loader
            if collate_fn is None:
                collate_fn = default_collate
            return IterableWrapper(data_loader).batch(batch_size,
                                                      drop_last=drop_last).map(collate_fn)
        if parallelism_mode == "thread":
            raise Exception("thread parallelism mode is not supported for old DataSets")
        return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, sampler=sampler,
                          batch_sampler=batch_sampler, num_workers=num_workers,
                          collate_fn=collate_fn, pin_memory=pin_memory, drop_last=drop_last,
                          timeout=timeout, worker_init_fn=worker_init_fn,
                          prefetch_factor=prefetch_factor,
                          persistent_workers=persistent_workers)

"""The IterDataPipes of PyTorch 1.13's torch.utils.data.datapipes.iter
that do not read files: IterableWrapper, Mapper (map), Collator (collate),
Filter (filter), Batcher (batch), UnBatcher (unbatch), Shuffler (shuffle),
Sampler, ShardingFilter (sharding_filter), Concater (concat), Zipper (zip),
Multiplexer (mux). Not here: Forker, Demultiplexer, Grouper and the file
readers (FileLister, FileOpener, StreamReader, RoutedDecoder)."""

from torch.utils.data.datapipes.iter._pipes import (  # noqa: F401
    IterableWrapperIterDataPipe as IterableWrapper,
    MapperIterDataPipe as Mapper,
    CollatorIterDataPipe as Collator,
    FilterIterDataPipe as Filter,
    BatcherIterDataPipe as Batcher,
    UnBatcherIterDataPipe as UnBatcher,
    ShufflerIterDataPipe as Shuffler,
    SamplerIterDataPipe as Sampler,
    ShardingFilterIterDataPipe as ShardingFilter,
    ConcaterIterDataPipe as Concater,
    ZipperIterDataPipe as Zipper,
    MultiplexerIterDataPipe as Multiplexer,
)

__all__ = ["Batcher", "Collator", "Concater", "Filter", "IterableWrapper", "Mapper",
           "Multiplexer", "Sampler", "ShardingFilter", "Shuffler", "UnBatcher", "Zipper"]

"""The MapDataPipes of PyTorch 1.13: SequenceWrapper, Mapper (map),
Batcher (batch), Concater (concat), Zipper (zip), and shuffle (an
IterDataPipe over a shuffled order of the indices)."""

from torch.utils.data.datapipes.map._pipes import (  # noqa: F401
    SequenceWrapperMapDataPipe as SequenceWrapper,
    MapperMapDataPipe as Mapper,
    BatcherMapDataPipe as Batcher,
    ConcaterMapDataPipe as Concater,
    ZipperMapDataPipe as Zipper,
    ShufflerIterDataPipe as Shuffler,
)

__all__ = ["Batcher", "Concater", "Mapper", "SequenceWrapper", "Shuffler", "Zipper"]

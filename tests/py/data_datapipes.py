# torch.utils.data DataPipes: chaining by name, Mapper/Filter/Batcher/
# Collator/UnBatcher/Concater/Zipper/Multiplexer/ShardingFilter/Sampler,
# the seeded Shuffler (alone and under DataLoader, DataLoader2, workers),
# map-style pipes, custom @functional_datapipe, graph settings: equal to
# PyTorch's.
import warnings

import torch
from torch.utils.data import DataLoader, IterDataPipe, MapDataPipe, functional_datapipe
from torch.utils.data import DataLoader2, DataChunk
from torch.utils.data.datapipes.iter import IterableWrapper, Sampler
from torch.utils.data.datapipes.map import SequenceWrapper
from torch.utils.data import graph_settings
from torch.utils.data.graph import traverse_dps

warnings.simplefilter("ignore")

dp = IterableWrapper(range(10))
print(list(dp.map(lambda x: x * 2).filter(lambda x: x % 3 != 0)))
b = dp.batch(3)
print(list(b), len(b), type(next(iter(b))).__name__, list(dp.batch(3, drop_last=True)))
print(list(b.unbatch()), list(IterableWrapper([[[1, 2], [3]], [[4]]]).unbatch(-1)))
print(list(dp.batch(4).collate()))
print(list(IterableWrapper([(1, 2), (3, 4)]).map(lambda v: v * 10, input_col=1)))
print(list(IterableWrapper([(1, 2), (3, 4)]).map(lambda a, c: a + c, input_col=[0, 1],
                                                 output_col=-1)))
print(list(dp.concat(IterableWrapper("ab"))), len(dp.concat(IterableWrapper("ab"))))
print(list(dp.zip(IterableWrapper("abc"))), list(IterableWrapper([1, 2, 3]).mux(
    IterableWrapper([10, 20]), IterableWrapper([100, 200, 300]))))
sh = dp.sharding_filter()
graph_settings.apply_sharding(sh, 3, 1)
print(list(sh), len(sh))
print(list(Sampler(dp)), repr(dp.map(str)), str(dp))

torch.manual_seed(0)
s = dp.shuffle(buffer_size=4)
print(list(s), list(s))
s.set_seed(7)
print(list(s))
print(list(dp.shuffle().set_shuffle(False)))
torch.manual_seed(1)
print([list(x) for x in DataLoader(dp.shuffle(), batch_size=4)])
torch.manual_seed(2)
loader = DataLoader(dp.shuffle(buffer_size=3), batch_size=3, shuffle=True)
print([b.tolist() for b in loader], [b.tolist() for b in loader])
print([b.tolist() for b in DataLoader(dp.shuffle(), batch_size=5, shuffle=False)])
torch.manual_seed(3)
print([b.tolist() for b in DataLoader(dp, batch_size=4, shuffle=True)])
torch.manual_seed(4)
print([b.tolist() for b in DataLoader2(dp.shuffle(), batch_size=4)])
torch.manual_seed(5)
print([b.tolist() for b in DataLoader(dp.shuffle().sharding_filter(), batch_size=2,
                                      num_workers=2)])
torch.manual_seed(6)
g = torch.Generator()
g.manual_seed(11)
print([b.tolist() for b in DataLoader(dp.shuffle(), batch_size=5, generator=g)])

m = SequenceWrapper([10, 11, 12, 13, 14])
print(m[2], len(m), m.map(lambda v: -v)[1], list(m.batch(2)[2]), len(m.batch(2)))
print(m.concat(SequenceWrapper([1]))[5], m.zip(SequenceWrapper("xyz"))[1])
torch.manual_seed(7)
ms = m.shuffle()
print(list(ms), list(ms), isinstance(ms, IterDataPipe))


@functional_datapipe("twice")
class Twice(IterDataPipe):
    def __init__(self, source):
        self.source = source

    def __iter__(self):
        for x in self.source:
            yield x
            yield x

    def __len__(self):
        return 2 * len(self.source)


print(list(IterableWrapper([1, 2]).twice().map(str)), len(IterableWrapper([1, 2]).twice()))
print(isinstance(dp, torch.utils.data.IterableDataset), isinstance(m, torch.utils.data.Dataset))
print(len(traverse_dps(dp.map(str).zip(dp).shuffle())), DataChunk([1, 2]).as_str())
for bad in (lambda: dp.nope, lambda: len(dp.filter(bool)), lambda: list(dp.batch(0)),
            lambda: IterableWrapper([1]).concat([2])):
    try:
        bad()
    except (AttributeError, TypeError, AssertionError) as e:
        print(type(e).__name__, e)

# torch.utils.data: DataLoader batches with and without shuffle (the order
# torch's generator gives for a seed, and how much of the default stream an
# epoch uses), drop_last, collate of tensors, numbers, tuples, dicts and
# strings, samplers, Subset / ConcatDataset, num_workers in one process.
import torch
from torch.utils.data import (DataLoader, Dataset, TensorDataset, Subset, ConcatDataset,
                              SequentialSampler, RandomSampler, BatchSampler, SubsetRandomSampler,
                              IterableDataset, default_collate, get_worker_info)

x = torch.arange(20.).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
print(len(ds), ds[3])

torch.manual_seed(0)
for xb, yb in DataLoader(ds, batch_size=4):
    print(xb.shape, yb.tolist())
print('after plain epoch', torch.rand(1).item())

torch.manual_seed(0)
loader = DataLoader(ds, batch_size=3, shuffle=True)
print(len(loader))
for epoch in range(2):
    print(epoch, [yb.tolist() for _, yb in loader])
print('after shuffled epochs', torch.rand(1).item())

torch.manual_seed(1)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=4, shuffle=True, drop_last=True)])
print(len(DataLoader(ds, batch_size=4, drop_last=True)), len(DataLoader(ds, batch_size=4)))

g = torch.Generator()
g.manual_seed(42)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])

# breaking out of an epoch and starting another
torch.manual_seed(2)
loader = DataLoader(ds, batch_size=2, shuffle=True)
for i, (_, yb) in enumerate(loader):
    print('first', yb.tolist())
    if i == 1:
        break
print('next', [yb.tolist() for _, yb in loader])


class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {'i': i, 'f': i / 2, 's': 'item%d' % i, 't': (torch.tensor([i, i]), [i, -i]),
                'b': i % 2 == 0}


for batch in DataLoader(Pairs(), batch_size=2):
    print(batch)
print(DataLoader(Pairs(), batch_size=None).__iter__().__next__())
print(default_collate([(1, 2.0), (3, 4.0)]))

# samplers
print(list(SequentialSampler(range(4))))
torch.manual_seed(3)
print(list(RandomSampler(range(6))), list(RandomSampler(range(6), num_samples=9)))
print(list(RandomSampler(range(5), replacement=True, num_samples=7)))
print(list(BatchSampler(range(7), 3, False)), list(BatchSampler(range(7), 3, True)))
print(list(SubsetRandomSampler([10, 20, 30, 40])))
for xb, yb in DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 4, False)):
    print(yb.tolist())
print([yb.tolist() for _, yb in DataLoader(ds, sampler=[9, 0, 5], batch_size=2)])

# Subset and ConcatDataset
sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[1][1], sub[-1][0])
cat = ConcatDataset([sub, ds])
print(len(cat), cat[2][1], cat[3][1], cat[-1][1], cat.cumulative_sizes)
cat2 = sub + sub
print(len(cat2), [int(cat2[i][1]) for i in range(len(cat2))])


# iterable datasets and workers
class Count(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


print([b.tolist() for b in DataLoader(Count(7), batch_size=3)])
print([b.tolist() for b in DataLoader(Count(7), batch_size=2, num_workers=2)])
print(get_worker_info())


class Noisy(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return torch.rand(1).item() > 2, i


torch.manual_seed(5)
print([b[1].tolist() for b in DataLoader(Noisy(), batch_size=2, shuffle=True, num_workers=3)])
print('after workers', torch.rand(1).item())

# errors torch raises
for bad in [lambda: DataLoader(ds, shuffle=True, sampler=[1]),
            lambda: DataLoader(ds, batch_sampler=[[0]], batch_size=2),
            lambda: DataLoader(ds, batch_size=None, drop_last=True),
            lambda: DataLoader(ds, num_workers=-1),
            lambda: TensorDataset(torch.zeros(3), torch.zeros(4)),
            lambda: BatchSampler(range(3), 0, False),
            lambda: RandomSampler(range(3), num_samples=0),
            lambda: default_collate([object()]),
            lambda: default_collate([[1, 2], [3]])]:
    try:
        bad()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)
loader = DataLoader(ds)
try:
    loader.batch_size = 3
except ValueError as e:
    print(e)

"""torch.utils.data.distributed.DistributedSampler without a process group
(num_replicas and rank given): shuffled with seed + epoch, padded, cut with
drop_last, and through a DataLoader."""
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

cases = [(10, 3, False, False, 0, 0), (10, 3, True, False, 0, 0), (7, 2, False, False, 0, 0),
         (2, 3, False, False, 0, 0), (2, 3, True, False, 0, 0), (1, 2, False, False, 0, 0),
         (10, 3, False, True, 0, 0), (10, 3, True, True, 5, 2), (100, 4, False, True, 1234, 7),
         (2, 3, False, True, 0, 1)]
for size, k, drop, shuffle, seed, epoch in cases:
    for r in range(k):
        s = DistributedSampler(list(range(size)), num_replicas=k, rank=r, shuffle=shuffle,
                               seed=seed, drop_last=drop)
        s.set_epoch(epoch)
        print(size, k, r, list(s), len(s))
try:
    DistributedSampler(list(range(4)), num_replicas=2, rank=2)
except ValueError as e:
    print("ValueError", e)
ds = TensorDataset(torch.arange(10.0).reshape(10, 1), torch.arange(10))
s = DistributedSampler(ds, num_replicas=2, rank=1, shuffle=True, seed=0)
dl = DataLoader(ds, batch_size=2, sampler=s)
for e in range(2):
    s.set_epoch(e)
    print(e, len(dl), [yb.tolist() for xb, yb in dl])

# random_split draws torch's permutation (counts and fractions, with the
# default generator or a seeded one), and Subsets index into the dataset.
import torch
from torch.utils.data import random_split, TensorDataset, DataLoader

torch.manual_seed(0)
data = list(range(10))
a, b = random_split(data, [7, 3])
print(list(a), list(b), a.indices, len(b))
print('next draw', torch.rand(1).item())
parts = random_split(range(11), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
print([list(p) for p in parts])
parts = random_split(range(30), [0.3, 0.3, 0.4], generator=torch.Generator().manual_seed(42))
print([len(p) for p in parts], list(parts[2])[:5])
ds = TensorDataset(torch.arange(8.), torch.arange(8) * 10)
train, val = random_split(ds, [6, 2], generator=torch.Generator().manual_seed(7))
print(train[0], val[1])
print([yb.tolist() for _, yb in DataLoader(train, batch_size=4)])
for bad in ([5, 6], [0.5, 0.6], [1.2, -0.2]):
    try:
        random_split(data, bad)
    except ValueError as e:
        print('ValueError', e)

import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split

class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float32).unsqueeze(1)
        self.y = self.x ** 2
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]

ds = Squares(10)
print(len(ds), ds[3])
loader = DataLoader(ds, batch_size=4)
print(len(loader))
for xb, yb in loader:
    print(xb.shape, yb.view(-1).tolist())
loader = DataLoader(ds, batch_size=4, drop_last=True)
print(len(loader), [b[0].shape[0] for b in loader])
td = TensorDataset(torch.arange(6), torch.arange(6) * 10)
print(len(td), td[2])
for a, b in DataLoader(td, batch_size=3):
    print(a.tolist(), b.tolist())
class Pairs(Dataset):
    def __len__(self): return 3
    def __getitem__(self, i): return {"i": i, "f": i / 2}
for batch in DataLoader(Pairs(), batch_size=2):
    print(batch)
def my_collate(samples):
    return len(samples)
print([b for b in DataLoader(ds, batch_size=3, collate_fn=my_collate)])
tr, va = random_split(td, [4, 2])
print(len(tr), len(va), sorted([int(tr[i][0]) for i in range(4)] + [int(va[i][0]) for i in range(2)]))
n = 0
for xb, yb in DataLoader(ds, batch_size=5, shuffle=True):
    n += xb.shape[0]
print(n)

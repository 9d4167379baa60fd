import random
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split

torch.manual_seed(1337)
random.seed(42)
words = ["emma", "olivia", "ava", "isabella", "sophia"]
random.shuffle(words)
print(words, random.random())

class Seq(Dataset):
    def __init__(self, n):
        self.data = torch.arange(n)
    def __len__(self):
        return len(self.data)
    def __getitem__(self, i):
        return self.data[i]

ds = Seq(10)
for epoch in range(2):
    print([b.tolist() for b in DataLoader(ds, batch_size=4, shuffle=True)])
g = torch.Generator().manual_seed(0)
print([b.tolist() for b in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])
tr, va = random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
print([int(tr[i]) for i in range(len(tr))], [int(va[i]) for i in range(len(va))])

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
    def forward(self, x):
        return self.fc(x)
m = MLP()
print(m.fc.weight)
print(m(torch.randn(2, 3)))

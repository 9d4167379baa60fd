# A residual MLP stack built from user modules in ModuleList / Sequential.
import torch
import torch.nn as nn


class Residual(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.act = nn.ReLU()

    def forward(self, x):
        return x + self.act(self.fc(x))


class Stack(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.blocks = nn.ModuleList()
        for _ in range(depth):
            self.blocks.append(Residual(dim))
        self.head = nn.Sequential(nn.Linear(dim, 1), nn.Sigmoid())

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)


model = Stack(4, 3)
print(model)
print(len(model.blocks), sum(p.numel() for p in model.parameters()))
for m in model.modules():
    if isinstance(m, nn.Linear):
        nn.init.zeros_(m.weight)
        nn.init.zeros_(m.bias)
out = model(torch.ones(2, 4))
print(out.shape, out.tolist())
print(model.blocks[1:].__class__.__name__, len(model.blocks[1:]))

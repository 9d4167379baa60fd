import torch
import torch.nn as nn
import torch.nn.functional as F

class B(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)
    def forward(self, x):
        return self.l(x)

class N(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([B() for _ in range(2)])
        self.seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        self.d = nn.ModuleDict({'a': nn.Tanh()})
        self.w = nn.Parameter(torch.zeros(3))
        self.register_buffer('m', torch.ones(2))
        self.none = None
    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.d['a'](self.seq(x))

n = N()
print(n)
print([k for k, _ in n.named_parameters()])
print(list(n.state_dict().keys()))
print(n.training, n.blocks[0].training, n.eval() is n, n.blocks[1].training, n.seq.training)
print([k for k, _ in n.named_modules()])
print(len(list(n.parameters())), sum(p.numel() for p in n.parameters()))
print(isinstance(n, nn.Module), isinstance(n.seq[0], nn.Linear), isinstance(n.w, nn.Parameter), isinstance(n.m, nn.Parameter))
print(n(torch.ones(4, 2)).shape)
print(n.none, n.w)
class MLP(nn.Module):
    def __init__(self, nin, nh, nout):
        super().__init__()
        self.fc1 = nn.Linear(nin, nh)
        self.fc2 = nn.Linear(nh, nout)
    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))
m = MLP(2, 8, 3)
print(m)
x = torch.ones(5, 2); y = torch.tensor([0, 1, 2, 0, 1])
opt = torch.optim.SGD(m.parameters(), lr=0.1)
loss = F.cross_entropy(m(x), y)
opt.zero_grad(); loss.backward(); opt.step()
print(m.fc1.weight.grad.shape, m.fc1.weight.grad is not None)
m.zero_grad()
print(m.fc1.weight.grad.abs().sum().item())
seen = []
h = m.register_forward_hook(lambda mod, inp, out: seen.append(type(mod).__name__))
m(x); h.remove(); m(x)
print(seen)
m.apply(lambda mod: seen.append(type(mod).__name__))
print(seen)

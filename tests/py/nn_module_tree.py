# nn.Module bookkeeping: registration of parameters, buffers and children,
# the printed tree, parameter names and counts, train/eval, apply, dir,
# containers (Sequential with OrderedDict, slicing, append; ModuleList,
# ModuleDict, ParameterList, ParameterDict) and the errors torch raises.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.ln = nn.LayerNorm(n)
        self.fc = nn.Linear(n, 2 * n)
        self.act = nn.GELU()
        self.drop = nn.Dropout(0.1)
        self.register_buffer("mask", torch.ones(n))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return self.drop(self.act(self.fc(self.ln(x * self.mask)))) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.blocks = nn.ModuleList([Block(4) for _ in range(2)])
        self.heads = nn.ModuleDict({"a": nn.Linear(8, 3), "b": nn.Linear(8, 1, bias=False)})
        self.seq = nn.Sequential(OrderedDict([("fc", nn.Linear(3, 3)), ("relu", nn.ReLU()),
                                              ("sm", nn.Softmax(dim=-1))]))
        self.bn = nn.BatchNorm1d(3)
        self.flat = nn.Flatten()
        self.extra = nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), torch.ones(4)])
        self.pd = nn.ParameterDict({"w": nn.Parameter(torch.zeros(3))})


net = Net()
print(net)
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
for name, b in net.named_buffers():
    print("buffer", name, tuple(b.shape), b.dtype)
print("n params", sum(p.numel() for p in net.parameters()))
print("children", [n for n, _ in net.named_children()])
print("modules", [n for n, _ in net.named_modules()])
print(list(net.state_dict().keys()))
print(type(net.state_dict()).__name__)

# a shared module and a shared parameter count once
shared = nn.Linear(2, 2)
twice = nn.Sequential(shared, nn.Tanh(), shared)
print(len(list(twice.parameters())), len(list(twice.modules())))
print(twice)

# indexing, slicing, len, append, insert, del
s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(len(s), s[0], s[-1])
print(s[1:])
s.append(nn.Sigmoid())
print(s)
del s[1]
print(s)
ml = nn.ModuleList()
ml.append(nn.Tanh())
ml.extend([nn.ReLU(), nn.Identity()])
ml.insert(1, nn.SiLU())
print(ml, len(ml), ml[-1])
md = net.heads
print(list(md.keys()), "a" in md, len(md))
print(net.extra)
print(net.pd)

# train / eval
net.eval()
print([m.training for m in net.modules()][:4])
net.train()
print(all(m.training for m in net.modules()))
try:
    net.train("yes")
except ValueError as e:
    print("ValueError", e)

# apply and requires_grad_
names = []
net.apply(lambda m: names.append(type(m).__name__))
print(names)
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))

# attribute errors and assignments
try:
    net.nothing
except AttributeError as e:
    print("AttributeError", e)
try:
    net.emb.weight = torch.zeros(10, 4)
except TypeError as e:
    print("TypeError", e)
try:
    net.blocks = 3
except TypeError as e:
    print("TypeError", e)
try:
    net.register_buffer("a.b", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
try:
    net.register_buffer("emb", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
try:
    s[7]
except IndexError as e:
    print("IndexError", e)


class Early(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.zeros(1))


try:
    Early()
except AttributeError as e:
    print("AttributeError", e)


class NoForward(nn.Module):
    pass


try:
    NoForward()(1)
except NotImplementedError as e:
    print("NotImplementedError", e)

net.emb = None
print("emb" in dict(net.named_children()), net.emb)
del net.bn
print([n for n, _ in net.named_children()])
net.plain = 3
print(net.plain, "plain" in net.__dict__)
d = dir(net)
print("forward" in d, "blocks" in d, "heads" in d, "0" in d)
print(nn.Linear(3, 4, bias=False))
print(nn.Identity(), nn.LeakyReLU(0.2), nn.ReLU(inplace=True), nn.Softplus(), nn.ELU())
print(nn.LayerNorm((2, 3), elementwise_affine=False), nn.Embedding(5, 2, padding_idx=0))
print(nn.BatchNorm1d(4, momentum=None), nn.Unflatten(1, (2, 2)), nn.LogSoftmax(1))
print(nn.CrossEntropyLoss(), nn.MSELoss(reduction="sum"), nn.BCEWithLogitsLoss())

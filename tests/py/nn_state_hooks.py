# state_dict round trips (keys, detached values, non-persistent buffers,
# strict=False results, the error listing missing/unexpected keys and size
# mismatches), dtype conversion of a module, deepcopy, and forward hooks.
import copy

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.bn = nn.BatchNorm1d(2)
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("cache", torch.ones(2), persistent=False)

    def forward(self, x):
        return self.bn(self.fc(x))


torch.manual_seed(0)
a = Net()
torch.manual_seed(1)
b = Net()
sd = a.state_dict()
print(list(sd.keys()))
print(sd["fc.weight"].requires_grad, sd["fc.weight"].grad_fn, type(sd["fc.weight"]).__name__)
print(a.state_dict(keep_vars=True)["fc.weight"].requires_grad)
print(b.load_state_dict(sd))
print(torch.equal(a.fc.weight, b.fc.weight), b.fc.weight.requires_grad)
print(a.state_dict(prefix="net.")["net.fc.bias"])

partial = {k: v for k, v in sd.items() if not k.startswith("bn.")}
partial["extra.weight"] = torch.zeros(1)
res = b.load_state_dict(partial, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
try:
    b.load_state_dict(partial)
except RuntimeError as e:
    print(e)
bad = dict(sd)
bad["fc.weight"] = torch.zeros(3, 3)
try:
    b.load_state_dict(bad)
except RuntimeError as e:
    print(e)
try:
    b.load_state_dict([1, 2])
except TypeError as e:
    print(e)
old = dict(sd)
del old["bn.num_batches_tracked"]
print(nn.BatchNorm1d(2).load_state_dict({k[3:]: v for k, v in old.items() if k.startswith("bn.")}))

# sub-module state dicts and named parameters with prefixes
print(list(a.fc.state_dict().keys()), [n for n, _ in a.named_parameters(prefix="m")])
print([n for n, _ in a.named_parameters(recurse=False)], [n for n, _ in a.named_buffers()])

# dtype conversion keeps the Parameter objects
w = a.fc.weight
a.double()
print(a.fc.weight.dtype, a.fc.weight is w, a.bn.running_mean.dtype, a.bn.num_batches_tracked.dtype)
a.float()
print(a.fc.weight.dtype, type(a.fc.weight).__name__)
a.to(torch.float64)
print(a.fc.bias.dtype)
print(a.to("cpu") is a, a.cpu() is a)
try:
    a.to(torch.int64)
except TypeError as e:
    print("TypeError", e)
try:
    a.cuda()
except AssertionError as e:
    print("AssertionError", e)
a.float()

# deepcopy makes independent parameters
c = copy.deepcopy(a)
print(c.fc.weight is a.fc.weight, torch.equal(c.fc.weight, a.fc.weight),
      type(c.fc.weight).__name__, c.fc.weight.requires_grad)
with torch.no_grad():
    c.fc.weight.fill_(0.0)
print(a.fc.weight.abs().sum().item() > 0)

# forward hooks and pre-hooks, removal, and their return values
calls = []


def pre(m, inp):
    calls.append(("pre", type(m).__name__, tuple(inp[0].shape)))
    return (inp[0] * 2,)


def post(m, inp, out):
    calls.append(("post", type(m).__name__, tuple(out.shape)))
    return out + 1


lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.eye(2))
    lin.bias.zero_()
h1 = lin.register_forward_pre_hook(pre)
h2 = lin.register_forward_hook(post)
print(lin(torch.ones(1, 2)))
h1.remove()
print(lin(torch.ones(1, 2)))
h2.remove()
print(lin(torch.ones(1, 2)))
print(calls)

# a hook that records activations of every layer
acts = {}
seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
handles = [m.register_forward_hook(lambda m, i, o, n=n: acts.__setitem__(n, tuple(o.shape)))
           for n, m in seq.named_children()]
seq(torch.randn(4, 2))
print(acts)
for h in handles:
    h.remove()
print(len(seq[0]._forward_hooks))

# Tensor.register_hook: leaves and non-leaves, replacement gradients, the
# order hooks run in, removal, errors raised in hooks, hooks with
# retain_grad, and Module.register_full_backward_hook built on them.
import torch
import torch.nn as nn

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
seen = []
h1 = x.register_hook(lambda g: seen.append(("first", g.tolist())))
h2 = x.register_hook(lambda g: g * 10)
h3 = x.register_hook(lambda g: seen.append(("third", g.tolist())))
(x * x).sum().backward()
print(seen, x.grad)
print(type(h1).__name__, type(h1).__module__)
h2.remove()
h2.remove()
x.grad = None
(x * 2).sum().backward()
print(x.grad)
h1.remove()
h3.remove()

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.register_hook(lambda g: g + 1)
b2 = a * 1
b2.retain_grad()
c = b * b + b2
c.register_hook(lambda g: print("c's grad", g))
c.sum().backward()
print(a.grad, b2.grad)


def bad_hook(g):
    raise KeyError("hook fails")


p = torch.tensor([1.0], requires_grad=True)
hb = p.register_hook(bad_hook)
try:
    (p * 2).sum().backward()
except KeyError as e:
    print("KeyError", e)
hb.remove()
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)

net = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[0.5, -0.5], [0.25, 1.0]]))
    net[0].bias.zero_()
    net[2].weight.copy_(torch.tensor([[1.0, -2.0]]))
    net[2].bias.fill_(0.5)
norms = {}
for name, prm in net.named_parameters():
    prm.register_hook(lambda g, name=name: norms.__setitem__(name, round(g.norm().item(), 4)))
hk = net[0].register_full_backward_hook(lambda m, gi, go: print("linear0", go[0].shape, gi))
net(torch.tensor([[1.0, 2.0], [0.5, -1.0]])).sum().backward()
print(sorted(norms.items()))
hk.remove()

# Backward hooks as PyTorch calls them: Tensor.register_hook on leaves and
# non-leaves (a returned tensor replaces the gradient; remove()), and
# register_full_backward_hook on builtin and user modules (the order of
# calls, grad_input and grad_output, a returned tuple replaces grad_input).
import torch
import torch.nn as nn

w = torch.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
x = torch.tensor([[0.5, -1.5]], requires_grad=True)
calls = []


def leaf_hook(g):
    calls.append("w")
    print("w grad in hook", g)
    return g * 2


h = w.register_hook(leaf_hook)
y = x @ w
y.register_hook(lambda g: calls.append("y") or print("y grad", g))
z = (y * y).sum()
z.register_hook(lambda g: calls.append("z") or print("z grad", g))
z.backward()
print("w.grad", w.grad)
print("x.grad", x.grad)
print(calls)
h.remove()
w.grad = None
(x @ w).sum().backward()
print("after remove", w.grad)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 3
b.register_hook(lambda g: g * 0 + 1)
b.sum().backward()
print("replaced non-leaf grad", a.grad)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.fc2 = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


net = Net()
with torch.no_grad():
    net.fc1.weight.copy_(torch.tensor([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]))
    net.fc1.bias.copy_(torch.tensor([0.01, 0.02, 0.03]))
    net.fc2.weight.copy_(torch.tensor([[0.7, -0.8, 0.9]]))
    net.fc2.bias.copy_(torch.tensor([0.05]))
order = []


def named(name):
    def hook(m, gin, gout):
        order.append(name)
        print(name, type(m).__name__, [None if g is None else tuple(g.shape) for g in gin],
              [tuple(g.shape) for g in gout])
        print("  grad_input", gin)
        print("  grad_output", gout)
    return hook


handles = [net.fc1.register_full_backward_hook(named("fc1")),
           net.fc2.register_full_backward_hook(named("fc2")),
           net.register_full_backward_hook(named("net"))]
inp = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
net(inp).sum().backward()
print(order)
print(net.fc1.weight.grad)
for hd in handles:
    hd.remove()


def scale(m, gin, gout):
    return tuple(None if g is None else g * 10 for g in gin)


hs = net.fc2.register_full_backward_hook(scale)
net.zero_grad()
net(inp).sum().backward()
print("scaled", net.fc1.weight.grad)
hs.remove()
xi = torch.tensor([[1.0, 2.0]], requires_grad=True)
hh = net.fc1.register_full_backward_hook(named("fc1 with input grad"))
net(xi).sum().backward()
print(xi.grad)

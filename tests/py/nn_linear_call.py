"""Calling an nn.Linear: every way a script can change what the call does
must still change it (nndb makes the plain call from C, binding/py_nn.c
linear_direct). Each line prints values, so nndb and PyTorch must agree."""
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
lin = nn.Linear(3, 2)
x = torch.randn(4, 3)


def show(tag, y):
    print(tag, [round(v, 4) for v in y.flatten().tolist()], y.grad_fn is not None)


show("plain", lin(x))
show("functional", F.linear(x, lin.weight, lin.bias))
print("same", torch.equal(lin(x), F.linear(x, lin.weight, lin.bias)))

# hooks: forward pre-hook replacing the input, forward hook replacing the output
h1 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 2,))
h2 = lin.register_forward_hook(lambda m, inp, out: out + 1)
show("hooked", lin(x))
h1.remove()
h2.remove()
show("unhooked", lin(x))
calls = []
g = nn.modules.module.register_module_forward_hook(lambda m, i, o: calls.append(type(m).__name__))
lin(x)
g.remove()
lin(x)
print("global hook calls", calls)

# a subclass with its own forward, and one that keeps Linear's
class Doubled(nn.Linear):
    def forward(self, input):
        return super().forward(input) * 2


class Same(nn.Linear):
    pass


torch.manual_seed(0)
show("subclass", Doubled(3, 2)(x))
torch.manual_seed(0)
show("subclass same", Same(3, 2)(x))

# forward replaced on the instance
lin2 = nn.Linear(3, 2)
lin2.forward = lambda input: torch.zeros(1)
show("instance forward", lin2(x))
del lin2.forward
print("restored", lin2(x).shape)

# F.linear replaced: Linear.forward calls whatever F.linear is
orig = F.linear
F.linear = lambda input, weight, bias=None: orig(input, weight, bias) - 10
show("patched F.linear", lin(x))
F.linear = orig
show("F.linear restored", lin(x))

# the weight no longer a parameter (torch.nn.utils.prune's way)
lin3 = nn.Linear(3, 2)
w = lin3.weight.detach().clone()
del lin3._parameters["weight"]
lin3.weight = w * 0
show("weight attribute", lin3(x))

# no bias; keyword input; wrong inputs give the same errors
lin4 = nn.Linear(3, 2, bias=False)
torch.manual_seed(1)
show("no bias", lin4(x))
show("keyword", lin(input=x))
for bad in (torch.randn(4, 5), "text", None):
    try:
        lin(bad)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0][:60])
try:
    lin(x, x)
except TypeError as e:
    print("TypeError", "positional" in str(e))

# gradients reach the parameters through the direct call
lin.zero_grad()
lin(x).sum().backward()
print("grads", [round(v, 4) for v in lin.weight.grad.flatten().tolist()], lin.bias.grad.tolist())

# a trace function sees Linear.forward's frame
seen = []


def tracer(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "forward":
        seen.append(frame.f_code.co_name)
    return None


sys.settrace(tracer)
lin(x)
sys.settrace(None)
print("traced forward frames", seen)

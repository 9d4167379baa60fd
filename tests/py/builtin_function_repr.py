"""repr of torch's functions as a learner prints them: the functions of torch._C read "<built-in method add of type object at 0x...>" as PyTorch's static methods of torch._C._VariableFunctionsClass do, those nndb writes in Python and wraps for out= (torch.addmm, torch.kron) read the same, and __module__ is "torch". Addresses are masked; the function still calls, with and without out=, and functions stay unequal to each other."""
import re
import torch
import torch.nn.functional as F


def show(obj):
    print(re.sub(r"0x[0-9a-f]+", "0x", repr(obj)))


for fn in [torch.add, torch.matmul, torch.zeros, torch.tensor, torch.relu, torch.cat, torch.randn, torch.sum,
           torch.mean, torch.max, torch.tanh, torch.sigmoid, torch.exp, torch.softmax, torch.stack, torch.where,
           torch.addmm, torch.kron, torch.cross, torch.logspace, torch.nansum]:
    show(fn)
    print(fn.__name__, fn.__module__, type(fn).__name__)
show(F.relu)
show(F.softmax)
x = torch.ones(2)
show(x.add)
show(x.sum)
print(torch.add == torch.add, torch.add == torch.sub, torch.add != torch.mul, len({torch.add, torch.sub, torch.add}))
out = torch.empty(2)
print(torch.add(x, x), torch.add(x, x, out=out), out)
print(torch.kron(x, x), torch.kron(x, x, out=torch.empty(4)))
activations = {torch.relu: "relu", torch.tanh: "tanh"}
print(activations[torch.tanh])

# The autograd graph as PyTorch's tutorials walk it: type(t.grad_fn) is a
# class per node name, next_functions gives each input's node (a leaf's
# AccumulateGrad with .variable, None for a constant), name() as PyTorch.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(4, 5)
y = torch.zeros(4, 3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = F.binary_cross_entropy_with_logits(z, y)
print(type(loss.grad_fn), type(z.grad_fn).__name__, type(z.grad_fn).__module__)


def walk(fn, depth=0):
    pad = "  " * depth
    if fn is None:
        print(pad + "None")
        return
    print(pad + fn.name(), type(fn).__name__, len(fn.next_functions))
    if hasattr(fn, "variable"):
        v = fn.variable
        print(pad + "  variable", tuple(v.shape), v.requires_grad, v.is_leaf,
              torch.equal(v, w) if v.shape == w.shape else torch.equal(v, b))
    for f, i in fn.next_functions:
        print(pad + " index", i)
        walk(f, depth + 1)


walk(loss.grad_fn)

a = torch.tensor([2.0, 3.0], requires_grad=True)
c = a * a
f0, f1 = c.grad_fn.next_functions
print("same leaf node:", f0[0] == f1[0], f0[0] != f1[0])
d = (a.exp() * 2 + a.tanh()).sum()
print([type(f).__name__ for f, _ in d.grad_fn.next_functions])
print([[None if g is None else g.name() for g, _ in f.next_functions]
       for f, _ in d.grad_fn.next_functions[0][0].next_functions])
print(type(d.grad_fn) is type((a * 3).sum().grad_fn), isinstance(d.grad_fn, type(d.grad_fn)))
print(AttributeError.__name__ if not hasattr(d.grad_fn, "variable") else "has variable")
h = torch.relu(torch.randn(3, 3, requires_grad=True) @ torch.randn(3, 3)).mean()
print(h.grad_fn.name(), h.grad_fn.next_functions[0][0].name(),
      h.grad_fn.next_functions[0][0].next_functions[0][0].name())
h.backward()
print("after backward:", h.grad_fn.name())
v = torch.randn(5, 3, requires_grad=True)
print(torch.matmul(torch.ones(5), v).grad_fn.name(), torch.matmul(v.t(), torch.ones(5)).grad_fn.name(),
      (torch.ones(2, 5) @ v).grad_fn.name(), (torch.ones(4, 2, 5) @ v).grad_fn.name(),
      (torch.ones(5) @ torch.ones(5, requires_grad=True)).grad_fn.name())

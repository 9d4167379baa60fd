"""A leaf's .grad is accumulated in place, as PyTorch's AccumulateGrad does
outside create_graph: a reference taken before a second backward sees the
sum and stays the .grad (`is`), views of it see it too, the in-place add
bumps its version, and the fast paths (a Linear's weight gradient added by
its gemm, an embedding's scatter-add, a weight reached twice in one pass)
keep the same object. Compared line for line with PyTorch."""
import torch

torch.manual_seed(0)

# a plain leaf: the held tensor sees the accumulation
w = torch.ones(3, requires_grad=True)
(w * 2).sum().backward()
g = w.grad
(w * 3).sum().backward()
print("held", g, g is w.grad, w.grad is w.grad)

# a view of the gradient sees it too
v = w.grad.view(3)[:2]
(w * 4).sum().backward()
print("view", v, w.grad)

# the in-place add bumps the version (a saved tensor would be checked against it)
before = w.grad._version
(w * 5).sum().backward()
print("version grows", w.grad._version > before)

# a Linear's weight gradient (the gemm's beta-1 path), an Embedding's scatter-add,
# and a weight used twice in one pass (old + (g1 + g2))
lin = torch.nn.Linear(4, 3)
emb = torch.nn.Embedding(10, 4)
idx = torch.tensor([[1, 2, 2], [3, 1, 0]])
x = torch.randn(5, 4)


def step():
    e = emb(idx).sum(1)
    return (lin(x).pow(2).sum() + lin(e).sum() + (lin.weight * lin.weight).sum())


step().backward()
held = [lin.weight.grad, lin.bias.grad, emb.weight.grad]
step().backward()
print("same objects", [h is p.grad for h, p in zip(held, [lin.weight, lin.bias, emb.weight])])
print("held values", [round(float(h.sum()), 4) for h in held])
print("grad values", [round(float(p.grad.sum()), 4) for p in (lin.weight, lin.bias, emb.weight)])

# a gradient the user assigned is added into where it is
buf = torch.zeros(3)
w2 = torch.ones(3, requires_grad=True)
w2.grad = buf
(w2 * 7).sum().backward()
print("assigned", buf, w2.grad is buf)

# set_to_none: the next backward makes a new tensor; the old one keeps its values
opt = torch.optim.SGD([w2], lr=0.1)
old = w2.grad
opt.zero_grad(set_to_none=True)
(w2 * 2).sum().backward()
print("after set_to_none", old, w2.grad, old is w2.grad)

# zero_grad without set_to_none zeroes in place and keeps the object
opt.zero_grad(set_to_none=False)
print("zeroed", old, w2.grad)
kept = w2.grad
(w2 * 3).sum().backward()
print("kept after zero_grad", kept is w2.grad, kept)

# a gradient held while a micro-batch loop accumulates (gradient accumulation)
model = torch.nn.Linear(3, 1)
data = torch.randn(8, 3)
model(data[:1]).sum().backward()
model.zero_grad(set_to_none=False)
wg = model.weight.grad
for chunk in data.split(2):
    model(chunk).sum().backward()
print("micro-batches", wg is model.weight.grad, [round(float(t), 4) for t in wg.flatten()])

# a gradient with requires_grad under create_graph is a new tensor, as in PyTorch
z = torch.ones(2, requires_grad=True)
(z * z).sum().backward(create_graph=True)
first = z.grad
(z * z).sum().backward(create_graph=True)
print("create_graph", first.tolist(), z.grad.tolist(), first is z.grad, z.grad.requires_grad)

# out=: a function given out=TENSOR writes its result there and returns
# that tensor, as PyTorch does (nndb used to parse out= and ignore it, so
# torch.add(a, b, out=c) left c as it was). The result's type must cast to
# out's dtype; out is resized when its shape differs (PyTorch warns on
# stderr when it had elements); a view given as out writes through to its
# base; and while grad mode is on a result that requires grad is refused.
import torch

x = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
cases = [
    ("exp", lambda o: torch.exp(x, out=o)),
    ("sqrt", lambda o: torch.sqrt(x.abs(), out=o)),
    ("add", lambda o: torch.add(x, 1, out=o)),
    ("add alpha", lambda o: torch.add(x, x, alpha=2, out=o)),
    ("mul", lambda o: torch.mul(x, x, out=o)),
    ("clamp", lambda o: torch.clamp(x, -1, 1, out=o)),
    ("where", lambda o: torch.where(x > 0, x, torch.zeros(2, 2), out=o)),
    ("mm", lambda o: torch.mm(x, x, out=o)),
    ("matmul", lambda o: torch.matmul(x, x, out=o)),
    ("pow", lambda o: torch.pow(x, 2, out=o)),
    ("neg", lambda o: torch.neg(x, out=o)),
]
for name, f in cases:
    o = torch.full((2, 2), 7.0)
    r = f(o)
    print(name, o.tolist(), r is o)

# reductions, joins, other shapes: out is resized to the result
for name, f, shape in [
    ("sum dim", lambda o: torch.sum(x, 0, out=o), (2,)),
    ("mean dim", lambda o: torch.mean(x, 1, out=o), (2,)),
    ("cat", lambda o: torch.cat([x, x], out=o), (4, 2)),
    ("stack", lambda o: torch.stack([x, x], out=o), (2, 2, 2)),
    ("bmm", lambda o: torch.bmm(x[None], x[None], out=o), (1, 2, 2)),
    ("empty out", lambda o: torch.mul(x, 2, out=o), (0,)),
    ("resized", lambda o: torch.mul(x, 2, out=o), (3,)),
]:
    o = torch.zeros(shape)
    r = f(o)
    print(name, tuple(o.shape), o.tolist(), r is o)

# a view given as out writes through to its base
base = torch.zeros(2, 4)
torch.add(x, 10, out=base[:, 1:3])
print("view", base.tolist())
col = torch.zeros(2, 3)
torch.mm(x, torch.ones(2, 1), out=col[:, 2:])
print("mm view", col.tolist())

# dtype: the result must cast to out's dtype
d = torch.zeros(2, 2, dtype=torch.float64)
torch.add(x, 1, out=d)
print("float64 out", d.dtype, d.tolist())
i = torch.zeros(2, 2, dtype=torch.int64)
torch.add(torch.tensor([[1, 2], [3, 4]]), 1, out=i)
print("int64 out", i.tolist())
try:
    torch.add(x, 1, out=torch.zeros(2, 2, dtype=torch.int64))
except RuntimeError as e:
    print("RuntimeError:", e)

# autograd: refused while grad mode is on, allowed under no_grad
a = torch.ones(2, 2, requires_grad=True)
for name, f in [("add", lambda: torch.add(a, 1, out=torch.empty(2, 2))),
                ("mul", lambda: torch.mul(a, a, out=torch.empty(2, 2))),
                ("mm", lambda: torch.mm(a, a, out=torch.empty(2, 2))),
                ("matmul", lambda: torch.matmul(a, a, out=torch.empty(2, 2))),
                ("sum", lambda: torch.sum(a, 0, out=torch.empty(2))),
                ("cat", lambda: torch.cat([a, a], out=torch.empty(4, 2)))]:
    try:
        f()
        print(name, "accepted")
    except RuntimeError as e:
        print(name, "RuntimeError:", e)
with torch.no_grad():
    o = torch.empty(2, 2)
    torch.mm(a, a, out=o)
    print("no_grad", o.tolist(), o.requires_grad)
# out=None is no out
print("None", torch.add(x, 1, out=None).tolist())

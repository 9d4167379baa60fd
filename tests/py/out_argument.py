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

# Each of PyTorch's kernels checks out's dtype its own way: most accept any
# dtype the result casts to, the mm family and neg/abs/floor/clamp want the
# result's dtype exactly, sum/prod/cumsum (and mean/std/var/logsumexp into
# a float out) compute in out's dtype, factories create in it, and a dozen
# others have their own words. One message per line.
xf = torch.tensor([[1.5, 2.0], [3.0, 4.0]])
xi = torch.tensor([[1, 2], [3, 4]])
half = torch.tensor([[0.6, 0.6], [0.6, 0.6]])
calls = [
    ("exp", lambda a, o: torch.exp(a, out=o)),
    ("add", lambda a, o: torch.add(a, a, out=o)),
    ("div", lambda a, o: torch.div(a, 3, out=o)),
    ("neg", lambda a, o: torch.neg(a, out=o)),
    ("abs", lambda a, o: torch.abs(a, out=o)),
    ("floor", lambda a, o: torch.floor(a, out=o)),
    ("sign", lambda a, o: torch.sign(a, out=o)),
    ("square", lambda a, o: torch.square(a, out=o)),
    ("clamp", lambda a, o: torch.clamp(a, 0, 3, out=o)),
    ("pow scalar", lambda a, o: torch.pow(a, 2, out=o)),
    ("pow tensor", lambda a, o: torch.pow(a, a, out=o)),
    ("where", lambda a, o: torch.where(a > 2, a, a, out=o)),
    ("addcmul", lambda a, o: torch.addcmul(a, a, a, out=o)),
    ("mm", lambda a, o: torch.mm(a, a, out=o)),
    ("bmm", lambda a, o: torch.bmm(a[None], a[None], out=o)),
    ("mv", lambda a, o: torch.mv(a, a[0], out=o)),
    ("matmul", lambda a, o: torch.matmul(a, a, out=o)),
    ("matmul mv", lambda a, o: torch.matmul(a, a[0], out=o)),
    ("matmul dot", lambda a, o: torch.matmul(a[0], a[0], out=o)),
    ("dot", lambda a, o: torch.dot(a[0], a[0], out=o)),
    ("outer", lambda a, o: torch.outer(a[0], a[0], out=o)),
    ("inner", lambda a, o: torch.inner(a, a, out=o)),
    ("tril", lambda a, o: torch.tril(a, out=o)),
    ("gather", lambda a, o: torch.gather(a, 0, torch.tensor([[0, 1]]), out=o)),
    ("index_select", lambda a, o: torch.index_select(a, 0, torch.tensor([0]), out=o)),
    ("masked_select", lambda a, o: torch.masked_select(a, a > 2, out=o)),
    ("diag", lambda a, o: torch.diag(a, out=o)),
    ("nonzero", lambda a, o: torch.nonzero(a, out=o)),
    ("argmax", lambda a, o: torch.argmax(a, 0, out=o)),
    ("sum", lambda a, o: torch.sum(a, 0, out=o)),
    ("prod", lambda a, o: torch.prod(a, 0, out=o)),
    ("cumsum", lambda a, o: torch.cumsum(a, 0, out=o)),
    ("mean", lambda a, o: torch.mean(a, 0, out=o)),
    ("amax", lambda a, o: torch.amax(a, 0, out=o)),
    ("all", lambda a, o: torch.all(a, 0, out=o)),
    ("std", lambda a, o: torch.std(a, 0, out=o)),
    ("nan_to_num", lambda a, o: torch.nan_to_num(a, out=o)),
    ("float_power", lambda a, o: torch.float_power(a, 2, out=o)),
    ("cat", lambda a, o: torch.cat([a, a], out=o)),
    ("stack", lambda a, o: torch.stack([a, a], out=o)),
    ("eq", lambda a, o: torch.eq(a, a, out=o)),
]
for name, f in calls:
    got = []
    for a, dt in [(xf, torch.float64), (xf, torch.int64), (xf, torch.bool), (xi, torch.float32),
                  (xi, torch.int32), (half, torch.int64)]:
        try:
            o = torch.empty(0, dtype=dt)
            f(a, o)
            got.append(str(o.dtype).replace("torch.", "") + " " + str(o.flatten().tolist()[:2]))
        except Exception as e:
            got.append(type(e).__name__ + ": " + str(e).split("\n")[0])
    print(name, "|", " | ".join(got))
for name, f in [("softmax", torch.softmax), ("log_softmax", torch.log_softmax)]:
    for dt in (torch.float64, torch.int64, torch.float32):
        try:
            o = torch.empty(0, dtype=dt)
            f(xf, 0, out=o)
            print(name, o.dtype, o.tolist())
        except RuntimeError as e:
            print(name, "RuntimeError:", e)
# float ins into a float64 out compute in float64 where PyTorch does
xs = torch.tensor([[0.1, 0.7, 1.3], [2.2, 3.3, 0.4]])
for name, f in [("mean", torch.mean), ("sum", torch.sum), ("std", torch.std),
                ("var", torch.var), ("prod", torch.prod)]:
    o = torch.empty(0, dtype=torch.float64)
    f(xs, 1, out=o)
    print(name, "float64 out", o.tolist())
# factories create in out's dtype
for name, f in [("arange", lambda o: torch.arange(3.0, out=o)),
                ("linspace", lambda o: torch.linspace(0, 1, 3, out=o)),
                ("zeros", lambda o: torch.zeros(2, out=o)),
                ("ones", lambda o: torch.ones(2, out=o)),
                ("full", lambda o: torch.full((2,), 1.5, out=o)),
                ("eye", lambda o: torch.eye(2, out=o)),
                ("randn", lambda o: torch.randn(2, out=o)),
                ("rand", lambda o: torch.rand(2, out=o))]:
    for dt in (torch.int64, torch.int32):
        try:
            o = torch.empty(0, dtype=dt)
            f(o)
            print(name, o.dtype, o.tolist())
        except RuntimeError as e:
            print(name, "RuntimeError:", e)

# out must be a tensor; add, sub, mul and div take a number (a 0-dim
# tensor to PyTorch, so the cast check decides)
for name, f in [("exp int", lambda: torch.exp(x, out=3)),
                ("exp float", lambda: torch.exp(x, out=1.5)),
                ("mm int", lambda: torch.mm(x, x, out=3)),
                ("matmul str", lambda: torch.matmul(x, x, out="o")),
                ("where list", lambda: torch.where(x > 0, x, x, out=[torch.zeros(2, 2)])),
                ("neg tuple", lambda: torch.neg(x, out=(torch.zeros(2, 2),))),
                ("add int", lambda: torch.add(x, 1, out=3)),
                ("sub int", lambda: torch.sub(x, 1, out=3)),
                ("mul float", lambda: torch.mul(x, 1, out=2.5)),
                ("multiply bool", lambda: torch.multiply(x, 1, out=True)),
                ("add int into int", lambda: torch.add(torch.tensor([1, 2]), 1, out=3)),
                ("neg int", lambda: torch.neg(x, out=3)),
                ("relu", lambda: torch.relu(x, out=torch.zeros(2, 2))),
                ("flatten", lambda: torch.flatten(x, out=torch.zeros(4))),
                ("trace", lambda: torch.trace(x, out=torch.zeros(()))),
                ("clone", lambda: torch.clone(x, out=torch.zeros(2, 2)))]:
    try:
        r = f()
        print(name, "->", r.dtype, r.tolist())
    except Exception as e:
        print(name, type(e).__name__ + ":", e)

# out sharing memory with an input
def mk():
    return torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = mk()
for name, f in [("add into a", lambda a: torch.add(a, b, out=a)),
                ("mul a a into a", lambda a: torch.mul(a, a, out=a)),
                ("exp into a", lambda a: torch.exp(a, out=a)),
                ("clamp into a", lambda a: torch.clamp(a, 2, 3, out=a)),
                ("where into a", lambda a: torch.where(a > 2, a, b, out=a)),
                ("cumsum into a", lambda a: torch.cumsum(a, 0, out=a)),
                # PyTorch's mm zeroes out before the product: an operand
                # that is out reads zeros
                ("mm into a", lambda a: torch.mm(a, b, out=a)),
                ("mm into b side", lambda a: torch.mm(b, a, out=a)),
                ("matmul into a", lambda a: torch.matmul(a, a, out=a)),
                ("mm into a.t()", lambda a: torch.mm(a, b, out=a.t())),
                ("mv into a row", lambda a: torch.mv(a, a[0], out=a[0])),
                # a partial overlap is refused, a strided one is not looked at
                ("add into a.t()", lambda a: torch.add(a, 1, out=a.t())),
                ("add shifted", lambda a: torch.add(a[0], 1, out=a.view(-1)[1:3])),
                ("exp into a.t()", lambda a: torch.exp(a, out=a.t())),
                ("add row into column", lambda a: torch.add(a[0], 1, out=a[:, 0])),
                ("cat into a", lambda a: torch.cat([a[:1], a[1:]], out=a)),
                ("stack into a", lambda a: torch.stack([a[0], a[1]], out=a)),
                # an expanded out writes an element twice
                ("add expanded", lambda a: torch.add(a, 1, out=torch.zeros(2).expand(2, 2))),
                ("mm expanded", lambda a: torch.mm(a, a, out=torch.zeros(2).expand(2, 2))),
                ("softmax expanded", lambda a: torch.softmax(a, 0, out=torch.zeros(2).expand(2, 2))),
                ("tril expanded", lambda a: torch.tril(a, out=torch.zeros(2).expand(2, 2)))]:
    a = mk()
    try:
        f(a)
        print(name, a.tolist())
    except RuntimeError as e:
        print(name, "RuntimeError:", e)
# an out that requires grad is refused while grad mode is on
try:
    torch.add(x, 1, out=torch.zeros(2, 2, requires_grad=True))
except RuntimeError as e:
    print("out requires grad:", e)
with torch.no_grad():
    o = torch.zeros(2, 2, requires_grad=True)
    torch.add(x, 1, out=o)
    print("out requires grad, no_grad:", o.tolist())

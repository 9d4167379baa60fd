# In-place writes through views of tensors with autograd history, as
# PyTorch 1.13 records them: the base takes a CopySlices history, the view
# becomes a view of it (AsStridedBackward0), other views of the base taken
# before the write get their history regenerated; Tensor._base and
# _is_view(); PyTorch's refusals (a view of a leaf, multi-output views,
# views made in no_grad mode, expanded views). Gradients are printed in
# float64 to 6 decimals and compared with PyTorch's by the side-by-side run.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DT = torch.float64


def r(t):
    return None if t is None else [round(v, 6) for v in t.detach().reshape(-1).tolist()]


def err(f):
    try:
        f()
        return "no error"
    except Exception as e:
        return f"{type(e).__name__}: {e}"


def name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


# ---- the task's example ----
x = torch.randn(3, 4, requires_grad=True, dtype=DT)
y = x * 2
y[:, 1].mul_(3)
y.sum().backward()
print("example", r(x.grad), name(y))
v = y.view(-1)
print("base", v._base is y, v._is_view(), y._base, y._is_view(), x._base, x._is_view())

# ---- every view maker with every in-place op ----
VIEWS = [
    ("none", lambda y: y),  # no view: the plain in-place path
    ("col", lambda y: y[:, 1]),
    ("row", lambda y: y[1]),
    ("block", lambda y: y[0:2, 1:3]),
    ("step", lambda y: y[::2]),
    ("flat", lambda y: y.view(-1)),
    ("reshape", lambda y: y.reshape(4, 3)),
    ("t", lambda y: y.t()),
    ("transpose_slice", lambda y: y.transpose(0, 1)[1:]),
    ("permute", lambda y: y.permute(1, 0)),
    ("narrow", lambda y: y.narrow(1, 1, 2)),
    ("unsqueeze", lambda y: y.unsqueeze(0)),
    ("squeeze", lambda y: y.unsqueeze(0).squeeze(0)[2]),
    ("none_index", lambda y: y[None, :, 2]),
    ("expand1", lambda y: y[0:1].expand(1, 4)),
    ("chain", lambda y: y.view(2, 6)[1].view(2, 3)[0]),
    ("t_row", lambda y: y[1:].t()[0]),
]

OPS = [
    ("mul_", lambda v, w: v.mul_(w)),
    ("add_", lambda v, w: v.add_(w)),
    ("sub_alpha", lambda v, w: v.sub_(w, alpha=2)),
    ("div_", lambda v, w: v.div_(w)),
    ("zero_", lambda v, w: v.zero_()),
    ("fill_", lambda v, w: v.fill_(1.5)),
    ("copy_", lambda v, w: v.copy_(w.expand(v.shape) * 3)),
    ("clamp_", lambda v, w: v.clamp_(-0.5, 0.5)),
    ("relu_", lambda v, w: v.relu_()),
    ("torch.relu_", lambda v, w: torch.relu_(v)),
    ("F.relu", lambda v, w: F.relu(v, inplace=True)),
    ("nn.ReLU", lambda v, w: nn.ReLU(inplace=True)(v)),
    ("masked_fill_", lambda v, w: v.masked_fill_(v > 0, 0.25)),
    ("iadd", lambda v, w: v.__iadd__(w)),
    ("isub", lambda v, w: v.__isub__(w)),
    ("imul", lambda v, w: v.__imul__(w)),
    ("idiv", lambda v, w: v.__itruediv__(w)),
    ("exp_", lambda v, w: v.exp_()),
    ("tanh_", lambda v, w: v.tanh_()),
    ("sigmoid_", lambda v, w: v.sigmoid_()),
    ("pow_", lambda v, w: v.pow_(2)),
    ("neg_", lambda v, w: v.neg_()),
]

x0 = torch.randn(3, 4, dtype=DT)
c = torch.randn(3, 4, dtype=DT)
w0 = torch.tensor(1.7, dtype=DT)
for vname, make in VIEWS:
    for oname, op in OPS:
        x = x0.clone().requires_grad_()
        w = w0.clone().requires_grad_()
        y = x * 2
        v = make(y)
        out = op(v, w)
        same = out is v
        # the view's new history and the base's both count
        loss = (y * c).sum() + (v * v).sum()
        loss.backward()
        print(vname, oname, same, name(y), name(v), v._base is y, r(x.grad), r(w.grad))

# ---- operands that require grad, of the view's shape ----
x = torch.randn(3, 4, requires_grad=True, dtype=DT)
u = torch.randn(4, requires_grad=True, dtype=DT)
y = x.sin()
y[1].mul_(u)
y.t()[2].add_(u[:3])
y[:, 0] += u[1:]
y.sum().backward()
print("operands", r(x.grad), r(u.grad))

# ---- finite differences ----
def f(x, u):
    y = x * 2
    y[:, 1].mul_(u[:3])
    y.t()[0].add_(u[1:])
    y.view(-1)[5:9].div_(u)
    z = y.narrow(0, 1, 2)
    z.clamp_(-1.0, 1.0)
    return (y * y).sum() + z.sum()


print("gradcheck", torch.autograd.gradcheck(f, (torch.randn(3, 4, dtype=DT, requires_grad=True),
                                               torch.rand(4, dtype=DT, requires_grad=True) + 0.5)))

# ---- views of a base without history; views of views ----
b = torch.zeros(3, 4, dtype=DT)
w = torch.ones(4, requires_grad=True, dtype=DT)
v1, v2 = b[0], b[:, 1:3]
print("plain before", v2.requires_grad, name(v2), b.t()._base is b, b.t().t()._base is b)
v1.mul_(w)
v1.add_(w)
print("plain after", name(b), name(v1), v2.requires_grad, name(v2), b.requires_grad)
(b * b).sum().backward()
print("plain grad", r(w.grad))

# ---- other views of the same base taken before the write ----
x = torch.randn(3, 4, requires_grad=True, dtype=DT)
y = x * 2
a, col = y[0], y[:, 1]
a.mul_(3)
print("stale", name(col), col.requires_grad)
col.sum().backward()
print("stale grad", r(x.grad))
x.grad = None
y = x * 2
row = y[1]
y.mul_(3)  # a write to the base itself
(row * row).sum().backward()
print("stale base write", r(x.grad), name(row))
x.grad = None
y = x * 2
row = y[1]
y[1, 2] = 7.0
print("stale setitem", name(y), name(row))
(row * row).sum().backward()
print("stale setitem grad", r(x.grad))

# ---- indexed assignment and augmented assignment through views ----
x = torch.randn(3, 4, requires_grad=True, dtype=DT)
w = torch.randn(4, requires_grad=True, dtype=DT)
y = x * 2
y[0] += w
y[1] *= w
v = y[2]
v += w
v[1] = 5.0
print("augmented", name(y), name(v))
(y * y).sum().backward()
print("augmented grad", r(x.grad), r(w.grad))

# ---- tensors that are no views ----
z = torch.zeros(3, 4)
print("not views", z.t().reshape(12)._base, z.t().contiguous()._base, z.detach()._base,
      z.detach()._is_view(), z.data._base, z.clone()._is_view(), (z + 1)._is_view())
xl = torch.randn(3, requires_grad=True)
print("leaf views", xl[0]._base is xl, xl.view(3, 1)._base is xl, xl[1:].view(2)[0]._base is xl)

# ---- PyTorch's refusals ----
x = torch.randn(3, 4, requires_grad=True)
print(err(lambda: x[0].mul_(2)))
print(err(lambda: x.t().add_(1)))
print(err(lambda: (x * 2).unbind(0)[0].mul_(2)))
print(err(lambda: (x * 2).split(2)[1].add_(1)))
print(err(lambda: (x * 2).chunk(2)[0].zero_()))
print(err(lambda: (x * 2).unbind(1)[2][0:2].mul_(2)))
y = x * 2
with torch.no_grad():
    v = y[0]
print(err(lambda: v.mul_(2)))
y = x * 2
with torch.no_grad():
    v = y[0]
y.mul_(2)
print(err(lambda: (v * 2).sum()))
print(err(lambda: v.grad_fn))
z = torch.zeros(3)
with torch.no_grad():
    vz = z[0:2]
print(err(lambda: vz.mul_(torch.ones(2, requires_grad=True))))
y = x * 2
a, b2, c2 = y.unbind(0)
y.mul_(2)
print(err(lambda: a.grad_fn))
print(err(lambda: (b2 * 2).sum()))
y = x * 2
p = y.split(2)[0]
y[2].mul_(2)
print(err(lambda: p.grad_fn))
y = x * 2
print(err(lambda: y[0].expand(3, 4).mul_(2)))
# in no_grad mode everything goes, and nothing is recorded
with torch.no_grad():
    x[0].mul_(1)
    y = x * 2
    y[0].mul_(2)
    v = y[1]
    v.add_(1)
print("no_grad", y.grad_fn, y.requires_grad)

# ---- unbind outputs not written stay usable ----
x = torch.randn(3, 4, requires_grad=True, dtype=DT)
a, b2, c2 = (x * 2).unbind(0)
(a * b2).sum().backward()
print("unbind ok", r(x.grad))

# ---- no cycle: a tensor without history that takes one by an in-place
# write (z += w, z[0] = w, z[0].mul_(w)) and its history free each other
# (the write's node held z itself; 400 rounds of 4 x 160 KiB would grow
# the peak by ~250 MiB) ----
import resource


def rounds(n):
    for _ in range(n):
        w = torch.ones(200, 200, requires_grad=True)
        z = torch.zeros(200, 200)
        z += w
        z2 = torch.zeros(200, 200)
        z2[0] = w[0]
        z3 = torch.zeros(200, 200)
        z3[1].mul_(w[1])
        z4 = torch.zeros(200, 200)
        z4.t()[2].copy_(w[2])
        (z.sum() + z2.sum() + z3.sum() + z4.sum()).backward()


rounds(20)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rounds(400)
print("no cycle", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 60 * 1024)

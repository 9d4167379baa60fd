# Reductions and scans: sum/mean/prod/var/std/norm/logsumexp, max/min as
# torch.return_types, amax/amin, argmax, all/any, cumsum/cumprod, median,
# softmax; dtypes, grads and errors.
import torch


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 0.5, -6.0]])
i = torch.tensor([[1, 2, 3], [4, 5, 6]])
b = torch.tensor([[True, False, True], [False, False, True]])

print("sum", x.sum(), x.sum(0), x.sum(dim=1, keepdim=True), x.sum((0, 1)), torch.sum(x, -1))
print("sum keepdims", x.sum(1, keepdims=True).shape)
print("sum int", i.sum(), i.sum(0).dtype, b.sum(), b.sum(1), i.sum(dtype=torch.float64))
print("mean", x.mean(), x.mean(0), torch.mean(x, 1, True), i.mean(dtype=torch.float32))
show("mean int", lambda: i.mean())
print("prod", x.prod(), x.prod(1), i.prod(0), torch.prod(x, 0, keepdim=True), b.prod())
print("var", x.var(), x.var(0), x.var(1, unbiased=False), x.var(False), x.var(1, correction=0))
print("std", x.std(), x.std(dim=0), torch.std(x, 1, keepdim=True))
print("var_mean", torch.var_mean(x, 1), torch.std_mean(x))
print("norm", x.norm(), x.norm(1), x.norm(dim=1), torch.norm(x, p=float("inf")), x.norm(p="fro"))
print("logsumexp", torch.logsumexp(x, 1), x.logsumexp(0, keepdim=True))
print("max", x.max(), torch.max(x, 1), x.max(dim=0, keepdim=True))
print("min", x.min(), torch.min(x, 0))
r = x.max(1)
print("return type", type(r).__name__, r.values, r.indices, r[0], len(r))
v, idx = x.min(dim=1)
print("unpack", v, idx)
print("max binary", torch.max(x, torch.zeros(2, 3)), x.min(torch.ones(3)))
print("amax", x.amax(), x.amax(1), torch.amin(x, (0, 1)), x.amax(0, keepdim=True))
print("argmax", x.argmax(), x.argmax(1), torch.argmin(x, 0), x.argmax(1, keepdim=True))
print("all any", b.all(), b.any(), b.all(1), b.any(0), x.all(), torch.any(x > 3, 1),
      torch.tensor([0, 1], dtype=torch.uint8).all())
print("count_nonzero", torch.count_nonzero(b), torch.count_nonzero(x, 0))
print("median", x.median(), torch.median(x, 1), i.median())
print("kthvalue", torch.kthvalue(x, 2, 1))
print("cumsum", x.cumsum(0), torch.cumsum(i, 1), b.cumsum(1), x.cumsum(1, dtype=torch.float64))
print("cumprod", x.cumprod(1), torch.cumprod(i, 0))
print("softmax", x[:, :2].softmax(1), torch.softmax(x, 0), x.log_softmax(-1), torch.log_softmax(x, 1))
print("softmax dtype", torch.softmax(i, 1, dtype=torch.float64))

# grads
w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], requires_grad=True)
for name, fn in [("sum", lambda t: t.sum()), ("mean", lambda t: t.mean(1).sum()),
                 ("prod", lambda t: t.prod()), ("prod dim", lambda t: t.prod(1).sum()),
                 ("var", lambda t: t.var()), ("std", lambda t: t.std(1).sum()),
                 ("norm", lambda t: t.norm()), ("logsumexp", lambda t: t.logsumexp(1).sum()),
                 ("max", lambda t: t.max()), ("max dim", lambda t: t.max(1).values.sum()),
                 ("amax", lambda t: t.amax(0).sum()), ("cumsum", lambda t: t.cumsum(1).sum()),
                 ("cumprod", lambda t: t.cumprod(1).sum()),
                 ("softmax", lambda t: (t.softmax(1) * torch.arange(3.0)).sum()),
                 ("median", lambda t: t.median())]:
    w.grad = None
    out = fn(w)
    out.backward()
    print("grad", name, out.grad_fn.name(), w.grad)
print("grad_fn names", w.sum(0).grad_fn.name(), w.mean().grad_fn.name(), w.max(0)[0].grad_fn.name(),
      w.prod(0).grad_fn.name(), w.var(0).grad_fn.name(), w.cumsum(0).grad_fn.name())

# errors
show("dim range", lambda: x.sum(2))
show("max dim range", lambda: x.max(5))
show("max empty", lambda: torch.tensor([]).max())
show("argmax dim", lambda: x.argmax(3))
show("cumsum dim", lambda: x.cumsum(2))
show("softmax no dim", lambda: torch.softmax(x))
show("logsumexp int", lambda: torch.logsumexp(i, 1))
show("var int", lambda: i.var())
show("bad keyword", lambda: x.sum(axis=0))

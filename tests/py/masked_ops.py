# torch.masked (1.13's prototype) on strided tensors: values, dtypes,
# broadcast masks, fully masked-out rows, gradients and errors.
import torch
import torch.masked as M

torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64)
mask = torch.tensor([[True, False, True, True], [False, False, False, False],
                     [True, True, False, True]])
col = torch.tensor([True, False, True, False])


def show(name, t):
    if isinstance(t, torch.Tensor):
        print(name, list(t.shape), t.dtype, [round(v, 6) if v == v else "nan"
                                             for v in t.detach().double().reshape(-1).tolist()])
    else:
        print(name, t)


for name in ["sum", "prod", "amax", "amin", "mean", "logsumexp"]:
    f = getattr(M, name)
    show(name + " all", f(x, mask=mask))
    show(name + " dim1", f(x, 1, mask=mask))
    show(name + " dim0 keep", f(x, 0, keepdim=True, mask=col))
for name in ["var", "std"]:
    f = getattr(M, name)
    show(name, f(x, 1, mask=mask))
    show(name + " unbiased", f(x, 1, True, mask=mask))
show("norm 1", M.norm(x, 1.0, 1, mask=mask))
show("norm inf", M.norm(x, float("inf"), 0, mask=mask))
show("argmax", M.argmax(x, 1, mask=mask))
show("argmin", M.argmin(x, 0, mask=col))
show("median", M.median(x, 1, mask=mask))
show("cumsum", M.cumsum(x, 1, mask=mask))
show("cumprod", M.cumprod(x, 0, mask=col))
show("softmax", M.softmax(x, 1, mask=mask))
show("log_softmax", M.log_softmax(x, 1, mask=col))
show("softmin", M.softmin(x, 0, mask=mask))
show("normalize", M.normalize(x, 2.0, 1, mask=mask))
show("logaddexp", M.logaddexp(x, x.flip(0), input_mask=mask, other_mask=mask))
xi = torch.randint(-5, 5, (3, 4), dtype=torch.int32)
show("int sum", M.sum(xi, 1, mask=mask))
show("int prod", M.prod(xi, 0, mask=mask))
show("int amax", M.amax(xi, 1, mask=mask))
show("int var", M.var(xi, 1, mask=mask))
show("no mask mean", M.mean(x, 0))

g = x.clone().requires_grad_()
(M.sum(g, 1, mask=mask) * torch.tensor([1., 2, 3], dtype=torch.float64)).sum().backward()
show("grad sum", g.grad)
g.grad = None
M.softmax(g, 1, mask=mask)[:, 0].sum().backward()
show("grad softmax", g.grad)
g.grad = None
M.mean(g, 1, mask=col).sum().backward()
show("grad mean", g.grad)

for desc, f in [("dim twice", lambda: M.sum(x, (0, 0), mask=mask)),
                ("dim range", lambda: M.sum(x, 5, mask=mask)),
                ("mask too big", lambda: M.sum(x, mask=torch.ones(2, 3, 4, dtype=torch.bool))),
                ("int median masked row", lambda: M.median(xi, 1, mask=mask))]:
    try:
        f()
        print(desc, "no error")
    except Exception as e:
        print(desc, type(e).__name__, e)

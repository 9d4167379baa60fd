"""Elementwise ops keep a dense input's layout, as PyTorch 1.13's TensorIterator does: the
output of a unary op of a transposed, permuted or channels_last tensor has its strides, a
binary op takes its layout from its operands (the first deciding, a broadcast or scalar
operand saying nothing), a non-dense input gives a row-major output; and the values are
computed over flat memory, so vector blocks and scalar tails fall where PyTorch's do: the
same bits, at 1 and 2 threads, forward and backward (docs/language-tensors.md)."""
import numpy as np
import torch
import torch.nn.functional as F


def lay(t):
    return (tuple(t.shape), t.stride(), t.is_contiguous())


def bits(t):
    """Two checksums of the values' bit patterns in row-major order."""
    v = t.detach().contiguous().numpy().reshape(-1)
    v = v.astype(np.int64) if v.dtype == np.bool_ else v.view(np.int64 if v.itemsize == 8 else np.int32)
    v = v.astype(np.int64) % 65521
    w = np.arange(v.size) % 997 + 1
    return (int(v.sum()), int((v * w).sum()))


def show(name, t):
    print(name, lay(t), bits(t))


torch.manual_seed(0)
a = torch.randn(53, 37)  # odd sizes: every kernel has a scalar tail
b = torch.randn(53, 37)
p = torch.randn(5, 6, 7).permute(2, 0, 1)  # strides (1, 42, 7)
q = torch.randn(5, 6, 7).permute(2, 0, 1)
c = torch.randn(2, 4, 5, 3).permute(0, 3, 1, 2)  # a channels_last layout
big = torch.randn(1030, 512)  # split across threads
pos = lambda t: t.abs() + 0.5

unary = [
    ("exp", torch.exp), ("log", lambda t: torch.log(pos(t))), ("tanh", torch.tanh),
    ("sigmoid", torch.sigmoid), ("gelu", F.gelu), ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh")),
    ("silu", F.silu), ("relu", torch.relu), ("neg", torch.neg), ("abs", torch.abs),
    ("sqrt", lambda t: torch.sqrt(pos(t))), ("sinh", torch.sinh), ("cosh", torch.cosh),
    ("sin", torch.sin), ("erf", torch.erf), ("leaky_relu", F.leaky_relu),
    ("clamp", lambda t: t.clamp(-0.5, 0.5)), ("pow2.5", lambda t: pos(t) ** 2.5), ("pow2", lambda t: t ** 2),
    ("mul_scalar", lambda t: t * 2.5), ("add_scalar", lambda t: t + 1), ("rsub", lambda t: 1 - t),
    ("double", lambda t: t.double()), ("isnan", torch.isnan), ("gt0", lambda t: t > 0),
]
binary = [
    ("add", torch.add), ("sub", torch.sub), ("mul", torch.mul), ("div", torch.div),
    ("pow", lambda x, y: pos(x) ** y), ("maximum", torch.maximum), ("minimum", torch.minimum),
    ("gt", torch.gt), ("eq", torch.eq), ("where", lambda x, y: torch.where(x > 0, x, y)),
]

for threads in (1, 2):
    torch.set_num_threads(threads)
    print("threads", threads)
    for name, f in unary:
        for tag, x in (("t", a.t()), ("perm", p), ("cl", c), ("big_t", big.t())):
            show(name + " " + tag, f(x))
    for tag, x in (("t", a.t()), ("perm", p), ("cl", c), ("big_t", big.t())):
        show("softplus " + tag, F.softplus(x))
        show("softplus 2 5 " + tag, F.softplus(x, 2.0, 5.0))
    for name, f in binary:
        show(name + " t,t", f(a.t(), b.t()))
        show(name + " perm,perm", f(p, q))
        show(name + " perm,contig", f(p, q.contiguous()))
        show(name + " contig,perm", f(q.contiguous(), p))
        show(name + " t,bias", f(a.t(), b[:, 0]))
        show(name + " bias,t", f(b[:, 0], a.t()))
        show(name + " big t,t", f(big.t(), big.t() * 0.5))
    # a row-major view that is not dense: a row-major output; the strided rows are
    # PyTorch's runs (sinh, cosh, sigmoid: each with its own scalar tail)
    for name, f in (("exp", torch.exp), ("sinh", torch.sinh), ("cosh", torch.cosh),
                    ("sigmoid", torch.sigmoid), ("gelu", F.gelu), ("add", lambda t: t + t)):
        show(name + " [:, ::2]", f(a[:, ::2]))
        show(name + " [:, :29]", f(a[:, :29]))
        show(name + " [1:40]", f(a[1:40]))
    show("pow scalar base", torch.pow(2, p))
    show("expand", torch.exp(torch.randn(5, 1).expand(5, 4)))
    # in place on a transposed tensor, and out= with the right shape
    y = a.clone().t()
    y.exp_()
    show("exp_", y)
    y.add_(b.t())
    show("add_", y)
    o = torch.empty(37, 53)
    torch.exp(a.t(), out=o)
    show("out=", o)
    try:
        a.t().exp().view(-1)
    except RuntimeError:
        print("view of a transposed result: RuntimeError")
    print(lay(a.t().exp().reshape(-1)), lay(a.t().exp().contiguous()), lay(a.t().exp().t()))

    # gradients: x.grad keeps x's (row-major) layout with PyTorch's bits, whatever
    # the layout of the gradient flowing in
    for name, f in unary[:17]:
        for gtag in ("contig", "t", "sum"):
            if name == "silu" and gtag != "t":
                continue  # SiLU's backward matches PyTorch's bits on one layout only
            x = a.clone().requires_grad_()
            y = f(x.t())
            if gtag == "sum":
                y.sum().backward()
            else:
                g = b.t().contiguous() if gtag == "contig" else b.t()
                y.backward(g)
            show("grad " + name + " " + gtag, x.grad)
    for name, f in binary[:7]:
        x1 = a.clone().requires_grad_()
        x2 = b.clone().requires_grad_()
        f(x1.t(), x2.t()).backward(big[:37, :53])
        show("grad " + name + " a", x1.grad)
        show("grad " + name + " b", x2.grad)
    # a non-leaf's gradient keeps the layout PyTorch's backward kernel gives it
    h = a.clone().requires_grad_() * 1
    for name, f in (("exp", torch.exp), ("gelu", F.gelu), ("tanh", torch.tanh), ("mul", lambda t: t * t)):
        show("autograd.grad " + name + " sum", torch.autograd.grad(f(h.t()).sum(), h, retain_graph=True)[0])
        g = torch.autograd.grad(f(h.t()), h, b.t(), retain_graph=True)[0]
        show("autograd.grad " + name + " t", g)
        ht = h.t() * 1
        show("autograd.grad " + name + " of ht", torch.autograd.grad(f(ht).sum(), ht, retain_graph=True)[0])
        show("autograd.grad " + name + " of ht, g t", torch.autograd.grad(f(ht), ht, b.t(), retain_graph=True)[0])

# a chain through a transposed leaf: the maximum's gradient keeps the comparison's layout,
# so GELU's backward runs over flat memory (vector blocks and tail) as PyTorch's does
for threads in (1, 2):
    torch.set_num_threads(threads)
    x = a.t().contiguous().t().requires_grad_()
    col = b[:, :1]
    r = torch.maximum(F.gelu(x * col), x) + 1.0
    r.backward(big[:53, :37])
    show("chain forward", r)
    show("chain grad values", x.grad.contiguous())

# The BLAS family against PyTorch 1.13: values, alpha/beta, in-place and method forms, out=, gradients, and PyTorch's shape and dtype messages.
import warnings

warnings.simplefilter("ignore")
import torch
torch.manual_seed(0)
def t(name, f):
    try:
        r = f()
        if isinstance(r, torch.Tensor):
            print(name, tuple(r.shape), r.dtype, [round(v, 4) for v in r.flatten().tolist()[:6]])
        else:
            print(name, r)
    except Exception as e:
        print(name, type(e).__name__, e)
a = torch.randn(2, 3); b = torch.randn(3, 4); c = torch.randn(2, 4); v = torch.randn(3); w = torch.randn(2)
B1 = torch.randn(5, 2, 3); B2 = torch.randn(5, 3, 4)
t("mm", lambda: torch.mm(a, b))
t("mm bad", lambda: torch.mm(a, a))
t("mm 1d", lambda: torch.mm(v, b))
t("mm dtype", lambda: torch.mm(a, b.double()))
t("bmm bad", lambda: torch.bmm(B1, B1))
t("bmm 2d", lambda: torch.bmm(a, b))
t("bmm batch", lambda: torch.bmm(B1, torch.randn(4, 3, 4)))
t("mv bad", lambda: torch.mv(a, w))
t("dot bad", lambda: torch.dot(v, w))
t("dot 2d", lambda: torch.dot(a, a))
t("matmul bad", lambda: a @ a)
t("addmm", lambda: torch.addmm(c, a, b, beta=0.5, alpha=2))
t("addmm bcast", lambda: torch.addmm(torch.randn(4), a, b))
t("addmm_", lambda: c.clone().addmm_(a, b, alpha=3))
t("addmv_", lambda: w.clone().addmv_(a, v, beta=2))
t("addr_", lambda: c.clone().addr_(w, torch.randn(4)))
t("baddbmm_", lambda: torch.randn(5, 2, 4).baddbmm_(B1, B2, alpha=0.5))
t("addbmm_", lambda: c.clone().addbmm_(B1, B2))
t("addmm beta0 nan", lambda: torch.addmm(torch.full((2, 4), float('nan')), a, b, beta=0))
t("addmm int", lambda: torch.addmm(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.long)))
t("mm int", lambda: torch.mm(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.long)))
t("outer", lambda: torch.outer(v, w))
t("ger", lambda: torch.ger(v, w))
t("inner", lambda: torch.inner(a, torch.randn(4, 3)))
t("vdot", lambda: torch.vdot(v, v))
t("kron", lambda: torch.kron(a, torch.eye(2)))
t("trace", lambda: torch.trace(b))
t("trace meth", lambda: b.trace())
t("chain_matmul", lambda: torch.chain_matmul(a, b, torch.randn(4, 1)))
t("addmm bad", lambda: torch.addmm(torch.randn(3, 3), a, b))
t("mm out", lambda: torch.mm(a, b, out=torch.empty(2, 4)))
t("baddbmm bcast", lambda: torch.baddbmm(torch.randn(2, 4), B1, B2))


def grads(name, f, *xs):
    xs = [x.detach().clone().double().requires_grad_(True) for x in xs]
    out = f(*xs)
    w = torch.linspace(-1, 1, out.numel(), dtype=torch.float64).reshape(out.shape)
    gs = torch.autograd.grad((out * w).sum(), xs)
    for i, g in enumerate(gs):
        print(name, i, [round(v, 6) for v in g.flatten().tolist()[:8]])
    print(name, "gradcheck", torch.autograd.gradcheck(f, xs))


grads("addmm", lambda c, x, y: torch.addmm(c, x, y, beta=0.5, alpha=2), c, a, b)
grads("addmv", lambda c, x, y: torch.addmv(c, x, y, beta=-1, alpha=0.5), w, a, v)
grads("addr", lambda c, x, y: torch.addr(c, x, y, alpha=3), c, w, torch.randn(4))
grads("baddbmm", lambda c, x, y: torch.baddbmm(c, x, y, beta=2), torch.randn(5, 2, 4), B1, B2)
grads("addbmm", lambda c, x, y: torch.addbmm(c, x, y, alpha=0.25), c, B1, B2)
grads("bmm", torch.bmm, B1, B2)
grads("mv", torch.mv, a, v)
grads("dot", torch.dot, v, torch.randn(3))
grads("outer", torch.outer, v, w)
grads("kron", torch.kron, a, torch.randn(2, 2))
grads("tensordot", lambda x, y: torch.tensordot(x, y, dims=1), a, b)
grads("chain_matmul", lambda x, y, z: torch.chain_matmul(x, y, z), a, b, torch.randn(4, 2))
grads("trace", torch.trace, b)

# bmm at two threads splits the batch across threads (one gemm each): the
# same values as one thread, and both equal a sum of products.
torch.manual_seed(3)
for shapes in [((12, 33, 16), (12, 16, 40)), ((2, 3, 9, 5), (2, 3, 5, 7)), ((7, 4, 6), (1, 6, 3))]:
    x, y = torch.randn(*shapes[0]), torch.randn(*shapes[1])
    torch.set_num_threads(1)
    one = x @ y
    torch.set_num_threads(2)
    two = x @ y
    yt = torch.bmm(x.reshape(-1, *x.shape[-2:]), y.expand(*x.shape[:-2], *y.shape[-2:])
                   .reshape(-1, *y.shape[-2:]).transpose(1, 2).contiguous().transpose(1, 2))
    ref = (x.double().unsqueeze(-1) * y.double().unsqueeze(-3)).sum(-2)
    print(tuple(two.shape), bool(torch.equal(one, two)),
          bool(torch.allclose(two.double(), ref, atol=1e-4)),
          bool(torch.allclose(yt.reshape(two.shape), two, atol=1e-5)))
torch.set_num_threads(1)

# A product whose output holds more than 256K elements, at two threads: nndb
# clears it across its threads before a beta-1 gemm (OpenBLAS's beta-0 pass
# is slower); an out= tensor full of NaN must come out as the product.
x, y = torch.randn(600, 64), torch.randn(64, 500)
ref = x.double() @ y.double()
for threads in (1, 2):
    torch.set_num_threads(threads)
    buf = torch.full((600, 500), float("nan"))
    torch.mm(x, y, out=buf)
    print("cleared", threads, bool(buf.isnan().any()), bool(torch.allclose(buf.double(), ref, atol=1e-4)),
          bool(torch.equal(buf, x @ y)))
torch.set_num_threads(1)

# Bit-exact products at the small shapes the MLP and GPT benchmarks use (the
# BLAS call clears C itself before a beta-0 product: the bits must not move),
# through mm, matmul's transposed layouts, linear and its gradients, in float32
# and float64, and into an out= tensor that held NaN.
import hashlib
def bits(r):
    return hashlib.md5(repr(r.flatten().tolist()).encode()).hexdigest()[:12]
# (m n k at most 64^3: above it OpenBLAS may split a product across threads, and
# PyTorch's set_num_threads leaves OpenBLAS's threads as they are.)
for m, n, k in [(64, 64, 64), (64, 3, 64), (64, 64, 2), (33, 17, 257), (3, 64, 64)]:
    A = torch.randn(m, k); Bm = torch.randn(k, n)
    print("bits mm", m, n, k, bits(A @ Bm), bits(A.t().contiguous().t() @ Bm),
          bits(A @ Bm.t().contiguous().t()), bits(A.double() @ Bm.double()))
    o = torch.full((m, n), float("nan"))
    torch.mm(A, Bm, out=o)
    print("bits out", bits(o))
    W = torch.randn(n, k, requires_grad=True); bias = torch.randn(n, requires_grad=True)
    X = A.clone().requires_grad_()
    y = torch.nn.functional.linear(X, W, bias)
    y.backward(torch.randn(m, n))
    print("bits linear", bits(y), bits(X.grad), bits(W.grad))

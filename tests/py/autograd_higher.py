# Higher-order gradients: create_graph=True through every op family, the
# Hessian of a small MLP, autograd.functional's second-order functions,
# gradgradcheck (which must also catch a wrong second derivative), and
# backward(create_graph=True).
import math
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.functional import hessian, jacobian, vjp, jvp, hvp, vhp

warnings.simplefilter("ignore")
torch.manual_seed(0)


def r(t):
    return [round(v, 5) + 0.0 for v in t.reshape(-1).tolist()]


x = torch.randn(4, dtype=torch.float64, requires_grad=True)


def chk(name, f, inp=x):
    y = f(inp)
    g, = torch.autograd.grad(y, inp, create_graph=True)
    h = torch.autograd.grad(g.sum(), inp, allow_unused=True)[0]
    print(name, r(g), r(h) if h is not None else None)


chk("cube", lambda x: (x ** 3).sum())
chk("exp", lambda x: x.exp().sum())
chk("tanh", lambda x: torch.tanh(x).sum())
chk("sig", lambda x: torch.sigmoid(x * 2).sum())
chk("log", lambda x: torch.log(x.abs() + 1).sum())
chk("sqrt", lambda x: torch.sqrt(x * x + 1).mean())
chk("div", lambda x: (1 / (x * x + 1)).sum())
chk("sin", lambda x: (torch.sin(x) * torch.cos(x)).sum())
chk("softmax", lambda x: (torch.softmax(x, 0) * torch.arange(4.)).sum())
chk("logsm", lambda x: (torch.log_softmax(x, 0) * torch.arange(4.)).sum())
chk("norm", lambda x: x.norm())
chk("gelu", lambda x: torch.nn.functional.gelu(x).sum())
chk("softplus", lambda x: torch.nn.functional.softplus(x).sum())
chk("relu", lambda x: (torch.relu(x) ** 2).sum())
chk("mm", lambda x: (x.reshape(2, 2) @ x.reshape(2, 2).t()).sum())
chk("lin", lambda x: torch.nn.functional.linear(x.reshape(2, 2), x.reshape(2, 2) * 2, x[:2]).pow(2).sum())
chk("cat", lambda x: torch.cat([x, x * x]).pow(2).sum())
chk("stack", lambda x: torch.stack([x, x * x]).pow(2).sum())
chk("index", lambda x: (x[[0, 2, 2]] ** 3).sum())
chk("slice", lambda x: (x[1:3] ** 3).sum() + x[0] ** 4)
chk("expand", lambda x: (x.unsqueeze(0).expand(3, 4) ** 3).sum())
chk("mse", lambda x: torch.nn.functional.mse_loss(x * x, torch.ones(4, dtype=torch.float64)))
chk("ce", lambda x: torch.nn.functional.cross_entropy(x.reshape(2, 2) ** 2, torch.tensor([0, 1])))
chk("ln", lambda x: (torch.nn.functional.layer_norm(x.reshape(2, 2), (2,)) * torch.tensor([1., 3.], dtype=torch.float64)).pow(2).sum())
chk("abs", lambda x: (x.abs() ** 3).sum())
chk("mean", lambda x: x.pow(2).mean(0) ** 2)
chk("var", lambda x: x.var() ** 2)
chk("max", lambda x: x.pow(2).max())
chk("lse", lambda x: torch.logsumexp(x * x, 0))
chk("sub", lambda x: ((x - x.exp()) * (2 - x)).sum())
chk("neg", lambda x: (-x).exp().sum())
chk("sigmoid2", lambda x: (torch.sigmoid(x) ** 2).sum())
chk("silu", lambda x: F.silu(x).sum())
chk("leaky", lambda x: (F.leaky_relu(x, 0.1) ** 2).sum())
chk("clamp", lambda x: (x.clamp(-0.5, 0.5) ** 3).sum())
chk("where", lambda x: torch.where(x > 0, x ** 2, x ** 3).sum())
chk("maxpair", lambda x: torch.maximum(x ** 2, x.exp()).sum())
chk("bcel", lambda x: F.binary_cross_entropy_with_logits(x * x, torch.ones(4, dtype=torch.float64)))
chk("bce", lambda x: F.binary_cross_entropy(torch.sigmoid(x * 2), torch.full((4,), 0.3, dtype=torch.float64)))
chk("std", lambda x: x.std() * x.sum())
chk("norm1", lambda x: x.norm(1) * x.norm(3))
chk("transpose", lambda x: (x.reshape(2, 2).transpose(0, 1) @ x.reshape(2, 2)).pow(2).sum())
chk("addmm", lambda x: torch.addmm(x[:2], x.reshape(2, 2), x.reshape(2, 2) * x.reshape(2, 2)).pow(2).sum())
chk("mm", lambda x: torch.mm(x.reshape(2, 2), x.reshape(2, 2).exp()).sum())
chk("mv", lambda x: (x.reshape(2, 2) @ x[:2]).pow(3).sum())
chk("vm", lambda x: (x[:2] @ x.reshape(2, 2)).pow(3).sum())
chk("bmm", lambda x: (x.reshape(1, 2, 2) @ x.reshape(1, 2, 2).sin()).pow(2).sum())
chk("broadcast", lambda x: (x.reshape(4, 1) * x.reshape(1, 4)).tanh().sum())
chk("view", lambda x: x.view(2, 2).exp().sum(0).pow(2).sum())
chk("sdpa-ish", lambda x: torch.softmax(x.reshape(2, 2) @ x.reshape(2, 2).t() / 2, -1).pow(2).sum())
chk("float32", lambda x: (x.float() ** 3).sin().sum().double())



# An op whose double backward is missing must say so, naming the op, and
# never return a wrong second derivative: here either the values agree with
# finite differences or the error names the op.
def second(f, t):
    g, = torch.autograd.grad(f(t), t, create_graph=True)
    return torch.autograd.grad(g.sum(), t)[0]


def first(f, t):
    return torch.autograd.grad(f(t), t)[0]


c = torch.randn(4, dtype=torch.float64, requires_grad=True)
prod = lambda t: torch.cumprod(t, 0).sum()
try:
    h = second(prod, c)
    eps = 1e-6
    num = torch.stack([(first(prod, (c + eps * e).detach().requires_grad_())
                        - first(prod, (c - eps * e).detach().requires_grad_())).sum() / (2 * eps)
                       for e in torch.eye(4, dtype=torch.float64)])
    print("cumprod second derivative", bool(torch.allclose(h, num, atol=1e-5)))
except RuntimeError as e:
    print("cumprod second derivative", "cumprod" in str(e))

# the Hessian of a small MLP loss in its flat parameters
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
xs = torch.randn(5, 3)
ys = torch.randn(5, 1)
params = [p.detach().clone() for p in net.parameters()]
shapes = [p.shape for p in params]
flat = torch.cat([p.reshape(-1) for p in params])


def loss_of(theta):
    ws, k = [], 0
    for s in shapes:
        n = math.prod(s)
        ws.append(theta[k:k + n].reshape(s))
        k += n
    h = torch.tanh(xs @ ws[0].t() + ws[1])
    out = h @ ws[2].t() + ws[3]
    return ((out - ys) ** 2).mean()


H = hessian(loss_of, flat)
print("H", tuple(H.shape), r(H.sum(0)), round(H.abs().sum().item(), 4))
print("symmetric", bool(torch.allclose(H, H.t(), atol=1e-5)))
f = lambda a, b: (a * b.sin()).sum() + (a ** 2).sum() * b[0]
a = torch.randn(3)
b = torch.randn(3)
print("H of a pair", [[r(h) for h in row] for row in hessian(f, (a, b))])
v = torch.randn(3)
print("vjp", [r(t) for t in vjp(lambda a: a.exp() * 2, a, v)])
print("jvp", [r(t) for t in jvp(lambda a: a.exp() * a, a, v)])
print("hvp", [r(t) for t in hvp(lambda a: (a.exp() * a).sum(), a, v)])
print("vhp", [r(t) for t in vhp(lambda a: (a.exp() * a).sum(), a, v)])
print("jacobian", r(jacobian(lambda a: torch.softmax(a, 0), a)))
a2 = a.clone().requires_grad_()
J = jacobian(lambda t: t ** 3, a2, create_graph=True)
print("jacobian create_graph", J.requires_grad, r(torch.autograd.grad(J.sum(), a2)[0]))

# backward(create_graph=True): .grad has a graph of its own
w = torch.randn(3, requires_grad=True)
(w ** 3).sum().backward(create_graph=True)
print("w.grad", w.grad.requires_grad, r(w.grad))
gsum = w.grad.sum()
w.grad = None
gsum.backward()
print("d sum(w.grad) / dw", r(w.grad))

# linear functions: gradients that do not require grad; third order
z = torch.randn(3, requires_grad=True)
g, = torch.autograd.grad((z * 2).sum(), z, create_graph=True)
print("linear", g.requires_grad, r(g))
q = torch.randn(3, requires_grad=True)
gq, = torch.autograd.grad((q ** 4).sum(), q, create_graph=True)
gq2, = torch.autograd.grad(gq.sum(), q, create_graph=True)
gq3, = torch.autograd.grad(gq2.sum(), q)
print("third order", r(gq2), r(gq3))
try:
    torch.autograd.grad((z * 2).sum(), [z, w], create_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print("allow_unused", torch.autograd.grad((z * 2).sum(), [z, w], create_graph=True,
                                          allow_unused=True)[1])
go = torch.randn(3, requires_grad=True)
gz, = torch.autograd.grad(z.exp(), z, grad_outputs=go, create_graph=True)
print("d/d grad_outputs", r(torch.autograd.grad(gz.sum(), go)[0]))

# convolution twice
cx = torch.randn(2, 2, 5, 5, dtype=torch.float64, requires_grad=True)
cw = torch.randn(3, 2, 3, 3, dtype=torch.float64, requires_grad=True)
cb = torch.randn(3, dtype=torch.float64, requires_grad=True)
out = (torch.tanh(F.conv2d(cx, cw, cb, padding=1, stride=2)) ** 2).sum()
gx, gw, gb = torch.autograd.grad(out, (cx, cw, cb), create_graph=True)
pen = gx.pow(2).sum() + gw.pow(2).sum() * 0.5 + gb.pow(2).sum()
print("conv", [r(t)[:5] for t in torch.autograd.grad(pen, (cx, cw, cb))])

# gradgradcheck passes on correct second derivatives and fails on a wrong one
d = torch.randn(3, dtype=torch.float64, requires_grad=True)
e = torch.randn(3, dtype=torch.float64, requires_grad=True)
print("gradgradcheck", torch.autograd.gradgradcheck(lambda a, b: (a * b).tanh() * a, (d, e)))
print("gradgradcheck conv", torch.autograd.gradgradcheck(
    lambda x, w: F.conv2d(x, w, padding=1),
    (cx[:1, :, :4, :4].detach().requires_grad_(), cw.detach().requires_grad_())))


class WrongCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 3

    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return g * 3 * t.detach() * t  # right value, wrong second derivative


print("gradcheck of WrongCube", torch.autograd.gradcheck(WrongCube.apply, (d,)))
print("gradgradcheck of WrongCube", torch.autograd.gradgradcheck(WrongCube.apply, (d,),
                                                                raise_exception=False))


# more op families, through a second derivative of a scalar of the gradient
bn_eval = nn.BatchNorm1d(6).double()
bn_eval.running_mean.uniform_()
bn_eval.running_var.uniform_(0.5, 2)
bn_eval.eval()
x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
t = torch.randn(4, 6, dtype=torch.float64)
cases = {
 "l1": lambda x: F.l1_loss(x * x, t),
 "smoothl1": lambda x: F.smooth_l1_loss(x * 2, t),
 "huber": lambda x: F.huber_loss(x * 2, t),
 "elu": lambda x: F.elu(x).pow(2).sum(),
 "selu": lambda x: F.selu(x).pow(2).sum(),
 "hardtanh": lambda x: F.hardtanh(x * 2).pow(2).sum(),
 "relu6": lambda x: F.relu6(x * 4).pow(2).sum(),
 "mish": lambda x: F.mish(x).sum(),
 "hardswish": lambda x: F.hardswish(x).pow(2).sum(),
 "logsigmoid": lambda x: F.logsigmoid(x).sum(),
 "bn1d": lambda x: nn.BatchNorm1d(6).double()(x).pow(3).sum(),
 "ln": lambda x: nn.LayerNorm(6).double()(x).pow(3).sum(),
 "maxpool": lambda x: F.max_pool1d(x.unsqueeze(0), 2).pow(2).sum(),
 "avgpool": lambda x: F.avg_pool1d(x.unsqueeze(0), 2).pow(2).sum(),
 "einsum": lambda x: torch.einsum("ij,kj->ik", x, x).pow(2).sum(),
 "normalize": lambda x: F.normalize(x, dim=1).pow(3).sum(),
 "cos": lambda x: F.cosine_similarity(x, x.flip(0), dim=1).sum(),
 "kl": lambda x: F.kl_div(F.log_softmax(x, 1), F.softmax(t, 1), reduction="batchmean"),
 "addalpha": lambda x: torch.add(x, x * x, alpha=2).pow(2).sum(),
 "addcmul": lambda x: torch.addcmul(x, x, x, value=0.5).pow(2).sum(),
 "lerp": lambda x: torch.lerp(x, x * x, 0.3).pow(2).sum(),
 "maxdim": lambda x: x.pow(2).max(dim=1)[0].sum(),
 "amax": lambda x: x.pow(2).amax(dim=1).sum(),
 "stddim": lambda x: x.std(dim=1).pow(2).sum(),
 "sumdim": lambda x: x.pow(2).sum(dim=1).pow(2).sum(),
 "chunk": lambda x: sum(c.pow(3).sum() for c in x.chunk(3, dim=1)),
 "split": lambda x: sum(c.pow(3).sum() for c in x.split(2, dim=0)),
 "squeeze": lambda x: x.unsqueeze(1).squeeze(1).pow(3).sum(),
 "flatten": lambda x: x.flatten().pow(3).sum(),
 "repeat": lambda x: x.repeat(2, 1).pow(3).sum(),
 "masked_fill": lambda x: x.masked_fill(x > 0, 0.).pow(3).sum(),
 "dropout_eval": lambda x: F.dropout(x, 0.5, training=False).pow(3).sum(),
 "bce": lambda x: F.binary_cross_entropy(torch.sigmoid(x), torch.rand(4, 6, dtype=torch.float64)),
 "ce_w": lambda x: F.cross_entropy(x, torch.tensor([0, 1, 2, 3]), weight=torch.rand(6, dtype=torch.float64)),
 "ce_ls": lambda x: F.cross_entropy(x, torch.tensor([0, 1, 2, 3]), label_smoothing=0.1),
 "nll": lambda x: F.nll_loss(F.log_softmax(x * x, 1), torch.tensor([0, 1, 2, 3])),
 "gather": lambda x: x.gather(1, torch.tensor([[0], [1], [2], [3]])).pow(3).sum(),
 "prod": lambda x: x.prod(dim=1).sum(),
 "cumsum": lambda x: x.cumsum(1).pow(2).sum(),
 "var_mean": lambda x: torch.var_mean(x, dim=1)[0].pow(2).sum(),
 "atan2": lambda x: torch.atan2(x, x * x + 1).sum(),
 "pad": lambda x: F.pad(x, (1, 1)).pow(3).sum(),
 "tril": lambda x: x[:4, :4].tril().pow(3).sum(),
 "diag": lambda x: torch.diag(x[:4, :4]).pow(3).sum(),
 "trace": lambda x: torch.trace(x[:4, :4] @ x[:4, :4]),
 "outer": lambda x: torch.outer(x[0], x[1]).pow(2).sum(),
 "softmin": lambda x: F.softmin(x, 1).pow(2).sum(),
 "glu": lambda x: F.glu(x, 1).pow(2).sum(),
 "emb": lambda x: F.embedding(torch.tensor([1, 2, 1]), x).pow(3).sum(),
 "bilinear": lambda x: F.bilinear(x, x, torch.ones(2, 6, 6, dtype=torch.float64)).pow(2).sum(),
 "bn_eval": lambda x: bn_eval(x.unsqueeze(-1) * 2).pow(3).sum(),
 "bn2d": lambda x: nn.BatchNorm2d(4).double()(x.view(1, 4, 2, 3)).pow(3).sum(),
 "prod_dim": lambda x: (x + 3).prod(dim=1, keepdim=True).sum(),
 "ce_ls_ignore": lambda x: F.cross_entropy(x, torch.tensor([0, -100, 2, 3]), label_smoothing=0.2),
 "ce_ls_sum": lambda x: F.cross_entropy(x, torch.tensor([0, 1, 2, 3]), label_smoothing=0.2, reduction="sum"),
 "ce_probs": lambda x: F.cross_entropy(x, F.softmax(t, 1)),
 "maxpool2d": lambda x: F.max_pool2d(x.view(1, 1, 4, 6), 2).pow(3).sum(),
 "addcdiv": lambda x: torch.addcdiv(x, x, x * x + 1, value=0.5).pow(2).sum(),
 "sub_alpha": lambda x: torch.sub(x, x.exp(), alpha=0.5).pow(2).sum(),
}
for name, f in cases.items():  # each: an error naming the op, or PyTorch's values
    try:
        g, = torch.autograd.grad(f(x), x, create_graph=True)
        h, = torch.autograd.grad(g.pow(2).sum(), x, allow_unused=True)
        print(name, round(g.sum().item(), 5) + 0.0, None if h is None else round(h.abs().sum().item(), 5))
    except Exception as e:
        print(name, "ERR", type(e).__name__, str(e)[:100])  # differs from PyTorch: a failure


# MAML: one inner SGD step with create_graph, outer loss on the adapted weights
net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
meta = torch.optim.SGD(net.parameters(), lr=0.1)
for it in range(3):
    xs, ys = torch.randn(10, 2), torch.randn(10, 1)
    xq, yq = torch.randn(10, 2), torch.randn(10, 1)
    params = list(net.parameters())
    def fwd(p, x):
        return F.linear(torch.tanh(F.linear(x, p[0], p[1])), p[2], p[3])
    inner = F.mse_loss(fwd(params, xs), ys)
    grads = torch.autograd.grad(inner, params, create_graph=True)
    fast = [p - 0.5 * g for p, g in zip(params, grads)]
    outer = F.mse_loss(fwd(fast, xq), yq)
    meta.zero_grad(); outer.backward(); meta.step()
    print("maml", it, round(outer.item(), 5), r(net[0].weight.grad)[:3])
# hooks run in the create_graph pass
x = torch.randn(3, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 3)
g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)
print("hook", r(g), r(torch.autograd.grad(g.sum(), x)[0]))
# retain_graph=False with create_graph: a second pass through the graph fails
z = torch.randn(3, requires_grad=True)
out = (z.exp() * z).sum()
torch.autograd.grad(out, z, create_graph=True, retain_graph=False)
try:
    torch.autograd.grad(out, z)
except RuntimeError as e:
    print("second pass fails:", "second time" in str(e) or "freed" in str(e))


# once_differentiable: a second differentiation through it raises PyTorch's error
from torch.autograd.function import once_differentiable


class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1.0, 3.0], requires_grad=True)
print(torch.autograd.grad(Sq.apply(x).sum(), x))
g, = torch.autograd.grad(Sq.apply(x).sum(), x, create_graph=True)
print(g.requires_grad)
try:
    torch.autograd.grad(g.sum(), x)
except RuntimeError as e:
    print("RuntimeError:", e)
go = torch.ones(2, requires_grad=True)
g2, = torch.autograd.grad(Sq.apply(x), x, grad_outputs=go, create_graph=True)
print(g2.requires_grad)
try:
    g2.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

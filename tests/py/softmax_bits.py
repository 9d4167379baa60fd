# softmax, log_softmax and cross-entropy give PyTorch's bits: nndb follows
# PyTorch 1.13's last-dim kernels (8-float or 4-double vectors, the row max
# and sums in its order, SLEEF's exp/log, the fused multiply-adds of the
# backward) on AVX2 machines with libsleef (docs/language-tensors.md). Each
# result prints as an md5 of its bytes, so a single last-bit difference
# shows; NaNs hash as one value (which NaN a row of NaN holds depends on the
# compiler's operand order, in PyTorch's build as in nndb's). Row lengths
# cover the scalar folds (< 8), one vector, partial vectors and long rows;
# planted -inf, +inf, NaN and huge values; the eight-rows path of short
# rows (rows >= 8, < 16 classes); float64 rows; cross-entropy and nll_loss;
# the causal attention composition (masked_fill(-inf), softmax, @ v) and
# the fused scaled_dot_product_attention(is_causal=True) against it.
import hashlib
import struct

import torch
import torch.nn.functional as F


def h(t):
    v = [u if u == u else float("nan") for u in t.detach().reshape(-1).tolist()]
    fmt = "d" if t.dtype == torch.float64 else "f"
    return hashlib.md5(struct.pack("<%d%s" % (len(v), fmt), *v)).hexdigest()[:16]


torch.manual_seed(0)
for dt, n, rows in ([(torch.float32, n, rows) for n in (1, 3, 7, 8, 9, 15, 16, 17, 64, 255, 256, 1000)
                     for rows in (5, 16)]
                    + [(torch.float64, n, 16) for n in (1, 3, 4, 5, 8, 9, 64, 255)]):
    x = torch.randn(rows, n, dtype=dt) * 4
    if n >= 3 and rows == 16:
        x[1, n // 2] = float("-inf")
        x[2, :] = float("-inf")
        x[3, n - 1] = float("inf")
        x[4, 0] = float("nan")
        x[5, n // 3] = 1e30
        x[6, :] = 0.0
        x[7, 1] = -0.0
        x[8, :] = x[8, :] * 1e-30
    x.requires_grad_()
    g = torch.randn(rows, n, dtype=dt)
    y = F.softmax(x, -1)
    (dx,) = torch.autograd.grad(y, x, g)
    ly = F.log_softmax(x, -1)
    (ldx,) = torch.autograd.grad(ly, x, g)
    print(dt, "n", n, "rows", rows, "softmax", h(y), h(dx), "log_softmax", h(ly), h(ldx))

# dim=1 of [N, C] rows, and 3-d inputs over the last dim
x = (torch.randn(4, 6, 33) * 3).requires_grad_()
y = torch.softmax(x, 2)
y.backward(torch.randn(4, 6, 33))
print("3d", h(y), h(x.grad))

# cross-entropy (index targets, some ignored) and nll_loss of log_softmax:
# the loss (PyTorch sums the rows' losses in float in a cascade of partial
# sums), the gradient (nll_loss's backward, then log_softmax's), with and
# without grad, mean, sum and none
for n, c in ((64, 3), (37, 10), (16, 1000), (4, 50257), (30, 7)):
    x = (torch.randn(n, c) * 2).requires_grad_()
    t = torch.randint(0, c, (n,))
    t[0] = -100
    for red in ("mean", "sum", "none"):
        g = torch.randn(n) if red == "none" else torch.tensor(1.7)
        loss = F.cross_entropy(x, t, reduction=red)
        (dx,) = torch.autograd.grad(loss, x, g)
        nll = F.nll_loss(F.log_softmax(x, 1), t, reduction=red)
        (dx2,) = torch.autograd.grad(nll, x, g)
        with torch.no_grad():
            loss_ng = F.cross_entropy(x, t, reduction=red)
        print("cross_entropy", n, c, red, h(loss), h(loss_ng), h(dx), "nll", h(nll), h(dx2))
with torch.no_grad():
    for n in (1, 15, 16, 17, 300, 5000):
        x = torch.randn(n, 11) * 3
        t = torch.randint(0, 11, (n,))
        t[::7] = -100
        print("loss sums", n, h(F.cross_entropy(x, t)), h(F.cross_entropy(x, t, reduction="sum")),
              h(F.nll_loss(x.log_softmax(1), t)))
x = torch.randn(3, 4, requires_grad=True)
(F.cross_entropy(x, torch.tensor([1, -100, 2])) * 0).backward()
print("zero gradient's signs", x.grad.tolist())

# rows that end in -inf (a mask written with masked_fill(-inf)), which nndb
# computes up to their last 8-column block with a finite value: every
# suffix length, whole-block and partial, rows of +inf, NaN or only -inf
# before the suffix, -inf inside the row, rows with a partial last block
for c in (16, 17, 24, 37, 64, 256):
    x = torch.randn(c + 8, c) * 3
    for r in range(c + 8):
        x[r, min(r + 1, c):] = float("-inf")
    x[c, 0] = float("inf")
    x[c + 1, 3] = float("nan")
    x[c + 2, :] = float("-inf")
    x[c + 3, 2:5] = float("-inf")
    x[c + 4, 1] = -1e30
    x[c + 5, :] = 0.0
    x[c + 5, 9:] = float("-inf")
    x[c + 6, c // 2] = 88.0
    x[c + 7, 0] = -88.0
    x.requires_grad_()
    y = F.softmax(x, -1)
    y.backward(torch.randn(c + 8, c))
    print("masked rows", c, h(y), h(x.grad))

# causal attention as GPT code of PyTorch 1.13 writes it, scores to output,
# and the gradients of q, k, v
for t_len in (1, 5, 8, 13, 64):
    q = torch.randn(2, 3, t_len, 16, requires_grad=True)
    k = torch.randn(2, 3, t_len, 16, requires_grad=True)
    v = torch.randn(2, 3, t_len, 16, requires_grad=True)
    mask = torch.tril(torch.ones(t_len, t_len)).view(1, 1, t_len, t_len)
    att = (q @ k.transpose(-2, -1)) * (1.0 / 16**0.5)
    att = att.masked_fill(mask == 0, float("-inf"))
    p = F.softmax(att, dim=-1)
    o = p @ v
    go = torch.randn_like(o)
    dq, dk, dv, datt = torch.autograd.grad(o, (q, k, v, att), go)
    print("causal", t_len, h(p), h(o), h(datt), h(dq), h(dk), h(dv))

# The fused attention (F.scaled_dot_product_attention, torch 2.x's name, one
# engine kernel in nndb) against that composition. With k and v identity
# rows the products are exact (scores = q / 8, output = the probabilities,
# dq = dS / 8), so only the softmax can make them differ: they must agree
# bit for bit. PyTorch 1.13 has no fused function; there the composition
# stands in for it and the hashes still compare with nndb's.
def composition(q, k, v):
    t_len = q.size(-2)
    att = (q @ k.transpose(-2, -1)) * (1.0 / q.size(-1) ** 0.5)
    att = att.masked_fill(torch.ones(t_len, t_len).tril() == 0, float("-inf"))
    return F.softmax(att, dim=-1) @ v


sdpa = getattr(F, "scaled_dot_product_attention", None)
for t_len in (1, 5, 8, 13, 40, 64):
    q = (torch.randn(2, 3, t_len, 64) * 8).requires_grad_()
    k = torch.eye(t_len, 64).repeat(2, 3, 1, 1).requires_grad_()
    v = torch.eye(t_len, 64).repeat(2, 3, 1, 1).requires_grad_()
    go = torch.randn(2, 3, t_len, 64)
    o = composition(q, k, v)
    (dq,) = torch.autograd.grad(o, q, go)
    of = sdpa(q, k, v, is_causal=True) if sdpa else composition(q, k, v)
    (dqf,) = torch.autograd.grad(of, q, go)
    print("fused causal", t_len, h(o), h(dq), "same", h(of) == h(o), h(dqf) == h(dq))

# The same composition through .backward(): there the engine writes the
# softmax, masked_fill and scale backwards over the gradient it hands on
# when nothing else holds it (docs/architecture.md). Whatever else holds
# a gradient on the way must keep its own value: a hook that keeps the
# gradient it sees, retain_grad, a tensor used twice, a scale on the left,
# a scale that needs a gradient itself, where() with two differentiable
# branches, x * x. Each gradient is hashed against PyTorch's.
def attn_grads(t_len, variant):
    torch.manual_seed(t_len)
    q = torch.randn(2, 3, t_len, 16, requires_grad=True)
    k = torch.randn(2, 3, t_len, 16, requires_grad=True)
    v = torch.randn(2, 3, t_len, 16, requires_grad=True)
    w = torch.randn(t_len, requires_grad=True)
    mask = torch.tril(torch.ones(t_len, t_len)).view(1, 1, t_len, t_len)
    kept = []
    s = q @ k.transpose(-2, -1)
    if variant == "left":
        att = (1.0 / 16**0.5) * s
    elif variant == "wscale":
        att = s * (w * 0.25)
    elif variant == "square":
        att = s * s * 0.01
    elif variant == "div":
        att = s / 16**0.5
    elif variant == "wdiv":
        att = s / (w.abs() + 2)
    else:
        att = s * (1.0 / 16**0.5)
    if variant == "hook":
        att.register_hook(lambda g: kept.append(g))
    if variant == "retain":
        att.retain_grad()
    m = att.masked_fill(mask == 0, float("-inf"))
    if variant == "hook":
        m.register_hook(lambda g: kept.append(g))
    if variant == "retain":
        m.retain_grad()
    if variant == "where2":
        m = torch.where(mask == 0, att * 0.5, att)
    p = F.softmax(m, dim=-1)
    if variant == "hook":
        p.register_hook(lambda g: kept.append(g))
    o = p @ v
    go = torch.randn_like(o)
    loss = (o * go).sum()
    if variant == "twice":
        loss = loss + (att * att.detach().clamp(-1, 1)).sum()
    loss.backward()
    out = [h(q.grad), h(k.grad), h(v.grad)]
    if variant in ("wscale", "wdiv"):  # a sum over the broadcast: against float64, not bits
        sd = q.double() @ k.double().transpose(-2, -1)
        sd = sd * (w.double() * 0.25) if variant == "wscale" else sd / (w.double().abs() + 2)
        sd = sd.masked_fill(mask == 0, float("-inf"))
        (w64,) = torch.autograd.grad((F.softmax(sd, -1) @ v.double() * go.double()).sum(), w)
        out.append(torch.allclose(w.grad.double(), w64.double(), rtol=1e-4, atol=1e-5))
    if variant == "retain":
        out += [h(att.grad), h(m.grad)]
    out += [h(g) for g in kept]
    return out


for variant in ("plain", "left", "wscale", "square", "div", "wdiv", "hook", "retain", "twice",
                "where2"):
    for t_len in (5, 64):
        print("causal backward", variant, t_len, *attn_grads(t_len, variant))

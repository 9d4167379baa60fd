# F.scaled_dot_product_attention (a torch 2.x name) against torch 2.x's
# documented composition, which this script runs itself where the name is
# missing (PyTorch 1.13): values, gradients, masks, dropout, scale, the
# causal error, gradcheck (finite differences) in float64, and the manual
# pattern learners write with 1.13.
import math

import torch
import torch.nn.functional as F


def composition(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype)
    if is_causal:
        attn_bias.masked_fill_(torch.ones(L, S, dtype=torch.bool).tril().logical_not(),
                               float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_bias + attn_mask
    attn = query @ key.transpose(-2, -1) * scale_factor
    attn = torch.softmax(attn + attn_bias, dim=-1)
    if dropout_p > 0.0:
        attn = torch.dropout(attn, dropout_p, True)
    return attn @ value


sdpa = getattr(F, "scaled_dot_product_attention", composition)


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()[:12]]


def case(name, shapes, **kw):
    torch.manual_seed(1)
    q, k, v = (torch.randn(*s, requires_grad=True) for s in shapes)
    out = sdpa(q, k, v, **kw)
    out.pow(2).sum().backward()
    print(name, tuple(out.shape), r(out))
    print("  grads", r(q.grad), r(k.grad), r(v.grad))
    qq, kk, vv = (t.detach().clone().requires_grad_() for t in (q, k, v))
    torch.manual_seed(1)
    for t in (q, k, v):
        torch.randn(*t.shape)
    ref = composition(qq, kk, vv, **kw)
    ref.pow(2).sum().backward()
    if kw.get("dropout_p", 0) == 0:
        print("  equals composition", torch.allclose(out, ref, atol=1e-5),
              all(torch.allclose(a.grad, b.grad, atol=1e-4) for a, b in ((q, qq), (k, kk), (v, vv))))


case("causal", [(2, 3, 8, 4)] * 3, is_causal=True)
case("full, S != L", [(2, 3, 5, 4), (2, 3, 7, 4), (2, 3, 7, 6)])
case("causal, S != L", [(2, 5, 4), (2, 7, 4), (2, 7, 3)], is_causal=True)
case("scale", [(1, 2, 6, 4)] * 3, scale=0.3)
case("batch dims", [(2, 1, 2, 3, 4)] * 3, is_causal=True)
case("rows of 33", [(1, 40, 8), (1, 40, 8), (1, 40, 8)], is_causal=True)
# Causal products run by blocks of 32 rows (or columns) and skip the blocks
# above the diagonal: lengths across several blocks, not multiples of 32,
# and S != L both ways.
case("causal blocks", [(2, 3, 70, 8)] * 3, is_causal=True)
case("causal blocks, S > L", [(1, 2, 40, 8), (1, 2, 75, 8), (1, 2, 75, 6)], is_causal=True)
case("causal blocks, S < L", [(1, 2, 75, 8), (1, 2, 40, 8), (1, 2, 40, 6)], is_causal=True)
mask = torch.rand(6, 6) > 0.3
mask[:, 0] = True
case("bool mask", [(1, 2, 6, 4)] * 3, attn_mask=mask)
case("float mask", [(1, 2, 6, 4)] * 3, attn_mask=torch.randn(6, 6))
torch.manual_seed(3)
q = torch.randn(1, 2, 6, 4)
torch.manual_seed(4)
print("dropout", r(sdpa(q, q, q, dropout_p=0.5)))
try:
    sdpa(q, q, q, attn_mask=mask, is_causal=True)
except RuntimeError as e:
    print("RuntimeError", e)

# Finite differences in float64 through the fused kernel.
torch.manual_seed(2)
q, k, v = (torch.randn(2, 5, 3, dtype=torch.float64, requires_grad=True) for _ in range(3))
print("gradcheck causal", torch.autograd.gradcheck(lambda a, b, c: sdpa(a, b, c, is_causal=True),
                                                   (q, k, v)))
print("gradcheck full", torch.autograd.gradcheck(lambda a, b, c: sdpa(a, b, c), (q, k, v)))
q, k, v = (torch.randn(1, 37, 2, dtype=torch.float64, requires_grad=True) for _ in range(3))
print("gradcheck causal blocks", torch.autograd.gradcheck(
    lambda a, b, c: sdpa(a, b, c, is_causal=True), (q, k, v)))

# The pattern learners write with torch 1.13 (nanoGPT's slow path).
torch.manual_seed(5)
B, H, T, D = 2, 2, 7, 4
q, k, v = (torch.randn(B, H, T, D, requires_grad=True) for _ in range(3))
bias = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(D))
att = att.masked_fill(bias[:, :, :T, :T] == 0, float("-inf"))
att = F.softmax(att, dim=-1)
y = att @ v
y.sum().backward()
print("manual", r(y), r(q.grad), r(k.grad))
print("manual equals sdpa", torch.allclose(y, sdpa(q, k, v, is_causal=True), atol=1e-6))

# q, k, v as views of one fused projection (heads split by view + transpose,
# as a GPT's attention makes them): nndb's products read them in place.
torch.manual_seed(21)
B_, T_, H_, D_ = 2, 5, 3, 4
qkv = torch.randn(B_, T_, 3 * H_ * D_, requires_grad=True)
for causal in (False, True):
    q_, k_, v_ = qkv.split(H_ * D_, dim=2)
    q_, k_, v_ = [z.view(B_, T_, H_, D_).transpose(1, 2) for z in (q_, k_, v_)]
    o_ = sdpa(q_, k_, v_, is_causal=causal)
    g_, = torch.autograd.grad((o_ * torch.arange(o_.numel()).reshape(o_.shape).sin()).sum(), qkv)
    print("fused views", causal, [round(x, 4) for x in o_.flatten()[::7].tolist()],
          [round(x, 4) for x in g_.flatten()[::11].tolist()])

# The same at a GPT's length, through the transpose and reshape back to
# [B, T, C] (nndb writes the output and the q, k, v gradients in that
# layout, so the reshape is a view); values and gradients against the
# composition over every element.
torch.manual_seed(22)
B_, T_, H_, D_ = 2, 45, 2, 8
qkv = torch.randn(B_, T_, 3 * H_ * D_, requires_grad=True)
w_ = torch.randn(B_, T_, H_ * D_)
outs = []
for f in (sdpa, composition):
    q_, k_, v_ = qkv.split(H_ * D_, dim=2)
    q_, k_, v_ = [z.view(B_, T_, H_, D_).transpose(1, 2) for z in (q_, k_, v_)]
    y_ = f(q_, k_, v_, is_causal=True).transpose(1, 2).reshape(B_, T_, H_ * D_)
    g_, = torch.autograd.grad((y_ * w_).sum(), qkv)
    outs.append((y_, g_))
print("fused views T 45", [round(x, 4) for x in outs[0][0].flatten()[::97].tolist()],
      [round(x, 4) for x in outs[0][1].flatten()[::89].tolist()])
print("  equals composition", torch.allclose(outs[0][0], outs[1][0], atol=1e-5),
      torch.allclose(outs[0][1], outs[1][1], atol=1e-4))

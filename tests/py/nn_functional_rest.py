# torch.nn.functional's non-image names: values, gradients, in-place forms
# and errors, against PyTorch 1.13 (OpInfo covers the main samples; this
# covers what it does not: in-place aliases, rrelu in eval and training,
# embedding max_norm, embedding_bag modes, error messages).
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def show(name, t):
    if isinstance(t, torch.Tensor):
        print(name, list(t.shape), t.dtype, [round(v, 5) for v in t.detach().reshape(-1).tolist()[:8]])
    else:
        print(name, t)


def err(name, f):
    try:
        f()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0])


x = torch.randn(4, 5, dtype=torch.float64)
for fname in ["elu_", "selu_", "celu_", "hardtanh_", "leaky_relu_", "rrelu_"]:
    y = x.clone()
    r = getattr(F, fname)(y)
    show(fname, y)
    print(fname, "same object", r is y)
y = x.clone()
F.threshold_(y, 0.1, -3.0)
show("threshold_", y)
show("_threshold", F._threshold(x, 0.2, 7.0))
show("hardshrink", F.hardshrink(x, 0.3))
show("softshrink", F.softshrink(x, 0.3))
err("softshrink neg", lambda: F.softshrink(x, -1.0))

# rrelu: eval is leaky_relu at the mean slope; training draws PyTorch's stream
show("rrelu eval", F.rrelu(x))
torch.manual_seed(3)
show("rrelu train", F.rrelu(x, 0.1, 0.3, training=True))
print("after rrelu", torch.rand(2).tolist())

# prelu and its weight gradient
w = torch.tensor([0.25, -0.5, 1.5, 0.1, 2.0], dtype=torch.float64, requires_grad=True)
xx = x.clone().requires_grad_()
F.prelu(xx, w).pow(2).sum().backward()
show("prelu grad w", w.grad)
show("prelu grad x", xx.grad)
err("prelu bad", lambda: F.prelu(x, torch.ones(3, dtype=torch.float64)))

# losses with options
inp = torch.randn(6, 4, dtype=torch.float64)
tgt = torch.randint(0, 4, (6,))
show("multi_margin p2 w", F.multi_margin_loss(inp, tgt, p=2, margin=0.7,
                                              weight=torch.arange(1., 5., dtype=torch.float64)))
show("multi_margin none", F.multi_margin_loss(inp, tgt, reduction="none"))
err("multi_margin p3", lambda: F.multi_margin_loss(inp, tgt, p=3))
mt = torch.tensor([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 1, 2, 3], [0, -1, 0, 0], [2, 2, -1, 0], [1, 0, 3, -1]])
show("multilabel_margin", F.multilabel_margin_loss(inp, mt))
show("multilabel_margin none", F.multilabel_margin_loss(inp, mt, reduction="none"))
show("multilabel_soft", F.multilabel_soft_margin_loss(inp, (inp > 0).double()))
y1 = torch.tensor([1., -1, 1, -1, 1, 1], dtype=torch.float64)
show("cosine_embedding", F.cosine_embedding_loss(inp, inp.flip(0), y1, margin=0.2))
show("hinge_embedding", F.hinge_embedding_loss(inp, torch.sign(inp), margin=0.5, reduction="sum"))
show("poisson full", F.poisson_nll_loss(inp, inp.abs() * 3, full=True, reduction="none"))
show("poisson not log", F.poisson_nll_loss(inp.abs(), inp.abs() * 3, log_input=False, full=True))
var = torch.rand(6, 1, dtype=torch.float64)
show("gaussian_nll", F.gaussian_nll_loss(inp, inp * 0.5, var, full=True))
err("gaussian_nll neg var", lambda: F.gaussian_nll_loss(inp, inp, -var))
a, p_, n_ = torch.randn(3, 6, 8, dtype=torch.float64).unbind(0)
show("triplet", F.triplet_margin_loss(a, p_, n_, swap=True, p=1, reduction="none"))
show("triplet dist", F.triplet_margin_with_distance_loss(
    a, p_, n_, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.3))
err("triplet dims", lambda: F.triplet_margin_loss(a, p_, n_[0]))
err("triplet dist dims", lambda: F.triplet_margin_with_distance_loss(a, p_, n_[0]))
show("pdist", F.pdist(inp))
show("pdist inf", F.pdist(inp, float("inf")))
show("cosine broadcast", F.cosine_similarity(torch.randn(1, 2, 3), torch.randn(2, 1, 3), dim=-2))
show("layer_norm neg eps", F.layer_norm(inp, (4,), eps=-1e-3))

# embedding with max_norm renormalises the weight rows it uses, in place
emb = torch.randn(10, 3, dtype=torch.float64) * 3
idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
show("embedding max_norm", F.embedding(idx, emb, max_norm=1.0))
show("weight after", emb.norm(dim=1))

# embedding_bag: modes, offsets, include_last_offset, padding_idx, weights
W = torch.randn(10, 3, dtype=torch.float64, requires_grad=True)
ids = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offs = torch.tensor([0, 4, 4])
for mode in ["sum", "mean", "max"]:
    out = F.embedding_bag(ids, W, offs, mode=mode)
    show("bag " + mode, out)
    W.grad = None
    (out * torch.arange(9.).reshape(3, 3)).sum().backward()
    show("bag grad " + mode, W.grad.sum(1))
show("bag last offset", F.embedding_bag(ids, W, torch.tensor([0, 3, 8]), mode="sum",
                                        include_last_offset=True))
show("bag padding", F.embedding_bag(ids.reshape(2, 4), W, padding_idx=2, mode="mean"))
show("bag psw", F.embedding_bag(ids, W, offs, mode="sum",
                                per_sample_weights=torch.arange(8., dtype=torch.float64)))
err("bag psw mean", lambda: F.embedding_bag(ids, W, offs, per_sample_weights=torch.ones(8)))
err("bag 2d offsets", lambda: F.embedding_bag(ids.reshape(2, 4), W, offs))
err("bag mode", lambda: F.embedding_bag(ids, W, offs, mode="min"))

# the private attention of 1.13
q = torch.randn(2, 3, 4)
k = torch.randn(2, 5, 4)
o, att = F._scaled_dot_product_attention(q, k, k, is_causal=False)
# 4 decimals: nndb's batched matmul of these [3, 4] @ [4, 5] blocks differs
# from PyTorch's in the last bit (the softmax between them is PyTorch's,
# tests/py/softmax_bits.py), and the 5th decimal of one output sits on a
# rounding edge.
print("sdpa out", [round(v, 4) for v in o.reshape(-1).tolist()[:8]])
show("sdpa att", att)
mask = torch.tensor([[True, False, True, True, False]] * 3)
show("sdpa mask", F._scaled_dot_product_attention(q, k, k, attn_mask=mask)[0])

g = F.gumbel_softmax(torch.randn(4, 6), tau=0.5, hard=True)
print("gumbel hard rows", g.sum(1).tolist(), g.shape)
print("softmax dim", F._get_softmax_dim("softmax", 3, 3))

# private helpers code reaches for
print("_Reduction", [F._Reduction.get_enum(r) for r in ("none", "mean", "sum")],
      F._Reduction.legacy_get_string(None, False, emit_warning=False))
print("_infer_size", F._infer_size(torch.Size([3, 1, 4]), torch.Size([5, 1])))
E = 4
qkv = torch.randn(2, 3, E)
wp = torch.randn(3 * E, E)
bp = torch.randn(3 * E)
show("_in_projection_packed self", F._in_projection_packed(qkv, qkv, qkv, wp, bp)[2])
kv = torch.randn(2, 5, E)
show("_in_projection_packed kv", F._in_projection_packed(qkv, kv, kv, wp, bp)[1])
show("_in_projection", F._in_projection(qkv, kv, kv, wp[:E], wp[E:2 * E], wp[2 * E:])[0])
print("_mha_shape_check", F._mha_shape_check(qkv, kv, kv, None, None, 2),
      F._mha_shape_check(qkv[0], kv[0], kv[0], None, None, 2))
err("_mha_shape_check bad", lambda: F._mha_shape_check(qkv, kv[0], kv, None, None, 2))

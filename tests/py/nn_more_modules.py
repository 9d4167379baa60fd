# Activation, dropout, distance and loss modules added for issue 22, and the
# functionals under them: values, gradients and reprs equal PyTorch's.
import warnings

import torch
from torch import nn
import torch.nn.functional as F

warnings.simplefilter("ignore")


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


def show(name, fn, *inputs):
    for t in inputs:
        if t.is_floating_point():
            t.grad = None
    out = fn(*inputs)
    print(name, tuple(out.shape), r(out))
    w = torch.arange(out.numel(), dtype=out.dtype).cos().view(out.shape)
    if out.requires_grad:
        (out * w).sum().backward()
        print("  grads", [r(t.grad) if t.grad is not None else None
                          for t in inputs if t.is_floating_point()])


def x(*shape, seed=0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=dtype).requires_grad_()


a = x(3, 5)
for m in (nn.Hardshrink(), nn.Hardshrink(0.3), nn.Softshrink(), nn.Softshrink(0.8),
          nn.RReLU(0.1, 0.3).eval(), nn.RReLU(inplace=True), nn.Softmax2d(),
          nn.PReLU(), nn.Dropout2d(0.3), nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(),
          nn.Dropout1d(), nn.Dropout3d(0.1), nn.PairwiseDistance(), nn.CosineSimilarity(0)):
    print(repr(m))
for m in (nn.Hardshrink(), nn.Softshrink(0.3), nn.RReLU(0.1, 0.3).eval()):
    show(repr(m), m, a)
show("softmax2d", nn.Softmax2d(), x(2, 3, 2))
show("prelu channels", nn.PReLU(3).double(), x(2, 3, 4))
try:
    F.softshrink(a, -1.0)
except RuntimeError as e:
    print("softshrink:", e)

# the random ones follow torch's generator
torch.manual_seed(3)
show("rrelu train", lambda t: F.rrelu(t, 0.1, 0.4, training=True), x(4, 6))
torch.manual_seed(4)
show("dropout1d", lambda t: F.dropout1d(t, 0.5), x(2, 4, 3))
torch.manual_seed(4)
show("dropout1d unbatched", lambda t: F.dropout1d(t, 0.5), x(4, 3))
torch.manual_seed(5)
show("dropout2d", lambda t: F.dropout2d(t, 0.4), x(2, 3, 2, 2))
torch.manual_seed(6)
show("dropout3d", lambda t: nn.Dropout3d(0.4)(t), x(3, 2, 2, 2))
torch.manual_seed(7)
show("alpha_dropout", lambda t: nn.AlphaDropout(0.3)(t), x(3, 4))
torch.manual_seed(8)
show("feature_alpha_dropout", lambda t: F.feature_alpha_dropout(t, 0.3, True), x(2, 3, 4))
print("eval identity", torch.equal(nn.AlphaDropout(0.3).eval()(a), a),
      torch.equal(nn.Dropout2d().eval()(a), a))
try:
    F.dropout1d(x(2, 3, 4, 5))
except RuntimeError as e:
    print("dropout1d:", e)
torch.manual_seed(9)
show("gumbel_softmax", lambda t: F.gumbel_softmax(t, tau=0.5), x(3, 4))
torch.manual_seed(9)
show("gumbel_softmax hard", lambda t: F.gumbel_softmax(t, hard=True), x(3, 4))
show("pdist", F.pdist, x(4, 3))
show("pdist p=1", lambda t: F.pdist(t, 1), x(4, 3))
show("pairwise", nn.PairwiseDistance(p=3, keepdim=True), x(3, 4), x(3, 4, seed=1))
show("cosine sim", nn.CosineSimilarity(dim=0), x(3, 4), x(3, 4, seed=1))

# losses
for red in ("mean", "sum", "none"):
    show("gaussian_nll " + red, nn.GaussianNLLLoss(reduction=red),
         x(4, 3), x(4, 3, seed=1), x(4, 1, seed=2).abs().detach().requires_grad_())
    show("gaussian_nll homo full " + red, nn.GaussianNLLLoss(full=True, reduction=red),
         x(4, 3), x(4, 3, seed=1), x(4, seed=2).abs().detach().requires_grad_())
    y = torch.tensor([1, -1, 1, -1])
    show("cosine_embedding " + red, nn.CosineEmbeddingLoss(0.2, reduction=red),
         x(4, 5), x(4, 5, seed=1), y)
    show("hinge_embedding " + red, nn.HingeEmbeddingLoss(0.5, reduction=red), x(4, 3),
         torch.tensor([[1, -1, 1], [-1, -1, 1], [1, 1, 1], [-1, 1, -1]]))
    show("multilabel_soft_margin " + red,
         nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64),
                                     reduction=red),
         x(4, 3), (x(4, 3, seed=3) > 0).double())
    t = torch.tensor([2, 0, 4, 1])
    show("multi_margin " + red, nn.MultiMarginLoss(reduction=red), x(4, 5), t)
    show("multi_margin p2 w " + red,
         nn.MultiMarginLoss(p=2, margin=0.7, weight=torch.linspace(0.5, 2, 5,
                            dtype=torch.float64), reduction=red), x(4, 5), t)
    mt = torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [0, -1, 2, 2], [-1, 1, 1, 1]])
    show("multilabel_margin " + red, nn.MultiLabelMarginLoss(reduction=red), x(4, 4), mt)
    show("triplet distance " + red,
         nn.TripletMarginWithDistanceLoss(reduction=red), x(4, 3), x(4, 3, seed=1),
         x(4, 3, seed=2))
    show("triplet cosine swap " + red,
         nn.TripletMarginWithDistanceLoss(distance_function=lambda p, q: 1 - F.cosine_similarity(p, q),
                                          margin=0.5, swap=True, reduction=red),
         x(4, 3), x(4, 3, seed=1), x(4, 3, seed=2))
show("multi_margin unbatched", nn.MultiMarginLoss(reduction="none"), x(5), torch.tensor(3))
show("multilabel_margin unbatched", nn.MultiLabelMarginLoss(reduction="none"), x(4),
     torch.tensor([2, 1, -1, 0]))
show("cosine_embedding unbatched", nn.CosineEmbeddingLoss(), x(5), x(5, seed=1),
     torch.tensor(-1))
print(repr(nn.TripletMarginWithDistanceLoss()), repr(nn.MultiMarginLoss(p=2)))
for bad in (lambda: nn.MultiMarginLoss(p=3), lambda: F.gaussian_nll_loss(a, a, x(2)),
            lambda: F.gaussian_nll_loss(a, a, -a.abs()),
            lambda: F.cosine_embedding_loss(x(3), x(3), torch.ones(3))):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
print(nn.NLLLoss2d()(F.log_softmax(x(2, 3, 2, 2), 1), torch.tensor([[[0, 1], [2, 1]],
      [[1, 1], [0, 2]]])).item())

# cross_entropy with class weights and label smoothing (and ignore_index)
w = torch.tensor([0.2, 1.0, 3.0, 0.7], dtype=torch.float64)
tgt = torch.tensor([[0, 3, 1], [2, -100, 1]])
for red in ("mean", "sum", "none"):
    show("ce weight smooth " + red,
         nn.CrossEntropyLoss(weight=w, label_smoothing=0.3, reduction=red), x(2, 4, 3), tgt)
    show("ce weight smooth ignore=1 " + red,
         nn.CrossEntropyLoss(weight=w, label_smoothing=0.1, ignore_index=1, reduction=red),
         x(5, 4), torch.tensor([1, 0, 3, 1, 2]))

# TripletMarginLoss (over F.triplet_margin_loss)
for kw in ({}, {"margin": 0.5, "p": 1.0, "swap": True}, {"reduction": "none"}):
    m = nn.TripletMarginLoss(**kw)
    print(repr(m))
    show("triplet " + str(kw), m, x(4, 3), x(4, 3, seed=1), x(4, 3, seed=2))

# EmbeddingBag (sum/mean/max, offsets, include_last_offset, padding_idx,
# per_sample_weights, empty bags) and Embedding(max_norm=): values and
# gradients equal PyTorch's.
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


torch.manual_seed(0)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0, 0])
offsets = torch.tensor([0, 4, 4, 7])
for mode in ("sum", "mean", "max"):
    for kw in ({}, {"padding_idx": 2}, {"include_last_offset": True}, {"padding_idx": -10}):
        torch.manual_seed(1)
        bag = nn.EmbeddingBag(10, 3, mode=mode, **kw).double()
        # (PyTorch 1.13 corrupts its heap when include_last_offset's last
        # offset stops short of the input's end: the last offset is len(inp))
        out = bag(inp, torch.tensor([0, 4, 4, 7, 10]) if kw.get("include_last_offset") else offsets)
        (out * torch.arange(out.numel()).view(out.shape).cos()).sum().backward()
        print(bag, tuple(out.shape), r(out))
        print("  grad", r(bag.weight.grad))
torch.manual_seed(2)
bag = nn.EmbeddingBag(10, 3, mode="sum").double()
w = torch.rand(10, dtype=torch.float64, requires_grad=True)
out = bag(inp, offsets, per_sample_weights=w)
out.sum().backward()
print("per_sample", r(out), r(w.grad))
out2 = bag(inp.view(2, 5))
print("2d", tuple(out2.shape), r(out2))
print("functional", r(F.embedding_bag(inp, bag.weight, offsets, mode="mean")))
pre = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).view(4, 3), mode="max")
print(pre, pre.weight.requires_grad, r(pre(torch.tensor([[0, 3], [2, 1]]))))
for bad in (lambda: bag(inp.view(2, 5), offsets), lambda: bag(inp),
            lambda: nn.EmbeddingBag(10, 3, mode="mean")(inp, offsets, w),
            lambda: F.embedding_bag(inp, bag.weight, offsets, mode="min"),
            lambda: bag(inp, torch.tensor([1, 4]))):
    try:
        bad()
    except (ValueError, RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, str(e).splitlines()[0])

# max_norm renormalises the looked-up rows in place
torch.manual_seed(3)
emb = nn.Embedding(6, 4, max_norm=1.0).double()
before = emb.weight.detach().clone()
out = emb(torch.tensor([[0, 2], [2, 5]]))
print("max_norm", r(out), r(emb.weight.norm(dim=1)))
print("untouched rows", torch.equal(emb.weight[1], before[1]), torch.equal(emb.weight[3], before[3]))
out.sum().backward()
print(r(emb.weight.grad))
torch.manual_seed(4)
emb = nn.EmbeddingBag(6, 4, max_norm=0.5, norm_type=1.0, mode="sum").double()
print(emb, r(emb(torch.tensor([[1, 4, 4]]))))

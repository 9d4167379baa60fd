# SparseAdam over nn.Embedding(sparse=True) / EmbeddingBag(sparse=True):
# only the looked-up rows move, moments and parameters as PyTorch's;
# dense gradients rejected with PyTorch's error. Embedding's
# scale_grad_by_freq divides each row's gradient by its count.
import torch
from torch import nn


def r(t):
    return [round(v, 6) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


torch.manual_seed(0)
emb = nn.Embedding(7, 3, sparse=True, padding_idx=6)
bag = nn.EmbeddingBag(5, 2, mode="sum", sparse=True)
lin = nn.Linear(3, 1)
opt = torch.optim.SparseAdam(list(emb.parameters()) + list(bag.parameters()), lr=0.05,
                             betas=(0.8, 0.9))
dense = torch.optim.Adam(lin.parameters(), lr=0.05)
print(opt)
batches = [torch.tensor([[0, 2, 2], [6, 1, 0]]), torch.tensor([[3, 3, 6], [4, 0, 2]]),
           torch.tensor([[5, 1, 6], [6, 6, 6]])]
for step, b in enumerate(batches):
    opt.zero_grad()
    dense.zero_grad()
    loss = lin(emb(b)).pow(2).mean() + bag(b.clamp(max=4)).sum() ** 2 / 10
    loss.backward()
    opt.step()
    dense.step()
    print(step, round(loss.item(), 6))
    print("  emb", r(emb.weight))
    print("  bag", r(bag.weight))
st = opt.state[emb.weight]
print("state", st["step"], r(st["exp_avg"]), r(st["exp_avg_sq"]))
sd = opt.state_dict()
print(sorted(sd["state"].keys()), sd["param_groups"])

m = nn.Linear(2, 2)
bad = torch.optim.SparseAdam(m.parameters())
m(torch.ones(1, 2)).sum().backward()
try:
    bad.step()
except RuntimeError as e:
    print("RuntimeError", e)
for kw in ({"lr": 0.0}, {"eps": 0.0}, {"betas": (1.0, 0.9)}):
    try:
        torch.optim.SparseAdam(m.parameters(), **kw)
    except ValueError as e:
        print("ValueError", e)

torch.manual_seed(1)
e2 = nn.Embedding(4, 2, scale_grad_by_freq=True)
out = e2(torch.tensor([[1, 1, 2], [1, 3, 3]]))
(out * torch.arange(12.0).view(2, 3, 2)).sum().backward()
print("scale_grad_by_freq", r(out), r(e2.weight.grad))

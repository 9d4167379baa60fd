# torch.utils.checkpoint: recomputation in backward gives the gradients of
# the plain run, dropout included (the random state is preserved), for
# checkpoint and checkpoint_sequential, reentrant or not.
import warnings

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


def r(t):
    return [round(v, 5) + 0.0 for v in t.reshape(-1).tolist()]


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(12, 6)

    def forward(self, x):
        return x + self.fc2(self.drop(torch.tanh(self.fc1(x))))


def grads(model):
    return [p.grad.clone() for p in model.parameters()]


def run(mode, reentrant=True):
    torch.manual_seed(0)
    model = nn.Sequential(Block(), Block(), Block(), Block())
    x = torch.randn(5, 6, requires_grad=True)
    torch.manual_seed(1)
    if mode == "plain":
        y = model(x)
    elif mode == "checkpoint":
        h = x
        for blk in model:
            h = checkpoint(blk, h, use_reentrant=reentrant)
        y = h
    else:
        y = checkpoint_sequential(model, 2, x)  # 1.13 takes no use_reentrant here
    loss = (y ** 2).mean()
    loss.backward()
    after = torch.rand(1)  # the generator continues as without recomputation
    return loss, grads(model), x.grad, after


base = run("plain")
print("loss", round(base[0].item(), 6), "x.grad", r(base[2])[:4])
for mode, variants in (("checkpoint", (True, False)), ("sequential", (True,))):
    for reentrant in variants:
        got = run(mode, reentrant)
        same = (torch.equal(got[0], base[0]) and torch.equal(got[2], base[2])
                and all(torch.allclose(a, b, atol=1e-6) for a, b in zip(got[1], base[1]))
                and torch.equal(got[3], base[3]))
        print(mode, "reentrant" if reentrant else "non-reentrant", "same as plain:", same)

# without preserve_rng_state the recomputed dropout masks differ
torch.manual_seed(0)
blk = Block()
x = torch.randn(5, 6, requires_grad=True)
torch.manual_seed(1)
checkpoint(blk, x, preserve_rng_state=False).sum().backward()
g_free = blk.fc1.weight.grad.clone()
blk.zero_grad()
torch.manual_seed(1)
blk(x).sum().backward()
print("preserve_rng_state=False changes the masks:",
      not torch.allclose(g_free, blk.fc1.weight.grad))

# inputs that do not require grad: reentrant warns and the parameters get
# nothing; non-reentrant still trains them
torch.manual_seed(0)
lin = nn.Linear(3, 2)
xi = torch.randn(4, 3)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    out = checkpoint(lin, xi)
    print("warned:", [str(m.message) for m in w])
print("reentrant output requires grad:", out.requires_grad)
checkpoint(lin, xi, use_reentrant=False).sum().backward()
print("non-reentrant weight grad", r(lin.weight.grad))

# several outputs, non-tensor arguments, keyword arguments (non-reentrant)
def two(a, scale, b=None):
    return a * scale, (a + b).exp()


a = torch.randn(3, requires_grad=True)
bb = torch.randn(3, requires_grad=True)
p, q = checkpoint(two, a, 2.0, use_reentrant=False, b=bb)
(p.sum() + q.sum()).backward()
print("two outputs", r(a.grad), r(bb.grad))
try:
    checkpoint(two, a, 2.0, b=bb)
except ValueError as e:
    print("ValueError:", e)
try:
    checkpoint_sequential(nn.Sequential(nn.Linear(2, 2)), 1, torch.randn(1, 2), foo=1)
except ValueError as e:
    print("ValueError:", e)
l2 = nn.Linear(3, 3)
xa = torch.randn(2, 3, requires_grad=True)
try:
    torch.autograd.grad(checkpoint(l2, xa).sum(), xa)
except RuntimeError as e:
    print("RuntimeError:", e)

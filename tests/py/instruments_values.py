"""nndb's training instruments against the same figures computed by hand.

Under nndb python the figures come from nndb.instruments (stats,
activations, dependencies, profile's FLOP and byte counts); under PyTorch,
which has no such instruments, this script computes each one by hand the
way Karpathy's makemore part 3 does. Both must print the same lines.
"""
import math

import torch
import torch.nn as nn

try:
    from nndb import instruments
except ImportError:
    instruments = None

torch.manual_seed(0)

# ---- stats: data, gradient, grad:data and update:data of one step ----
model = nn.Linear(3, 1, bias=False)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 2.0, 3.0]]))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
if instruments:
    instruments.stats(model, opt)  # keeps the updates from the next step on
before = model.weight.detach().clone()
model(torch.tensor([[1.0, 2.0, 4.0]])).sum().backward()
opt.step()
if instruments:
    row = instruments.stats(model, opt).rows[0]
    figures = (row.data_mean, row.data_std, row.grad_std, row.grad_data, row.update_data)
else:
    w, g = model.weight.detach().double(), model.weight.grad.double()
    u = w - before.double()
    figures = (w.mean().item(), w.std().item(), g.std().item(), (g.std() / w.std()).item(),
               (u.std() / w.std()).item())
print("stats", " ".join(f"{v:.4f}" for v in figures))

# ---- activations: saturated tanh units and dead ReLU units ----
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 6), nn.ReLU())
with torch.no_grad():
    net[0].weight.mul_(6.0)
    net[2].bias.fill_(-0.6)
x = torch.randn(16, 4)
if instruments:
    rows = instruments.activations(net, x).rows
    sat, dead, means = rows[1].saturated, rows[3].dead, [r.mean for r in rows]
else:
    with torch.no_grad():
        h0 = net[0](x)
        h1 = net[1](h0)
        h2 = net[2](h1)
        h3 = net[3](h2)
    sat = (h1.abs() > 0.97).double().mean().item()
    dead = 1 - (h3 > 0).any(0).double().mean().item()
    means = [h.double().mean().item() for h in (h0, h1, h2, h3)]
print("activations", f"saturated {sat:.4f} dead {dead:.4f}", [f"{m:.4f}" for m in means])

# ---- dependencies: a batch statistic leaks across examples ----
clean = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
xb = torch.randn(5, 3)


def leaky(b):
    return clean(b - b.mean(0))


for f in (clean, leaky):
    if instruments:
        rows = instruments.dependencies(f, xb, i=2).rows
    else:
        xc = xb.clone().requires_grad_(True)
        f(xc)[2].sum().backward()
        rows = [k for k in range(len(xb)) if k != 2 and xc.grad[k].abs().sum() > 0]
    print("dependencies", rows)

# ---- profile: FLOPs and bytes of a linear layer (docs/instruments.md's table) ----
lin = nn.Linear(3, 4)
xp = torch.randn(5, 3)
if instruments:
    p = instruments.profile(lambda: lin(xp))
    row = [r for r in p.ops if r.key == "linear"][0]
    counts = (row.calls, row.flops, row.bytes_read, row.bytes_written)
else:
    n, k, m = 5, 3, 4  # 2K per output element, +1 for the bias; float32 in and out
    counts = (1, float(2 * k * n * m + n * m), float(4 * (n * k + m * k + m)), float(4 * n * m))
print("profile linear", counts)

"""A GELU's output under a linear (a GPT's MLP: c_fc, GELU, c_proj) is not
kept for backward under nndb: the GELU keeps its input for its own
backward, and the linear's weight gradient recomputes the GELU's output
from it, with the same bits (docs/debugger.md, "What a node keeps"); so
is a layer norm's output under a linear. PyTorch keeps both, 12 MiB each
a layer at GPT-2 124M B4 T256 for the GELU; nndb's step peak fell by
about 220 MiB there (docs/benchmarks.md, issue 27).
Under nndb the engine allocator's live bytes after the forward are checked
against the sizes of the tensors; PyTorch has no such counter, and prints
the same verdicts. The gradients are compared bit for bit in both: with the
output recomputed, and with a forward hook holding it (nothing to
recompute)."""
import struct

import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    from torch import _C
    stats = _C._mem_stats
except AttributeError:
    stats = None

C = 128
slack = 64 * 1024


def within(used, need):
    """the allocator rounds a block up by under 25% (size classes, as under
    the sanitizers); nodes and headers are small"""
    return used <= need * 1.25 + slack



def bits(t):
    return [struct.unpack("<I", struct.pack("<f", v))[0] for v in t.detach().reshape(-1).tolist()]


class MLP(nn.Module):
    def __init__(self, C, approximate):
        super().__init__()
        self.c_fc = nn.Linear(C, 4 * C)
        self.gelu = nn.GELU(approximate=approximate)
        self.c_proj = nn.Linear(4 * C, C)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


def grads(m, x, held=None):
    m.zero_grad(set_to_none=True)
    handle = None
    if held is not None:
        handle = m.gelu.register_forward_hook(lambda mod, a, out: held.append(out))
    base = stats()["in_use"] if stats else 0
    y = m(x)
    kept = stats()["in_use"] - base if stats else 0
    (y * y).sum().backward()
    if handle:
        handle.remove()
    return [p.grad.clone() for p in m.parameters()], kept, y.numel() * 4


# rows: erf's GELU keeps its backward's factor up to 2^19 elements (and
# then nothing is recomputed); 2048 x 512 is above that
for approximate, N in (("tanh", 256), ("none", 2048)):
    act = N * 4 * C * 4  # c_fc's output, the GELU's output
    torch.manual_seed(1)
    m = MLP(C, approximate)
    x = torch.randn(2, N // 2, C)
    grads(m, x)  # warm up
    a, kept, out = grads(m, x)
    held = []
    b, kept_held, _ = grads(m, x, held)
    # kept after the forward: c_fc's output (the GELU's input) and y, not the GELU's output
    print(approximate, "GELU output not kept:", within(kept, act + out) if stats else True,
          "kept while held:", kept_held >= 2 * act if stats else True)
    print(approximate, "same bits recomputed and held:", all(bits(g) == bits(h) for g, h in zip(a, b)))
    print(approximate, "grad sums:", [round(float(g.sum()), 1) for g in a])

# a layer norm's output under a linear (a GPT's ln_1 and c_attn, ln_2 and
# c_fc, ln_f and the LM head) is made again the same way
torch.manual_seed(4)
ln, lin = nn.LayerNorm(C), nn.Linear(C, C)
x = torch.randn(4, 512, C)


def ln_step(held=None):
    ln.zero_grad(set_to_none=True)
    lin.zero_grad(set_to_none=True)
    base = stats()["in_use"] if stats else 0
    h = ln(x)
    if held is not None:
        held.append(h)
    y = lin(h)
    del h
    kept = stats()["in_use"] - base if stats else 0
    (y * y).sum().backward()
    return [t.grad.clone() for t in (ln.weight, ln.bias, lin.weight, lin.bias)], kept, y.numel() * 4


ln_step()
a, kept, out = ln_step()
b, kept_held, _ = ln_step([])
h_bytes = x.numel() * 4
print("layer norm output not kept:", within(kept, out) if stats else True,
      "kept while held:", kept_held >= out + h_bytes if stats else True)
print("layer norm same bits recomputed and held:", all(bits(g) == bits(h) for g, h in zip(a, b)))
# (absolute: the linear's weight gradient sums to about 0, rows of the
# layer norm's output having mean 0)
print("layer norm grad sums:", [round(float(g.abs().sum()), 1) for g in a])

# double backward through the recomputed output
torch.manual_seed(2)
m = MLP(16, "tanh")
x = torch.randn(4, 16, requires_grad=True)
y = m(x)
(gx,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
(gx * gx).sum().backward()
print("double backward:", round(float(x.grad.sum()), 4), round(float(m.c_proj.weight.grad.sum()), 3))

# the GELU's input changed in place after the forward: backward refuses,
# as PyTorch's (its GELU saved that input)
torch.manual_seed(3)
m = MLP(16, "tanh")
x = torch.randn(4, 16)
h = m.c_fc(x)
y = m.c_proj(F.gelu(h, approximate="tanh"))
with torch.no_grad():
    h.add_(1.0)
try:
    y.sum().backward()
    print("in-place change: no error")
except RuntimeError as e:
    print("in-place change refused:", "modified by an inplace operation" in str(e))

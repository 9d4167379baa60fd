"""The first training steps reuse the memory of the step before them: the
second step of a GPT-like model trained with AdamW touches no more memory
than the first did, but for the rest of the allocator's last 8 MiB growth
(docs/benchmarks.md, "The first steps' page faults").
Adam's moments are made in the first optimizer.step(), after the
activations of that step are freed; made where those were, they left the
next step's activations no room there, and each later step touched new
pages until the layout settled (a page fault costs 15-25 us on a VM).
Under nndb the allocator's `touched` (its region up to the highest block
it has handed out) must stay within that of the first step's; PyTorch has no
such counter, and prints the same verdicts. The losses are compared in
both."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    from torch import _C
    stats = _C._mem_stats
except AttributeError:
    stats = None


class Block(nn.Module):
    def __init__(self, C, H):
        super().__init__()
        self.ln_1 = nn.LayerNorm(C)
        self.c_attn = nn.Linear(C, 3 * C)
        self.c_proj = nn.Linear(C, C)
        self.ln_2 = nn.LayerNorm(C)
        self.c_fc = nn.Linear(C, 4 * C)
        self.c_mlp = nn.Linear(4 * C, C)
        self.H = H

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.H, C // self.H).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
        att = F.softmax(att.masked_fill(mask == 0, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.c_proj(y)
        return x + self.c_mlp(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, L, H, C, V, T):
        super().__init__()
        self.wte = nn.Embedding(V, C)
        self.wpe = nn.Embedding(T, C)
        self.h = nn.ModuleList([Block(C, H) for _ in range(L)])
        self.ln_f = nn.LayerNorm(C)
        self.lm_head = nn.Linear(C, V, bias=False)
        self.wte.weight = self.lm_head.weight

    def forward(self, idx, targets):
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1)))
        for b in self.h:
            x = b(x)
        logits = self.lm_head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


torch.manual_seed(0)
# the tied embedding (16 MiB) and its moments dominate, as in GPT-2
L, H, C, V, B, T = 2, 4, 256, 16384, 4, 64
model = GPT(L, H, C, V, T)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randint(0, V, (B, T))
y = torch.randint(0, V, (B, T))
params = sum(p.numel() for p in model.parameters()) * 4


def step():
    opt.zero_grad(set_to_none=True)
    loss = model(x, y)
    loss.backward()
    opt.step()
    return loss.item()


losses = [step()]
after_first = stats()["touched"] if stats else 0
for i in range(3):
    losses.append(step())
    grown = stats()["touched"] - after_first if stats else 0
    # At most the free rest of the region's last growth (8 MiB) above the
    # moments, where the few blocks go that no longer fit below; with the
    # moments made in the activations' holes, step 1 touched 24 MB more
    # and step 2 another 17 (the parameters are 23 MB, the moments 46).
    print("step %d touches no new memory:" % (i + 1), grown <= 8 << 20)
print("losses:", " ".join("%.4f" % v for v in losses))

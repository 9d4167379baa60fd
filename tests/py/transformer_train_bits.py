"""A small transformer language model trained as a course writes it (heads as
modules, a registered causal mask, GELU feed-forward, layer norms,
dropout, AdamW, gradient clipping) prints the same losses to the last digit
under nndb and PyTorch 1.13 when both run at the same thread count: every
op of its forward and backward, the optimizer and the random streams give
PyTorch's bits. A change that moves one last bit anywhere shows here."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class Head(nn.Module):
    def __init__(self, C, hs, T):
        super().__init__()
        self.key = nn.Linear(C, hs, bias=False)
        self.query = nn.Linear(C, hs, bias=False)
        self.value = nn.Linear(C, hs, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(T, T)))
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = self.dropout(F.softmax(wei, dim=-1))
        return wei @ self.value(x)


class Block(nn.Module):
    def __init__(self, C, nh, T):
        super().__init__()
        self.heads = nn.ModuleList([Head(C, C // nh, T) for _ in range(nh)])
        self.proj = nn.Linear(C, C)
        self.ffwd = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C),
                                  nn.Dropout(0.1))
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)

    def forward(self, x):
        x = x + self.proj(torch.cat([h(self.ln1(x)) for h in self.heads], dim=-1))
        return x + self.ffwd(self.ln2(x))


class LM(nn.Module):
    def __init__(self, V=50, C=32, T=16, nh=4, L=2):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V, C), nn.Embedding(T, C)
        self.blocks = nn.Sequential(*[Block(C, nh, T) for _ in range(L)])
        self.lnf, self.head = nn.LayerNorm(C), nn.Linear(C, V)

    def forward(self, idx, targets):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T))
        logits = self.head(self.lnf(self.blocks(x)))
        return F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))


m = LM()
opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
data = torch.randint(0, 50, (1000,))
for it in range(30):
    ix = torch.randint(len(data) - 16, (4,))
    xb = torch.stack([data[i:i + 16] for i in ix])
    yb = torch.stack([data[i + 1:i + 17] for i in ix])
    loss = m(xb, yb)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    opt.step()
    if it % 3 == 0:
        # the total gradient norm to 6 digits: torch.norm's last bit on a
        # vector of norms is not always PyTorch's (docs/language-tensors.md)
        print(it, repr(loss.item()), f"{norm.item():.6f}")

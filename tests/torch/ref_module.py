"""PyTorch reference cases for the nn modules (engine/nn_module.c).

Writes build/ref/module.txt; the C side is tests/unit/test_torch_module.c.
The format is its own (modules have more tensors than refgen's cases hold):

    case <name>
    repr <PyTorch's repr, backslash-escaped onto one line>
    param <dotted name> <tensor>     one per state_dict entry, in its order
    input <tensor>                   the forward's input
    target <tensor>                  GPT only: targets for the loss
    out <tensor>                     the forward's output (logits for GPT)
    loss <tensor>                    GPT only: mean cross-entropy
    up <tensor>                      otherwise: backward of sum(out * up)
    ingrad <tensor>                  gradient of the input, when it is float
    grad <dotted name> <tensor>      one per named_parameters entry, in order
    end

<tensor> is refgen's "<dtype> <ndim> <shape...> <values...>". The C side
builds the same module, loads the params with load_state_dict(strict), runs
forward and backward, and compares everything above, including the order of
the names and the repr text.

GPT here is nanoGPT's shape with nndb's child names (tok_emb, pos_emb, drop,
blocks, ln_f, head; a block is ln1, attn, ln2, mlp). torch 1.13 has no
F.scaled_dot_product_attention, so attention is written out with a
top-left-aligned causal mask.
"""
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refgen import _fmt  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, dropout=0.0, bias=True):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=bias)
        self.proj = nn.Linear(n_embd, n_embd, bias=bias)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        keep = torch.ones(T, T, dtype=torch.bool).tril()
        att = torch.softmax(att.masked_fill(~keep, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.drop(self.proj(y))


def layer_norm(c, bias):
    ln = nn.LayerNorm(c)
    if not bias:
        ln.bias = None
    return ln


class Block(nn.Module):
    def __init__(self, n_embd, n_head, dropout=0.0, bias=True):
        super().__init__()
        self.ln1 = layer_norm(n_embd, bias)
        self.attn = CausalSelfAttention(n_embd, n_head, dropout, bias)
        self.ln2 = layer_norm(n_embd, bias)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd, bias=bias), nn.GELU(),
                                 nn.Linear(4 * n_embd, n_embd, bias=bias), nn.Dropout(dropout))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab, block, n_layer, n_head, n_embd, dropout=0.0, bias=True, tied=True):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, n_embd)
        self.pos_emb = nn.Embedding(block, n_embd)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, dropout, bias) for _ in range(n_layer)])
        self.ln_f = layer_norm(n_embd, bias)
        self.head = nn.Linear(n_embd, vocab, bias=False)
        if tied:
            self.head.weight = self.tok_emb.weight
        # Weights are random here and copied into nndb, so the init scheme
        # does not matter; scale them like nanoGPT's for realistic values.
        for name, p in self.named_parameters():
            if p.dim() == 2:
                nn.init.normal_(p, 0.0, 0.02 if "proj" not in name and "mlp.2" not in name
                                else 0.02 / math.sqrt(2 * n_layer))
            elif name.endswith("bias"):
                nn.init.normal_(p, 0.0, 0.02)
            else:
                nn.init.normal_(p, 1.0, 0.1)

    def forward(self, idx, targets):
        T = idx.shape[-1]
        x = self.drop(self.tok_emb(idx) + self.pos_emb(torch.arange(T)))
        for b in self.blocks:
            x = b(x)
        logits = self.head(self.ln_f(x))
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=-1)
        return logits, loss


out_dir = os.environ.get("NNDB_REF_DIR", "build/ref")
os.makedirs(out_dir, exist_ok=True)
path = os.path.join(out_dir, "module.txt")
f = open(path, "w")
names = set()


def randomise(m):
    """Give every LayerNorm non-trivial weights so its gradient path is tested."""
    with torch.no_grad():
        for name, p in m.named_parameters():
            if isinstance(m, GPT):
                continue
            if name.endswith("weight") and p.dim() >= 1 and "ln" in name:
                p.normal_(1.0, 0.2)


def case(name, m, x, target=None):
    assert name not in names, name
    names.add(name)
    randomise(m)
    f.write(f"case {name}\n")
    f.write("repr " + repr(m).replace("\\", "\\\\").replace("\n", "\\n") + "\n")
    for k, t in m.state_dict().items():
        f.write(f"param {k} {_fmt(t)}\n")
    x = x.clone()
    if x.is_floating_point():
        x.requires_grad_(True)
    f.write("input " + _fmt(x) + "\n")
    if target is not None:
        f.write("target " + _fmt(target) + "\n")
        out, loss = m(x, target)
        f.write("out " + _fmt(out) + "\n")
        f.write("loss " + _fmt(loss) + "\n")
        loss.backward()
    else:
        out = m(x)
        f.write("out " + _fmt(out) + "\n")
        up = torch.randn(out.shape, dtype=out.dtype)
        f.write("up " + _fmt(up) + "\n")
        out.backward(up)
    if x.requires_grad:
        f.write("ingrad " + _fmt(x.grad) + "\n")
    for k, p in m.named_parameters():
        g = p.grad if p.grad is not None else torch.zeros_like(p)
        f.write(f"grad {k} {_fmt(g)}\n")
    f.write("end\n")


def rnd(*shape):
    return torch.randn(*shape)


case("linear", nn.Linear(5, 3), rnd(4, 5))
case("linear_nobias", nn.Linear(5, 3, bias=False), rnd(4, 5))
case("linear_3d", nn.Linear(4, 6), rnd(2, 3, 4))
case("embedding", nn.Embedding(10, 4), torch.tensor([[1, 3, 3], [9, 0, 2]]))
case("layernorm", nn.LayerNorm(6), rnd(3, 6))
case("layernorm_2d_noaffine", nn.LayerNorm((3, 4), eps=1e-3, elementwise_affine=False),
     rnd(2, 3, 4))
case("dropout_eval", nn.Dropout(0.5).eval(), rnd(3, 4))
case("dropout_zero", nn.Dropout(0.0), rnd(3, 4))
case("relu", nn.ReLU(), rnd(3, 4))
case("leaky_relu", nn.LeakyReLU(0.2), rnd(3, 4))
case("tanh", nn.Tanh(), rnd(3, 4))
case("sigmoid", nn.Sigmoid(), rnd(3, 4))
case("gelu", nn.GELU(), rnd(3, 4))
case("gelu_tanh", nn.GELU(approximate="tanh"), rnd(3, 4))
case("silu", nn.SiLU(), rnd(3, 4))
case("softmax", nn.Softmax(dim=1), rnd(3, 4))
case("flatten", nn.Flatten(), rnd(2, 3, 2, 2))
case("flatten_mid", nn.Flatten(0, 1), rnd(2, 3, 2))
case("sequential", nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 3)), rnd(8, 2))
case("mlp_relu", nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(),
                               nn.Linear(8, 3)), rnd(5, 4))
case("modulelist_nested", nn.Sequential(nn.Sequential(nn.Linear(3, 3), nn.SiLU()),
                                        nn.Linear(3, 2)), rnd(4, 3))
case("attention", CausalSelfAttention(16, 2), rnd(2, 8, 16))
case("attention_nobias", CausalSelfAttention(8, 4, bias=False), rnd(1, 5, 8))
case("block", Block(16, 2), rnd(2, 8, 16))
idx = torch.randint(0, 32, (2, 8))
tgt = torch.randint(0, 32, (2, 8))
case("gpt_tied", GPT(32, 8, 2, 2, 16, tied=True), idx, tgt)
case("gpt_untied", GPT(32, 8, 2, 2, 16, tied=False), idx, tgt)
case("gpt_nobias_short", GPT(32, 8, 1, 4, 16, bias=False, tied=True), idx[:, :5], tgt[:, :5])
f.close()
print(f"{path}: {len(names)} cases", file=sys.stderr)

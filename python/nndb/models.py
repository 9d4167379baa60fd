"""nndb's ready-made models beyond torch.nn: MLP, num_params, and nanoGPT's
GPT with its Block and CausalSelfAttention.

MLP(sizes, act='tanh') is the Sequential of Linear layers with the
activation between them that the old interpreter built (nn_module_mlp):
MLP([2, 64, 3]) is Sequential(Linear(2, 64), Tanh(), Linear(64, 3)), its
layers drawn from torch's stream in that order, so a seeded model has the
same weights under both interpreters. It prints as that Sequential, and has
nndb's num_params.

GPT(vocab_size=256, block_size=64, n_layer=2, n_head=4, n_embd=64,
dropout=0.0, bias=True, tie_weights=True) is nanoGPT's model (model.py) under
the child names the old interpreter gave it (tok_emb, pos_emb, drop, blocks,
ln_f, head; a block's ln1, attn, ln2, mlp; attention's qkv, proj, drop): the
same construction order and initialisation (apply(_init_weights), then the
scaled projection weights), so a seeded GPT has nanoGPT's weights.
model(idx) gives the logits of every position; model(idx, targets) gives
(logits, mean cross-entropy) with -1 targets ignored.
"""

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

__all__ = ["MLP", "num_params", "GPT", "GPTConfig", "Block", "CausalSelfAttention"]

_ACTS = {"relu": nn.ReLU, "leaky_relu": nn.LeakyReLU, "tanh": nn.Tanh, "sigmoid": nn.Sigmoid,
         "gelu": nn.GELU, "silu": nn.SiLU}


def num_params(module):
    """The number of parameter elements of a module (shared tensors counted
    once); the same as module.num_params for nndb's models."""
    if not isinstance(module, nn.Module):
        raise TypeError(f"num_params() expects a Module, not {type(module).__name__}")
    return sum(p.numel() for p in module.parameters())


class MLP(nn.Sequential):
    """MLP(sizes, act='tanh'): Linear layers between consecutive sizes with the
    activation between them (not after the last).

        model = MLP([2, 64, 64, 3], act='relu')
    """

    def __init__(self, sizes, act="tanh"):
        if isinstance(sizes, torch.Size):
            sizes = list(sizes)
        if not isinstance(sizes, (list, tuple)) or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            raise TypeError("MLP sizes must be a list of ints")
        if len(sizes) < 2:
            raise ValueError("MLP needs at least two sizes (in and out)")
        if act is None:
            act = "tanh"
        if act not in _ACTS:
            names = ", ".join(f"'{a}'" for a in _ACTS)
            raise ValueError(f"MLP act must be one of {names}, not '{act}'")
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(nn.Linear(sizes[i], sizes[i + 1]))
            if i + 2 < len(sizes):
                layers.append(_ACTS[act]())
        super().__init__(*layers)

    def _get_name(self):
        return "Sequential"  # it prints as the Sequential it is

    @property
    def num_params(self):
        return num_params(self)


# ---- nanoGPT ----

def _check_heads(who, n_embd, n_head):
    if n_embd <= 0 or n_head <= 0 or n_embd % n_head:
        raise ValueError(f"{who}: n_embd ({n_embd}) must be a positive multiple of n_head "
                         f"({n_head})")


class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention: qkv projection, softmax(q k^T /
    sqrt(d)) over earlier positions only, output projection, dropout.
    Takes [B, T, n_embd] or one sequence [T, n_embd]."""

    def __init__(self, n_embd, n_head, dropout=0.0, bias=True):
        super().__init__()
        _check_heads("CausalSelfAttention", n_embd, n_head)
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=bias)
        self.proj = nn.Linear(n_embd, n_embd, bias=bias)
        self.drop = nn.Dropout(dropout)
        self.n_embd = n_embd
        self.n_head = n_head

    def forward(self, x):
        C, H = self.n_embd, self.n_head
        if x.dim() == 2 and x.shape[1] == C:
            return self.forward(x.unsqueeze(0)).squeeze(0)
        if x.dim() != 3 or x.shape[2] != C:
            raise RuntimeError(f"CausalSelfAttention: expects input [B, T, {C}] or [T, {C}], "
                               f"got {list(x.shape)}")
        B, T, _ = x.shape
        q, k, v = (t.view(B, T, H, C // H).transpose(1, 2) for t in self.qkv(x).split(C, dim=2))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C // H))
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        att = att.masked_fill(future, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.drop(self.proj(y))


class Block(nn.Module):
    """nanoGPT's pre-norm transformer block: x + attn(ln1(x)), then
    x + mlp(ln2(x)) with a 4x GELU MLP."""

    def __init__(self, n_embd, n_head, dropout=0.0, bias=True):
        super().__init__()
        _check_heads("Block", n_embd, n_head)
        # nanoGPT's construction order (ln_1, attn, ln_2, mlp): the default
        # initialisations draw from the generator in the same order.
        self.ln1 = _layer_norm(n_embd, bias)
        self.attn = CausalSelfAttention(n_embd, n_head, dropout, bias)
        self.ln2 = _layer_norm(n_embd, bias)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd, bias=bias), nn.GELU(),
                                 nn.Linear(4 * n_embd, n_embd, bias=bias), nn.Dropout(dropout))
        self.n_embd = n_embd
        self.n_head = n_head

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


def _layer_norm(n, bias):
    """LayerNorm(n), without the bias parameter for nanoGPT's bias=False."""
    ln = nn.LayerNorm(n)
    if not bias:
        ln.bias = None
    return ln


@dataclass
class GPTConfig:
    """A GPT's hyper-parameters (nanoGPT's model.config)."""
    vocab_size: int = 256
    block_size: int = 64
    n_layer: int = 2
    n_head: int = 4
    n_embd: int = 64
    dropout: float = 0.0
    bias: bool = True
    tie_weights: bool = True


class GPT(nn.Module):
    """GPT(vocab_size=256, block_size=64, n_layer=2, n_head=4, n_embd=64,
    dropout=0.0, bias=True, tie_weights=True): nanoGPT's model.

        model = GPT(vocab_size=65, block_size=32, n_layer=2, n_head=2, n_embd=32)
        logits = model(idx)                 # idx int64 [B, T] or [T]; logits [B, T, 65]
        logits, loss = model(idx, targets)  # mean cross-entropy, -1 targets ignored
    """

    def __init__(self, vocab_size=256, block_size=64, n_layer=2, n_head=4, n_embd=64,
                 dropout=0.0, bias=True, tie_weights=True):
        super().__init__()
        if vocab_size <= 0 or block_size <= 0 or n_layer < 0:
            raise ValueError("GPT: vocab_size and block_size must be > 0 and n_layer >= 0; got "
                             f"vocab_size={vocab_size}, block_size={block_size}, "
                             f"n_layer={n_layer}")
        _check_heads("GPT", n_embd, n_head)
        if not 0 <= dropout <= 1:
            raise ValueError(f"GPT: dropout must lie in [0, 1], got {dropout:g}")
        self.config = GPTConfig(vocab_size, block_size, n_layer, n_head, n_embd, dropout, bias,
                                tie_weights)
        self.n_embd = n_embd
        self.n_head = n_head
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Embedding(block_size, n_embd)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, dropout, bias)
                                     for _ in range(n_layer)])
        self.ln_f = _layer_norm(n_embd, bias)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)
        if tie_weights:
            self.head.weight = self.tok_emb.weight
        # nanoGPT's init: N(0, 0.02) everywhere (the tied weight drawn twice,
        # as there), zero biases, then the residual projections scaled down.
        self.apply(self._init_weights)
        for b in self.blocks:
            for p in (b.attn.proj.weight, b.mlp[2].weight):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

    @staticmethod
    def _init_weights(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)

    def forward(self, idx, targets=None):
        if idx.dtype != torch.int64 or idx.dim() not in (1, 2):
            raise TypeError("GPT: expects int64 token ids [B, T] or [T], got "
                            f"{str(idx.dtype).replace('torch.', '')} {list(idx.shape)}")
        T, block = idx.shape[-1], self.config.block_size
        if T > block:
            raise ValueError(f"GPT: a sequence of length {T} is longer than block_size {block}; "
                             f"crop it to the last {block} tokens")
        pos = torch.arange(T, device=idx.device)
        x = self.drop(self.tok_emb(idx) + self.pos_emb(pos))
        for b in self.blocks:
            x = b(x)
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits  # every position's logits, not (logits, None) as nanoGPT
        loss = F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.reshape(-1),
                               ignore_index=-1)
        return logits, loss

    def get_num_params(self):
        """nanoGPT's method: the number of parameter elements (shared once)."""
        return num_params(self)

    @property
    def num_params(self):
        return num_params(self)

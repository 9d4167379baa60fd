# The names an nndb script sees, mapped onto Python + PyTorch, so that the
# same script prints the same output under both (tests/diff/run.sh).
from torch import *
import torch.nn.functional as F
from torch.nn.functional import *
from torch.nn import *
from torch.optim import *
# Names nndb provides that `from torch import *` leaves out.
from torch import set_grad_enabled, float32, float64, int64, long
# torch.nn.functional's tanh and sigmoid warn that they are deprecated.
from torch import tanh, sigmoid
# `from torch import *` replaces these builtins with tensor functions that
# reject plain Python values; nndb's versions accept both, as Python's do.
from builtins import sum, max, min, abs, round, pow, all, any, range, float, int, bool
# Python's random module is a global in nndb (as if imported).
import random
import math as _math


# nndb's GPT builtin is nanoGPT's model (model.py) with nndb's child names:
# the same construction order, init (apply(_init_weights), then the scaled
# c_proj weights) and forward, so a seeded script prints the same.
class _Attention(Module):
    def __init__(self, C, H, dropout, bias):
        super().__init__()
        self.qkv = Linear(C, 3 * C, bias=bias)
        self.proj = Linear(C, C, bias=bias)
        self.drop = Dropout(dropout)
        self.C, self.H = C, H

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.H, C // self.H).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / _math.sqrt(C // self.H))
        att = att.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        y = att.softmax(dim=-1) @ v
        return self.drop(self.proj(y.transpose(1, 2).contiguous().view(B, T, C)))


class _Block(Module):
    def __init__(self, C, H, dropout, bias):
        super().__init__()
        self.ln1 = LayerNorm(C)
        self.attn = _Attention(C, H, dropout, bias)
        self.ln2 = LayerNorm(C)
        self.mlp = Sequential(Linear(C, 4 * C, bias=bias), GELU(), Linear(4 * C, C, bias=bias),
                              Dropout(dropout))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(Module):
    def __init__(self, vocab_size=256, block_size=64, n_layer=2, n_head=4, n_embd=64, dropout=0.0,
                 bias=True, tie_weights=True):
        super().__init__()
        self.tok_emb = Embedding(vocab_size, n_embd)
        self.pos_emb = Embedding(block_size, n_embd)
        self.drop = Dropout(dropout)
        self.blocks = ModuleList([_Block(n_embd, n_head, dropout, bias) for _ in range(n_layer)])
        self.ln_f = LayerNorm(n_embd)
        self.head = Linear(n_embd, vocab_size, bias=False)
        if tie_weights:
            self.head.weight = self.tok_emb.weight
        self.apply(self._init_weights)
        for b in self.blocks:
            for p in (b.attn.proj.weight, b.mlp[2].weight):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / _math.sqrt(2 * n_layer))

    def _init_weights(self, m):
        if isinstance(m, (Linear, Embedding)):
            torch.nn.init.normal_(m.weight, mean=0.0, std=0.02)
        if isinstance(m, Linear) and m.bias is not None:
            torch.nn.init.zeros_(m.bias)

    def forward(self, idx, targets=None):
        T = idx.shape[-1]
        x = self.drop(self.tok_emb(idx) + self.pos_emb(torch.arange(T)))
        for b in self.blocks:
            x = b(x)
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits
        return logits, F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))

# The training instruments (docs/instruments.md), computed here with
# PyTorch's own autograd and forward hooks: the same quantities nndb reports.
import types as _types
from torch.autograd import gradcheck as _torch_gradcheck


class _WrongGrad(torch.autograd.Function):
    # x * x with the backward wrong at flat element 2, as nndb's test-only op.
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        d = (2 * x * g).clone()
        d.view(-1)[min(2, d.numel() - 1)] += 1
        return d


def _test_wrong_grad(x):
    return _WrongGrad.apply(x)


def gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    return _torch_gradcheck(fn, inputs, eps=eps, atol=atol, rtol=rtol,
                            raise_exception=raise_exception)


def _rows(items):
    return _types.SimpleNamespace(rows=items)


def stats(model, opt=None):
    rows = []
    for name, p in model.named_parameters():
        g = p.grad
        rows.append(_types.SimpleNamespace(
            name="model." + name, data_mean=p.mean().item(), data_std=p.std().item(),
            grad_mean=None if g is None else g.mean().item(),
            grad_std=None if g is None else g.std().item(),
            grad_data=None if g is None else (g.std() / p.std()).item()))
    return _rows(rows)


def activations(model, x):
    rows, hooks = [], []
    def hook(name, m):
        def f(mod, inp, out):
            kind = type(mod).__name__
            sat = dead = None
            if kind == "Tanh":
                sat = (out.abs() > 0.97).double().mean().item()
            if kind == "Sigmoid":
                sat = ((out < 0.03) | (out > 0.97)).double().mean().item()
            if kind in ("ReLU", "GELU"):
                dead = (~(out > 0).reshape(-1, out.shape[-1]).any(0)).double().mean().item()
            rows.append(_types.SimpleNamespace(layer="model." + name, kind=kind,
                                               mean=out.mean().item(), std=out.std().item(),
                                               saturated=sat, dead=dead))
        return f
    for name, m in model.named_modules():
        if name and not list(m.children()):
            hooks.append(m.register_forward_hook(hook(name, m)))
    with no_grad():
        model(x)
    for h in hooks:
        h.remove()
    return _rows(rows)


def dependencies(model, x, i=0):
    xc = x.detach().clone().requires_grad_(True)
    model(xc)[i].sum().backward()
    rows = [r for r in range(x.shape[0]) if r != i and xc.grad[r].abs().sum().item() != 0]
    return _types.SimpleNamespace(rows=rows, leaks=len(rows) > 0)

"""Attention, normalisation, loss and sequence-model kernels at GPT-2 124M
sizes (B4 T256 C768 H12, vocabulary 50257) and the issue-22 sequence steps
(batch 32, seq 64, hidden / d_model 256), timed in-process: the same file runs
under nndb and under PyTorch (bench/bench_attn.py).  Prints `name
microseconds` lines: the best of a few medians of CPU time
(time.process_time), because the machine may be shared.

    python attn.py THREADS [--quick] [--wall] [NAME...]

--wall times wall time (time.perf_counter) instead: at two threads CPU
time counts both threads' work.
"""
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from timing import best

args = [a for a in sys.argv[1:] if not a.startswith("--")]
threads = int(args[0]) if args else 1
only = args[1:]
QUICK = "--quick" in sys.argv
CLOCK = time.perf_counter if "--wall" in sys.argv else time.process_time
torch.set_num_threads(threads)
torch.manual_seed(0)

B, T, C, H, V = 4, 256, 768, 12, 50257
D = C // H
att = torch.randn(B, H, T, T, requires_grad=True)
gatt = torch.randn(B, H, T, T)
causal = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
q = torch.randn(B, H, T, D, requires_grad=True)
k = torch.randn(B, H, T, D, requires_grad=True)
v = torch.randn(B, H, T, D, requires_grad=True)
x = torch.randn(B * T, C, requires_grad=True)
gx = torch.randn(B * T, C)
ln = nn.LayerNorm(C)
h4 = torch.randn(B * T, 4 * C, requires_grad=True)
gh4 = torch.randn(B * T, 4 * C)
bias4 = torch.randn(4 * C, requires_grad=True)
logits = torch.randn(B * T, V, requires_grad=True)
targets = torch.randint(0, V, (B * T,))

N, S, Hd = 32, 64, 256
lstm = nn.LSTM(Hd, Hd, batch_first=True)
gru = nn.GRU(Hd, Hd, batch_first=True)
seq = torch.randn(N, S, Hd)
enc = nn.TransformerEncoderLayer(d_model=Hd, nhead=8, dim_feedforward=1024, dropout=0.0,
                                 batch_first=True)
lopt = torch.optim.SGD(lstm.parameters(), lr=0.01)
gopt = torch.optim.SGD(gru.parameters(), lr=0.01)
eopt = torch.optim.SGD(enc.parameters(), lr=0.01)


def softmax_fb():
    att.grad = None
    F.softmax(att, dim=-1).backward(gatt)


def mask_fill():
    return att.detach().masked_fill(causal[:, :, :T, :T] == 0, float("-inf"))


def layer_norm_fb():
    x.grad = None
    ln.zero_grad()
    ln(x).backward(gx)


def gelu_bias_fb():
    h4.grad = None
    F.gelu(h4 + bias4).backward(gh4)


def cross_entropy_fb():
    logits.grad = None
    F.cross_entropy(logits, targets).backward()


def manual_attention_fb():
    q.grad = k.grad = v.grad = None
    a = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(D))
    a = a.masked_fill(causal[:, :, :T, :T] == 0, float("-inf"))
    a = F.softmax(a, dim=-1)
    (a @ v).sum().backward()


def sdpa_fb():
    q.grad = k.grad = v.grad = None
    if hasattr(F, "scaled_dot_product_attention"):
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    else:  # torch 1.13: the same math, as its documentation writes it
        a = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(D))
        a = a.masked_fill(causal[:, :, :T, :T] == 0, float("-inf"))
        y = F.softmax(a, dim=-1) @ v
    y.sum().backward()


def rnn_step(model, opt):
    def step():
        opt.zero_grad()
        out, _ = model(seq)
        out.pow(2).mean().backward()
        opt.step()
    return step


def encoder_step():
    eopt.zero_grad()
    enc(seq).pow(2).mean().backward()
    eopt.step()


CASES = [
    ("softmax_fb_4x12x256x256", softmax_fb),
    ("masked_fill_causal_4x12x256x256", mask_fill),
    ("layer_norm_fb_1024x768", layer_norm_fb),
    ("gelu_bias_fb_1024x3072", gelu_bias_fb),
    ("cross_entropy_fb_1024x50257", cross_entropy_fb),
    ("manual_attention_fb_4x12x256x64", manual_attention_fb),
    ("sdpa_causal_fb_4x12x256x64", sdpa_fb),
    ("lstm_step_b32_s64_h256", rnn_step(lstm, lopt)),
    ("gru_step_b32_s64_h256", rnn_step(gru, gopt)),
    ("transformer_encoder_layer_step_b32_s64_d256", encoder_step),
]


def reps(fn):
    """Calls per round: 5 (3 under --quick), or under --quick as many as
    fill about 30 ms for a case of a few milliseconds, whose median of 3
    moved by half between runs (layer norm read 0.47 and 1.02 of PyTorch)."""
    if not QUICK:
        return 5
    c0 = CLOCK()
    fn()
    once = CLOCK() - c0
    return max(3, min(25, int(0.03 / max(once, 1e-6))))


for name, fn in CASES:
    if only and not any(o in name for o in only):
        continue
    print(name, best(fn, reps(fn), 1 if QUICK else 2, CLOCK) * 1e6, flush=True)

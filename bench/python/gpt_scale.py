"""A GPT written as a learner writes it after "Let's reproduce GPT-2 (124M)":
nanoGPT's model (token and position embeddings, pre-norm blocks of causal
self-attention and a 4x tanh-GELU MLP, final LayerNorm, lm_head tied to the
token embedding) and its AdamW set-up (weight decay on the matrices only).
torch 1.13 has no F.scaled_dot_product_attention, so attention is nanoGPT's
manual fallback: masked_fill of q k^T with a causal buffer, softmax, @ v.

The same file runs unchanged under /usr/bin/python3 (PyTorch) and nndb:

    gpt_scale.py train|forward L H C V B T THREADS STEPS

It prints "NAME VALUE" lines: the median wall time of a step (step_ms), the
median CPU time of a step over all threads (cpu_ms), the peak resident set
(rss_mib) and the first loss (a sanity check that both sides ran the same
model). One untimed step comes first (the allocator, the BLAS threads).
With NNDB_BENCH_ANOMALY=rounds it times STEPS rounds of a step with
anomaly detection on, one under torch.profiler and one plain instead
(cpu_ms_on, cpu_ms_profiled, cpu_ms_off; bench_anomaly.py).
"""
import math
import os
import resource
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.n_embd = n_embd
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size))
                             .view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.gelu = nn.GELU(approximate="tanh")
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    def __init__(self, n_layer, n_head, n_embd, vocab_size, block_size):
        super().__init__()
        self.n_layer = n_layer
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, n_embd),
            wpe=nn.Embedding(block_size, n_embd),
            h=nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)]),
            ln_f=nn.LayerNorm(n_embd),
        ))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():  # the residual projections, GPT-2's scaled init
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        B, T = idx.size()
        pos = torch.arange(0, T, dtype=torch.long)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        logits = self.lm_head(x)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

    def configure_optimizers(self, weight_decay, learning_rate, betas):
        params = [p for p in self.parameters() if p.requires_grad]
        groups = [
            {"params": [p for p in params if p.dim() >= 2], "weight_decay": weight_decay},
            {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0},
        ]
        return torch.optim.AdamW(groups, lr=learning_rate, betas=betas, eps=1e-8)


def make_step(mode, L, H, C, V, B, T):
    """The seeded model and batch, and one step of [mode] ("train": AdamW
    as nanoGPT configures it; else the no_grad forward and loss in eval
    mode); returns the step, which returns the loss. gpt_profile.py
    profiles this same step."""
    torch.manual_seed(1337)
    model = GPT(L, H, C, V, T)
    x = torch.randint(0, V, (B, T))
    y = torch.randint(0, V, (B, T))
    if mode == "train":
        optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95))

        def step():
            optimizer.zero_grad(set_to_none=True)
            logits, loss = model(x, y)
            loss.backward()
            optimizer.step()
            return loss.item()
    else:
        model.eval()

        def step():
            with torch.no_grad():
                logits, loss = model(x, y)
            return loss.item()
    return step


RSS_STEPS = 5


def instrument_rounds(step, steps):
    """bench/bench_anomaly.py at this shape: [steps] rounds of three steps
    in this one process, so that all see the same minutes: one with the NaN
    hunt (nndb) or detect_anomaly (PyTorch) on, one under
    torch.profiler.profile() (CPU activity), one plain; prints each
    kind's median CPU time of a step."""
    import contextlib
    import statistics
    import time

    def profiled():
        return torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])

    cpu = {"on": [], "profiled": [], "off": []}
    for _ in range(steps):
        for kind in cpu:
            torch.autograd.set_detect_anomaly(kind == "on")
            with profiled() if kind == "profiled" else contextlib.nullcontext():
                c0 = time.process_time()
                step()
                cpu[kind].append(time.process_time() - c0)
    torch.autograd.set_detect_anomaly(False)
    for kind, times in cpu.items():
        print(f"cpu_ms_{kind}", f"{statistics.median(times) * 1e3:.6g}")


def main():
    from timing import step_medians  # the bench harness, beside this file

    mode = sys.argv[1]
    L, H, C, V, B, T, threads, steps = map(int, sys.argv[2:10])
    torch.set_num_threads(threads)
    anomaly = os.environ.get("NNDB_BENCH_ANOMALY", "0")
    step = make_step(mode, L, H, C, V, B, T)
    # NNDB_BENCH_ANOMALY=1: every step with anomaly detection on (against
    # another process with it off); "rounds": see instrument_rounds, and
    # the untimed step runs with it on, so that no timed step pays its
    # first use
    torch.autograd.set_detect_anomaly(anomaly != "0")
    first = step()
    if anomaly == "rounds":
        instrument_rounds(step, steps)
        print("loss", f"{first:.4f}")
        return
    wall, cpu = step_medians(step, steps)
    # Peak memory is read after at least RSS_STEPS steps in all: nndb's
    # allocator places the first steps' blocks differently from the later
    # ones and its peak grows until the fourth step (124M B4 T256: 2920 MiB
    # after 3 steps, 3034 from step 4 on; PyTorch's levels off at step 3),
    # so a shorter run would report a figure below the steady state.
    # bench_gpt_scale.py sets NNDB_BENCH_RSS_STEPS: 3 for PyTorch, 0 where
    # it reports no peak (the untimed steps at a big shape cost seconds).
    rss_steps = int(os.environ.get("NNDB_BENCH_RSS_STEPS", RSS_STEPS))
    for _ in range(max(0, rss_steps - 1 - steps)):
        step()
    print("step_ms", f"{wall * 1e3:.6g}")
    print("cpu_ms", f"{cpu * 1e3:.6g}")
    print("rss_mib", f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.6g}")
    print("loss", f"{first:.4f}")


if __name__ == "__main__":
    main()

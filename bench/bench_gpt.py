"""GPT training-step benchmark: nndb (build/bench/bench_gpt) next to the same
model in PyTorch CPU, in the BENCH line format of bench/compare.py.

    bench/bench_gpt.py [--full] [--cpu] [--only SUBSTRING]  run both sides, print BENCH lines
    bench/bench_gpt.py torch L H C T B V THREADS STEPS       the PyTorch side alone

--cpu compares the median CPU time of a step (the process's, all threads)
instead of its wall time: on a loaded machine that is the fair measure at
one thread.

The model is nanoGPT's (token + position embeddings, pre-norm blocks of
causal self-attention and a 4x GELU MLP, final LayerNorm, head tied to the
token embedding, no dropout), trained with AdamW (lr 1e-3, weight decay
0.01) on one fixed random batch. One step: zero_grad(set_to_none),
forward, cross-entropy, backward, step, loss.item(). torch 1.13 has no
F.scaled_dot_product_attention, so attention is written out as nanoGPT's
fallback does (masked softmax of q k^T).
"""
import math
import os
import resource
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# (label, (layers, heads, embd, T, batch, vocab), target of the time ratio, nndb steps, torch steps)
GPTS = [
    ("L2_H4_C64_T64_b4_V256", (2, 4, 64, 64, 4, 256), 0.5, 100, 60),
    ("L4_H4_C128_T128_b8_V256", (4, 4, 128, 128, 8, 256), 0.7, 20, 15),
]


def nanogpt(L, H, C, T, V, checkpoint=None):
    """nanoGPT's model (see the module docstring) in the torch that is
    imported (nndb's or PyTorch's). With [checkpoint] (torch.utils.checkpoint's
    function) every block runs under it while model.recompute is True
    (bench/bench_checkpoint.py)."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(C, 3 * C)
            self.proj = nn.Linear(C, C)
            self.register_buffer("mask", torch.ones(T, T, dtype=torch.bool).tril())

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.qkv(x).split(c, dim=2)
            q, k, v = (z.view(b, t, H, c // H).transpose(1, 2) for z in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(c // H))
            att = torch.softmax(att.masked_fill(~self.mask[:t, :t], float("-inf")), dim=-1)
            return self.proj((att @ v).transpose(1, 2).contiguous().view(b, t, c))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1 = nn.LayerNorm(C)
            self.attn = Attention()
            self.ln2 = nn.LayerNorm(C)
            self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))

        def forward(self, x):
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok_emb = nn.Embedding(V, C)
            self.pos_emb = nn.Embedding(T, C)
            self.blocks = nn.ModuleList([Block() for _ in range(L)])
            self.ln_f = nn.LayerNorm(C)
            self.head = nn.Linear(C, V, bias=False)
            self.head.weight = self.tok_emb.weight
            self.recompute = False

        def forward(self, idx, targets):
            x = self.tok_emb(idx) + self.pos_emb(torch.arange(idx.shape[1]))
            for blk in self.blocks:
                x = checkpoint(blk, x) if self.recompute else blk(x)
            logits = self.head(self.ln_f(x))
            return F.cross_entropy(logits.view(-1, V), targets.view(-1))

    return GPT()


def bench_torch(L, H, C, T, B, V, threads, steps):
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(0)

    model = nanogpt(L, H, C, T, V)
    # nanoGPT's init, as nn_module_gpt does (the values do not change the
    # work, but keep the two losses comparable).
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() == 2:
                std = 0.02 / math.sqrt(2 * L) if name.endswith(("proj.weight", "mlp.2.weight")) else 0.02
                p.normal_(0.0, std)
            elif name.endswith("bias"):
                p.zero_()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    # bench/bench_anomaly.py: the same step under PyTorch's anomaly mode
    torch.autograd.set_detect_anomaly(os.environ.get("NNDB_BENCH_ANOMALY") == "1")
    x = torch.randint(0, V, (B, T))
    y = torch.randint(0, V, (B, T))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = model(x, y)
        loss.backward()
        opt.step()
        return loss.item()

    first = step()
    step()
    step()
    times, cpus = [], []
    last = first
    for _ in range(steps):
        t0, c0 = time.perf_counter(), time.process_time()
        last = step()
        cpus.append(time.process_time() - c0)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"RESULT ms={med * 1e3:.6g} maxrss_kib={rss} loss_first={first:.6f} loss_last={last:.6f} "
          f"cpu_ms={statistics.median(cpus) * 1e3:.6g}")


def main(argv):
    if len(argv) >= 2 and argv[1] == "torch":
        if len(argv) != 10:
            print(__doc__, file=sys.stderr)
            return 2
        bench_torch(*map(int, argv[2:]))
        return 0
    sys.path.insert(0, HERE)
    import compare  # the shared runner: same process, rounds and BENCH format

    quick = "--full" not in argv  # make bench's default
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    scale = 0.2 if quick else 1.0
    key = "cpu_ms" if "--cpu" in argv else "ms"
    for threads in (1, 2):
        for label, dims, target, n_ours, n_theirs in GPTS:
            name = f"train_gpt_{label}_{threads}t"
            if only not in name:
                continue
            args = [str(d) for d in dims] + [str(threads)]
            (ours, theirs), _ = compare.pair(
                [os.path.join(compare.BIN, "bench_gpt")] + args + [str(max(5, int(n_ours * scale)))],
                [compare.PY, os.path.abspath(__file__), "torch"] + args +
                [str(max(5, int(n_theirs * scale)))], threads, name, "torch", key)
            compare.emit(name, ours, "torch", theirs, "ms", f"<={target}")
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

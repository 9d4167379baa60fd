"""Reference streams of PyTorch's CPU generator for tests/unit/test_random.c.

Writes $NNDB_REF_DIR/random.txt, one case a line:

    id op dtype seed n a b c

and $NNDB_REF_DIR/random/<id>.bin, the raw bytes of the result (row-major,
native endianness). The C test runs the same op with nndb's engine and
compares the bytes: the streams must be identical, not close. What each op
means (and what a, b, c are) is written next to it below.
"""
import math
import os
import sys

import torch
import torch.nn.functional as F

torch.set_num_threads(1)

OUT = os.environ.get("NNDB_REF_DIR", "build/ref")
BIN = os.path.join(OUT, "random")
os.makedirs(BIN, exist_ok=True)
for old in os.listdir(BIN):
    os.remove(os.path.join(BIN, old))
index = open(os.path.join(OUT, "random.txt"), "w")
count = 0

DT = {"f32": torch.float32, "f64": torch.float64, "i64": torch.int64, "u8": torch.uint8}
SEEDS = [0, 1, 42, 1337, 2147483647, 2**40 + 3, 2**64 - 1]
SIZES = [0, 1, 2, 15, 16, 17, 31, 33, 1000, 10**5 + 3]


def gen(seed):
    return torch.Generator().manual_seed(seed)


def record(op, dtype, seed, n, a, b, c, t):
    global count
    t = t.detach().contiguous()
    name = f"{count:05d}"
    with open(os.path.join(BIN, name + ".bin"), "wb") as f:
        f.write(t.numpy().tobytes())
    index.write(f"{name} {op} {dtype} {seed} {n} {a!r} {b!r} {c!r}\n")
    count += 1


def sizes_for(seed):
    # the biggest size for three seeds only, to keep the files small
    return SIZES if seed in (0, 42, 2**40 + 3) else SIZES[:-1]


for seed in SEEDS:
    for n in sizes_for(seed):
        for d in ("f32", "f64"):
            dt = DT[d]
            # rand / randn: torch.rand(n) and torch.randn(n)
            record("rand", d, seed, n, 0, 0, 0, torch.rand(n, dtype=dt, generator=gen(seed)))
            record("randn", d, seed, n, 0, 0, 0, torch.randn(n, dtype=dt, generator=gen(seed)))
            # uniform_(a, b), normal_(a, b), exponential_(a), bernoulli_(a)
            e = torch.empty(n, dtype=dt)
            record("uniform", d, seed, n, -2.5, 3.25, 0, e.uniform_(-2.5, 3.25, generator=gen(seed)))
            record("normal", d, seed, n, 0.5, 3.0, 0, e.normal_(0.5, 3.0, generator=gen(seed)))
            record("normal", d, seed, n, -1.25, 0.02, 0, e.normal_(-1.25, 0.02, generator=gen(seed)))
            record("exponential", d, seed, n, 1.5, 0, 0, e.exponential_(1.5, generator=gen(seed)))
            record("bernoulli_", d, seed, n, 0.3, 0, 0, e.bernoulli_(0.3, generator=gen(seed)))
            # bernoulli(p): p = rand(n) drawn first from the same generator
            g = gen(seed)
            p = torch.rand(n, dtype=dt, generator=g)
            record("bernoulli", d, seed, n, 0, 0, 0, torch.bernoulli(p, generator=g))
        # randint(a, b, (n,)) and randperm(n), int64
        record("randint", "i64", seed, n, -3, 10, 0, torch.randint(-3, 10, (n,), generator=gen(seed)))
        record("randint", "i64", seed, n, 0, 2**33 + 5, 0,
               torch.randint(0, 2**33 + 5, (n,), generator=gen(seed)))
        record("randperm", "i64", seed, n, 0, 0, 0, torch.randperm(n, generator=gen(seed)))

# Non-contiguous outputs. "t": torch.empty(b, a).t() (shape [a, b], walked
# in memory order); "col": torch.empty(a, b)[:, 1] (a elements, stride b).
for seed in (0, 7, 42):
    for rows, cols in ((1, 1), (3, 5), (4, 4), (17, 3), (33, 2)):
        for d in ("f32", "f64"):
            dt = DT[d]
            n = rows * cols
            x = torch.empty(cols, rows, dtype=dt).t()
            record("rand_t", d, seed, n, rows, cols, 0, x.uniform_(generator=gen(seed)))
            x = torch.empty(cols, rows, dtype=dt).t()
            record("randn_t", d, seed, n, rows, cols, 0, x.normal_(generator=gen(seed)))
            x = torch.empty(rows, cols, dtype=dt)[:, 1 % cols]
            record("randn_col", d, seed, rows, rows, cols, 0, x.normal_(generator=gen(seed)))

# multinomial: probs = rand(a, b) (a == 0: rand(b), one dim) from the
# generator, then multinomial(probs, n, replacement=c) from the same one.
for seed in (0, 1, 42, 2147483647):
    for rows, k in ((0, 1), (0, 5), (0, 27), (3, 27), (2, 1000)):
        for n, repl in ((1, 1), (1, 0), (5, 1), (min(5, k), 0), (40, 1)):
            for d in ("f32", "f64"):
                g = gen(seed)
                shape = (rows, k) if rows else (k,)
                p = torch.rand(shape, dtype=DT[d], generator=g)
                record("multinomial", d, seed, n, rows, k, repl,
                       torch.multinomial(p, n, bool(repl), generator=g))

# dropout on ones(n) with the default generator seeded: F.dropout(p=a).
for seed in (0, 3, 42):
    for n in (1, 17, 1000):
        for p in (0.1, 0.5, 0.9):
            for d in ("f32", "f64"):
                torch.manual_seed(seed)
                record("dropout", d, seed, n, p, 0, 0,
                       F.dropout(torch.ones(n, dtype=DT[d]), p, training=True))

# The state after manual_seed(seed) and randn(a) + rand(b) from that
# generator: get_state()'s 5056 bytes (with the normal spare when a is odd).
for seed in (0, 42, 2**40 + 3):
    for a, b in ((0, 0), (3, 0), (1, 700), (20, 5)):
        g = gen(seed)
        torch.randn(a, generator=g, dtype=torch.float64)
        torch.rand(b, generator=g)
        record("state", "u8", seed, 5056, a, b, 0, g.get_state())

# One stream, many calls on the default generator: randn(3), rand(2),
# randn(20), randn(1) (the spare of the first call is used here), randint.
for seed in (0, 5, 2**40 + 3):
    torch.manual_seed(seed)
    parts = [torch.randn(3), torch.rand(2), torch.randn(20), torch.randn(1, dtype=torch.float64).float(),
             torch.randint(0, 100, (4,)).float(), torch.randn(5)]
    record("mix", "f32", seed, 35, 0, 0, 0, torch.cat(parts))

# torch.nn.init on an [a, b] float32 tensor, default generator seeded.
for seed in (0, 42):
    for rows, cols in ((3, 2), (64, 2), (27, 10), (10, 27)):
        def init(name, fn):
            torch.manual_seed(seed)
            w = torch.empty(rows, cols)
            fn(w)
            record(name, "f32", seed, rows * cols, rows, cols, 0, w)
        init("kaiming_uniform", lambda w: torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5)))
        init("kaiming_normal", lambda w: torch.nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
        init("xavier_uniform", lambda w: torch.nn.init.xavier_uniform_(w, gain=5 / 3))
        init("xavier_normal", lambda w: torch.nn.init.xavier_normal_(w))
        init("init_uniform", lambda w: torch.nn.init.uniform_(w, -0.1, 0.2))
        init("init_normal", lambda w: torch.nn.init.normal_(w, 0.0, 0.02))
        init("trunc_normal", lambda w: torch.nn.init.trunc_normal_(w, std=0.02))
        init("trunc_normal_wide", lambda w: torch.nn.init.trunc_normal_(w, mean=0.5, std=1.0, a=-1.0, b=1.5))
        # Linear(b, a): weight [a, b] then bias [a]
        torch.manual_seed(seed)
        lin = torch.nn.Linear(cols, rows)
        record("linear", "f32", seed, rows * cols + rows, rows, cols, 0,
               torch.cat([lin.weight.reshape(-1), lin.bias]))
        # Embedding(a, b).weight
        torch.manual_seed(seed)
        record("embedding", "f32", seed, rows * cols, rows, cols, 0, torch.nn.Embedding(rows, cols).weight)



# DataLoader(range(n), batch_size=a, shuffle, drop_last, generator=) over two
# epochs after torch.manual_seed(seed): every index in order, then
# torch.rand(2) from the default generator and (with a generator, seeded
# seed + 1) torch.rand(2, generator=g), all as float64. b packs the flags:
# shuffle + 2 * drop_last + 4 * generator.
for seed in (0, 42):
    for n in (10, 17, 32):
        for bs in (4, 5):
            for flags in range(8):
                shuffle, drop_last, use_gen = bool(flags & 1), bool(flags & 2), bool(flags & 4)
                torch.manual_seed(seed)
                g = torch.Generator().manual_seed(seed + 1) if use_gen else None
                dl = torch.utils.data.DataLoader(range(n), batch_size=bs, shuffle=shuffle,
                                                 drop_last=drop_last, generator=g)
                seen = []
                for epoch in range(2):
                    for batch in dl:
                        seen += batch.tolist()
                seen += torch.rand(2, dtype=torch.float64).tolist()
                if use_gen:
                    seen += torch.rand(2, dtype=torch.float64, generator=g).tolist()
                record("loader", "f64", seed, n, bs, flags, 0, torch.tensor(seen, dtype=torch.float64))

# nanoGPT's GPT (model.py's constructor and init, written out here): the
# weights after torch.manual_seed(seed) in the order wte, wpe, then per block
# c_attn w/b, attn c_proj w/b, c_fc w/b, mlp c_proj w/b, then lm_head (biases
# only when bias). c is the index of the config (vocab, block_size, n_layer,
# n_head, n_embd, bias, tied) in GPT_CONFIGS; test_random.c has the same list.
GPT_CONFIGS = [(27, 8, 2, 2, 16, True, True), (65, 16, 1, 4, 32, False, False),
               (256, 64, 2, 4, 64, True, True)]


class CausalSelfAttention(torch.nn.Module):
    def __init__(self, C, bias):
        super().__init__()
        self.c_attn = torch.nn.Linear(C, 3 * C, bias=bias)
        self.c_proj = torch.nn.Linear(C, C, bias=bias)
        self.attn_dropout = torch.nn.Dropout(0.0)
        self.resid_dropout = torch.nn.Dropout(0.0)


class MLP(torch.nn.Module):
    def __init__(self, C, bias):
        super().__init__()
        self.c_fc = torch.nn.Linear(C, 4 * C, bias=bias)
        self.gelu = torch.nn.GELU()
        self.c_proj = torch.nn.Linear(4 * C, C, bias=bias)
        self.dropout = torch.nn.Dropout(0.0)


class Block(torch.nn.Module):
    def __init__(self, C, bias):
        super().__init__()
        self.ln_1 = torch.nn.LayerNorm(C)
        self.attn = CausalSelfAttention(C, bias)
        self.ln_2 = torch.nn.LayerNorm(C)
        self.mlp = MLP(C, bias)


class GPT(torch.nn.Module):
    def __init__(self, V, T, L, H, C, bias, tied):
        super().__init__()
        self.transformer = torch.nn.ModuleDict(dict(
            wte=torch.nn.Embedding(V, C), wpe=torch.nn.Embedding(T, C), drop=torch.nn.Dropout(0.0),
            h=torch.nn.ModuleList([Block(C, bias) for _ in range(L)]), ln_f=torch.nn.LayerNorm(C)))
        self.lm_head = torch.nn.Linear(C, V, bias=False)
        if tied:
            self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * L))

    def _init_weights(self, module):
        if isinstance(module, torch.nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, torch.nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)


for seed in (0, 1337):
    for ci, cfg in enumerate(GPT_CONFIGS):
        torch.manual_seed(seed)
        g = GPT(*cfg)
        ts = [g.transformer.wte.weight, g.transformer.wpe.weight]
        for b in g.transformer.h:
            for lin in (b.attn.c_attn, b.attn.c_proj, b.mlp.c_fc, b.mlp.c_proj):
                ts.append(lin.weight)
                if lin.bias is not None:
                    ts.append(lin.bias)
        ts.append(g.lm_head.weight)
        flat = torch.cat([t.reshape(-1) for t in ts])
        record("gpt", "f32", seed, flat.numel(), 0, 0, ci, flat)

index.close()
print(f"ref_random: {count} cases in {OUT}/random.txt")

"""The ops a learner's code calls most, on tensors big enough that the
kernel and not the call is timed: elementwise maths, comparisons, the
reductions along rows and columns, softmax and its kin, copies of views,
indexing, sorting, norms and losses, mostly on a [512, 4096] float32 x
(2M elements, 8 MiB). The same file runs under nndb and under PyTorch
(bench/bench_ops.py), which compares them op by op at 1 and 2 threads.
Prints `name microseconds` lines: the best of three rounds, each the mean
of as many calls as fill about 50 ms (NNDB_BENCH_ROUND_MS: bench_ops.py
asks for 20 in make bench's short run).

    python common_ops.py THREADS [SUBSTRING]
"""
import os
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
only = sys.argv[2] if len(sys.argv) > 2 else ""
torch.manual_seed(0)
x = torch.randn(512, 4096)
y = torch.randn(512, 4096)
w = torch.randn(4096)
xp = x.abs() + 0.5
logits = torch.randn(128, 50257)
labels = torch.randint(0, 50257, (128,))
cols = torch.randint(0, 4096, (512, 4096))
rows = torch.arange(0, 512, 2)
im = torch.randn(16, 64, 32, 32)
kernel = torch.randn(64, 64, 3, 3)
ints = torch.randint(0, 100, (512, 4096))
pos = x > 0

CASES = [
    # elementwise
    ("add", lambda: x + y),
    ("mul_scalar", lambda: x * 2.0),
    ("add_broadcast_row", lambda: x + w),
    ("abs", lambda: x.abs()),
    ("clamp", lambda: x.clamp(-1, 1)),
    ("pow2", lambda: x.pow(2)),
    ("sqrt", lambda: xp.sqrt()),
    ("exp", lambda: x.exp()),
    ("log", lambda: xp.log()),
    ("sin", lambda: x.sin()),
    ("erf", lambda: x.erf()),
    ("tanh", lambda: x.tanh()),
    ("sigmoid", lambda: x.sigmoid()),
    ("relu", lambda: F.relu(x)),
    ("gelu", lambda: F.gelu(x)),
    ("gelu_tanh", lambda: F.gelu(x, approximate="tanh")),
    ("silu", lambda: F.silu(x)),
    ("addcmul", lambda: torch.addcmul(x, x, y, value=0.5)),
    ("addcdiv", lambda: torch.addcdiv(x, x, xp, value=0.5)),
    ("lerp", lambda: torch.lerp(x, y, 0.3)),
    ("where", lambda: torch.where(x > 0, x, y)),
    ("eq_broadcast", lambda: x == w),
    ("gt_scalar", lambda: x > 0),
    ("int_add", lambda: ints + ints),
    ("to_double", lambda: x.double()),
    # reductions
    ("sum", lambda: x.sum()),
    ("sum_rows", lambda: x.sum(1)),
    ("sum_cols", lambda: x.sum(0)),
    ("mean_rows", lambda: x.mean(1)),
    ("var_rows", lambda: x.var(1)),
    ("std", lambda: x.std()),
    ("prod_rows", lambda: (x * 0.001 + 1).prod(1)),
    ("max_rows", lambda: x.max(1)),
    ("argmax_rows", lambda: x.argmax(1)),
    ("amax_cols", lambda: x.amax(0)),
    ("amax_rows", lambda: x.amax(1)),
    ("amin_rows_keepdim", lambda: x.amin(1, keepdim=True)),
    ("amax_dims", lambda: im.amax((2, 3))),
    ("norm", lambda: x.norm()),
    ("norm_rows", lambda: x.norm(dim=1)),
    ("cumsum_rows", lambda: x.cumsum(1)),
    ("logsumexp_vocab", lambda: torch.logsumexp(logits, 1)),
    ("isnan_any", lambda: torch.isnan(x).any()),
    ("eq_all", lambda: (x == x).all()),
    ("equal", lambda: torch.equal(x, y)),
    ("count_positive", lambda: (x > 0).sum()),
    ("bool_sum", lambda: pos.sum()),
    ("any_rows", lambda: pos.any(1)),
    ("all_rows", lambda: pos.all(1)),
    ("gt_any_rows", lambda: (x > 0).any(1)),
    ("any_float_cols", lambda: x.any(0)),
    # rows: softmax and kin
    ("softmax_rows", lambda: x.softmax(1)),
    ("log_softmax_rows", lambda: F.log_softmax(x, 1)),
    ("softmax_vocab", lambda: logits.softmax(1)),
    ("cross_entropy_vocab", lambda: F.cross_entropy(logits, labels)),
    ("layer_norm", lambda: F.layer_norm(x, (4096,))),
    ("mse_loss", lambda: F.mse_loss(x, y)),
    # copies and indexing
    ("transpose_contiguous", lambda: x.t().contiguous()),
    ("cat", lambda: torch.cat([x, y], 1)),
    ("index_select_rows", lambda: x.index_select(0, rows)),
    ("gather_rows", lambda: x.gather(1, cols)),
    ("topk10_rows", lambda: x.topk(10, 1)),
    ("sort_rows", lambda: x.sort(1)),
    ("median_rows", lambda: x.median(1)),
    # images
    ("conv2d_3x3", lambda: F.conv2d(im, kernel, padding=1)),
    ("max_pool2d", lambda: F.max_pool2d(im, 2)),
    ("avg_pool2d", lambda: F.avg_pool2d(im, 2)),
    ("batch_norm_train", lambda: F.batch_norm(im, None, None, training=True)),
    ("interpolate_nearest", lambda: F.interpolate(im, scale_factor=2, mode="nearest")),
    # random
    ("randn", lambda: torch.randn(512, 4096)),
    ("dropout", lambda: F.dropout(x, 0.1)),
]


ROUND_S = float(os.environ.get("NNDB_BENCH_ROUND_MS", "50")) / 1e3


def best(fn):
    fn()
    t0 = time.perf_counter()
    fn()
    once = time.perf_counter() - t0
    n = max(2, min(500, int(ROUND_S / max(once, 1e-6))))
    rounds = []
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        rounds.append((time.perf_counter() - t0) / n)
    return min(rounds)


for name, fn in CASES:
    if only in name:
        print(name, f"{best(fn) * 1e6:.6g}", flush=True)

"""Index and reduction kernels, timed in-process: the same file runs under
nndb and under PyTorch (bench/bench_ops.py).  Prints `name microseconds`
lines, the best of several medians (the machine may be shared).

    python ops.py THREADS
"""
import sys

import torch
from timing import best

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
torch.manual_seed(0)
N = 10**6
src = torch.randn(N)
idx = torch.randint(0, 1000, (N,))
acc = torch.zeros(1000)
rows = torch.randn(1000, 1000)
q = torch.tensor([0.25, 0.5, 0.75])

CASES = [
    ("scatter_add_1e6", lambda: acc.scatter_add(0, idx, src)),
    ("index_add_1e6", lambda: acc.index_add(0, idx, src)),
    ("gather_1e6", lambda: src.gather(0, idx)),
    ("prod_rows_1000x1000", lambda: rows.prod(1)),
    ("prod_cols_1000x1000", lambda: rows.prod(0)),
    ("median_rows_1000x1000", lambda: rows.median(1)),
    ("quantile_rows_1000x1000", lambda: torch.quantile(rows, q, dim=1)),
]


for name, fn in CASES:
    print(name, best(fn) * 1e6, flush=True)

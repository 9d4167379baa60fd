"""PyTorch's randperm and DistributedSampler orders for tests/unit/test_dist.c.

Writes $NNDB_REF_DIR/dist_sampler.txt, one case a line:
  randperm N SEED v0 v1 ...                 torch.randperm(N, generator seeded SEED)
  sampler LEN REPLICAS RANK SHUFFLE DROP SEED EPOCH v0 v1 ...
The C test runs nndb's algorithm on nn_rng (PyTorch's CPU generator, bit for
bit) seeded the same way, so the orders must agree exactly.
"""
import os

import torch
from torch.utils.data import DistributedSampler

out_dir = os.environ.get("NNDB_REF_DIR", "build/ref")
os.makedirs(out_dir, exist_ok=True)
with open(os.path.join(out_dir, "dist_sampler.txt"), "w") as f:
    for n, seed in [(1, 0), (2, 0), (8, 5), (10, 0), (100, 42), (1000, 123456789), (37, 2**31 + 5)]:
        g = torch.Generator()
        g.manual_seed(seed)
        v = torch.randperm(n, generator=g).tolist()
        f.write(f"randperm {n} {seed} {' '.join(map(str, v))}\n")
    for size, k, shuffle, drop, seed, epoch in [(10, 3, True, False, 0, 0), (10, 3, True, True, 0, 1),
                                                 (12, 4, True, False, 7, 3), (5, 2, True, False, 1, 0),
                                                 (2, 3, True, False, 0, 0), (50, 2, False, False, 0, 0)]:
        for r in range(k):
            s = DistributedSampler(list(range(size)), num_replicas=k, rank=r, shuffle=shuffle,
                                   seed=seed, drop_last=drop)
            s.set_epoch(epoch)
            v = list(s)
            f.write(f"sampler {size} {k} {r} {int(shuffle)} {int(drop)} {seed} {epoch} "
                    f"{' '.join(map(str, v))}\n")

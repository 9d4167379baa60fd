"""PyTorch's side of tests/dist/ddp_vs_gloo.nn: the same run on 2 processes
with the gloo backend, writing the same lines, one file per rank
(OUTDIR/rank.N), which the driver compares.
    /usr/bin/python3 tests/dist/gloo_ddp.py PORT OUTDIR"""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DistributedSampler


def worker(rank, world, port, outdir):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(1 + rank)
    model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3))
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.5, momentum=0.9)
    torch.manual_seed(42)
    X = torch.randn(4 * world, 5)
    Y = torch.randint(0, 3, (4 * world,))
    x = X[rank * 4:(rank + 1) * 4]
    y = Y[rank * 4:(rank + 1) * 4]
    out = []
    for step in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(ddp(x), y)
        loss.backward()
        opt.step()
        out.append(f"rank {rank} step {step} loss {loss.item():.6f}")
    for p in model.parameters():
        out.append(f"rank {rank} param {p.detach().flatten().tolist()}")
    s = DistributedSampler(list(range(10)), num_replicas=world, rank=rank, shuffle=True, seed=3)
    s.set_epoch(1)
    out.append(f"rank {rank} sampler {list(s)}")
    with open(os.path.join(outdir, f"rank.{rank}"), "w") as f:
        f.write("\n".join(out) + "\n")
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, args=(2, int(sys.argv[1]), sys.argv[2]), nprocs=2, join=True)

"""PyTorch's side of tests/dist/semantics.nn: buffers, unused parameters and
async_op on 2 processes with the gloo backend, writing the same lines, one
file per rank (OUTDIR/rank.N), which the driver compares.
    /usr/bin/python3 tests/dist/gloo_semantics.py PORT OUTDIR"""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class Running(nn.Module):
    """A BatchNorm-like running mean, different on each rank before wrapping."""

    def __init__(self, r):
        super().__init__()
        self.a = nn.Linear(3, 2)
        self.register_buffer("running_mean", torch.full((3,), float(r)))

    def forward(self, x):
        with torch.no_grad():
            self.running_mean.mul_(0.9).add_(0.1 * x.mean(0))
        return self.a(x - self.running_mean)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(3, 2)
        self.b = nn.Linear(3, 2)

    def forward(self, x, use_b):
        y = self.a(x)
        return y + self.b(x) if use_b else y


def flat(t):
    return None if t is None else [round(v, 6) for v in t.detach().flatten().tolist()]


def grads(m):
    return [flat(p.grad) for p in m.parameters()]


def worker(rank, world, port, outdir):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    out = []
    x = torch.arange(6.0).reshape(2, 3) * (rank + 1)
    # Buffers: rank 0's at wrap time and before every forward that follows a
    # syncing one; broadcast_buffers=False keeps each rank's own.
    for bb in (True, False):
        torch.manual_seed(0)
        m = DDP(Running(10 * rank + 1), broadcast_buffers=bb)
        out.append(f"rank {rank} buffers {bb} wrap {flat(m.module.running_mean)}")
        for step in range(3):
            m(x).sum().backward()
            out.append(f"rank {rank} buffers {bb} step {step} {flat(m.module.running_mean)}")
        with torch.no_grad():
            m(x)
        m(x)
        out.append(f"rank {rank} buffers {bb} after no_grad {flat(m.module.running_mean)}")
    # Unused parameters.
    for mode in ("nofind", "never", "some"):
        torch.manual_seed(0)
        m = DDP(TwoHeads(), find_unused_parameters=mode != "nofind")
        use_b = mode == "some" and rank == 0
        for it in range(2):
            try:
                m.zero_grad()
                m(x, use_b).sum().backward()
                out.append(f"rank {rank} unused {mode} {it} {grads(m.module)}")
            except RuntimeError as e:
                out.append(f"rank {rank} unused {mode} {it} error {str(e)[:60]}")
                break
    # async_op
    t = torch.ones(3) * (rank + 1)
    w = dist.all_reduce(t, async_op=True)
    out.append(f"rank {rank} async {w.wait()} {w.is_completed()} {flat(t)}")
    with open(os.path.join(outdir, f"rank.{rank}"), "w") as f:
        f.write("\n".join(out) + "\n")
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, args=(2, int(sys.argv[1]), sys.argv[2]), nprocs=2, join=True)

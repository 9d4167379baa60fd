"""A training step and the memory it holds per rank, for DDP, ZeRO-1
(ZeroRedundancyOptimizer over DDP), FSDP SHARD_GRAD_OP and FSDP FULL_SHARD
(one unit per block), on the same model, batch and AdamW.

    mpirun -np 2 nndb python bench/dist/fsdp_step.py [STEPS] [WIDTH] [BLOCKS]

Rank 0 prints, per mode, a line
    RESULT mode=ddp ms=... held=... peak=... params=...
ms: CPU time per step of this process (time.process_time, interleaved
rounds, the best round), so the other work on a loaded machine counts less
than in wall time; wall_ms: the same steps in wall time; held: engine bytes held between steps (after
optimizer.step, gradients kept) beyond what was held before the model was
built; peak: the engine allocator's peak during a step beyond the same
baseline; params: Ψ, the number of parameter elements. bench/bench_dist.py
and the drill `sharding` read these lines.
"""
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch import _C
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

torch.set_num_threads(1)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
width = int(sys.argv[2]) if len(sys.argv) > 2 else 256
blocks = int(sys.argv[3]) if len(sys.argv) > 3 else 4
modes = sys.argv[4].split(",") if len(sys.argv) > 4 else ["ddp", "zero1", "shard_grad_op",
                                                           "full_shard"]
dist.init_process_group(backend="mpi")
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(1)
x = torch.randn(32, width)
y = torch.randint(0, width, (32,))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, h):
        return h + self.down(F.gelu(self.up(h)))


def build(mode):
    torch.manual_seed(0)
    model = nn.Sequential(*[Block() for _ in range(blocks)])
    if mode == "ddp":
        w = DDP(model)
        return w, torch.optim.AdamW(w.parameters(), lr=1e-3)
    if mode == "zero1":
        w = DDP(model)
        return w, ZeroRedundancyOptimizer(w.parameters(), optimizer_class=torch.optim.AdamW,
                                          lr=1e-3)
    strategy = ShardingStrategy.FULL_SHARD if mode == "full_shard" else \
        ShardingStrategy.SHARD_GRAD_OP
    for i in range(blocks):  # one unit per block, as an auto_wrap_policy would
        model[i] = FSDP(model[i], sharding_strategy=strategy)
    w = FSDP(model, sharding_strategy=strategy)
    return w, torch.optim.AdamW(w.parameters(), lr=1e-3)


def step(w, opt):
    opt.zero_grad(set_to_none=False)
    loss = F.cross_entropy(w(x), y)
    loss.backward()
    opt.step()
    return loss


results = {}
for rnd in range(3):
    for mode in modes:
        base = _C._mem_stats()["in_use"]
        w, opt = build(mode)
        step(w, opt)  # the optimizer state exists from here on
        _C._mem_reset_peak()
        loss = step(w, opt)
        del loss
        held = _C._mem_stats()["in_use"] - base
        peak = _C._mem_stats()["peak"] - base
        dist.barrier()
        t0, w0 = time.process_time(), time.perf_counter()
        for _ in range(steps):
            step(w, opt)
        ms = (time.process_time() - t0) / steps * 1e3
        wall = (time.perf_counter() - w0) / steps * 1e3
        r = results.setdefault(mode, dict(ms=ms, wall=wall, held=held, peak=peak))
        r["ms"] = min(r["ms"], ms)
        r["wall"] = min(r["wall"], wall)
        del w, opt
torch.manual_seed(0)
psi = sum(p.numel() for p in nn.Sequential(*[Block() for _ in range(blocks)]).parameters())
if rank == 0:
    for mode, r in results.items():
        print(f"RESULT mode={mode} ms={r['ms']:.3f} wall_ms={r['wall']:.3f} held={r['held']} "
              f"peak={r['peak']} "
              f"params={psi} world={world}", flush=True)

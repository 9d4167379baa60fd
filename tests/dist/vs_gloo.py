"""torch.distributed's collectives, DistributedDataParallel (no_sync,
buffers), DistributedSampler and ZeRO-1 in PyTorch's spelling.

Runs unchanged under both
    mpirun -np 2 nndb python tests/dist/vs_gloo.py                 (MPI)
    PyTorch on gloo, as torchrun starts it (RANK, WORLD_SIZE, ...)
and prints the same lines on rank 0 (the other ranks' results reach rank 0
through all_gather_object). Where gloo lacks a collective nndb has
(ReduceOp.AVG, reduce_scatter_tensor, all_gather_into_tensor) the gloo run
computes the same values from the ones it has. tests/dist/test_dist.py
compares them.
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DistributedSampler

torch.set_num_threads(1)
print_rank0 = []

try:
    dist.get_rank()
except RuntimeError as e:
    print_rank0.append(f"before init: {type(e).__name__}: {e}")
print_rank0.append(f"is_initialized {dist.is_initialized()}")

backend = "mpi" if dist.is_mpi_available() else "gloo"
dist.init_process_group(backend=backend)
mpi = backend == "mpi"
rank, world = dist.get_rank(), dist.get_world_size()
lines = list(print_rank0) if rank == 0 else []


def say(*args):
    lines.append(" ".join(str(a) for a in args))


def fmt(t, digits=5):
    return [round(v, digits) for v in t.flatten().tolist()]


say("world", world, dist.is_initialized())

# ---- all_reduce with every op, three dtypes ----
for dtype in (torch.float32, torch.float64, torch.int64):
    for name in ("SUM", "PRODUCT", "MIN", "MAX"):
        t = (torch.arange(4) * (rank + 1) + rank).to(dtype)
        r = dist.all_reduce(t, op=getattr(dist.ReduceOp, name))
        say("all_reduce", name, dtype, t.tolist(), r)
    if dtype != torch.int64:
        t = (torch.arange(4) * (rank + 1)).to(dtype)
        if mpi:
            dist.all_reduce(t, op=dist.ReduceOp.AVG)
        else:  # gloo has no AVG
            dist.all_reduce(t)
            t /= world
        say("all_reduce AVG", dtype, t.tolist())

# ---- broadcast, all_gather, gather, scatter, reduce ----
t = torch.full((2, 3), float(rank + 10))
dist.broadcast(t, src=world - 1)
say("broadcast", t.tolist())
parts = [torch.zeros(3, dtype=torch.int64) for _ in range(world)]
dist.all_gather(parts, torch.arange(3) + 100 * rank)
say("all_gather", [p.tolist() for p in parts])
out = torch.zeros(2 * world)
if mpi:
    dist.all_gather_into_tensor(out, torch.tensor([rank, -rank], dtype=torch.float32))
else:
    pieces = [torch.zeros(2) for _ in range(world)]
    dist.all_gather(pieces, torch.tensor([rank, -rank], dtype=torch.float32))
    out = torch.cat(pieces)
say("all_gather_into_tensor", out.tolist())
got = torch.zeros(world)
if mpi:
    dist.reduce_scatter_tensor(got[rank:rank + 1], torch.arange(float(world)) * (rank + 1))
else:
    s = torch.arange(float(world)) * (rank + 1)
    dist.all_reduce(s)
    got[rank] = s[rank]
dist.all_reduce(got)
say("reduce_scatter", got.tolist())
g = [torch.zeros(2) for _ in range(world)] if rank == 0 else None
dist.gather(torch.tensor([rank * 1.5, 7.0]), g, dst=0)
if rank == 0:
    say("gather", [p.tolist() for p in g])
s = torch.zeros(2)
dist.scatter(s, [torch.tensor([float(k), 2.0 * k]) for k in range(world)] if rank == 0 else None,
             src=0)
t = torch.tensor([rank + 1.0])
dist.reduce(t, dst=0, op=dist.ReduceOp.SUM)
if rank == 0:
    say("reduce", t.tolist())
scattered = [None] * world
dist.all_gather_object(scattered, s.tolist())
say("scatter", scattered)

# ---- point to point, objects, barrier, async ----
if rank == 0:
    dist.send(torch.tensor([3.0, 1.0, 4.0]), dst=1)
elif rank == 1:
    buf = torch.zeros(3)
    dist.recv(buf, src=0)
    assert buf.tolist() == [3.0, 1.0, 4.0], buf
objs = [{"rank": 0, "words": ["a", "b"]}, 3.5] if rank == 0 else [None, None]
dist.broadcast_object_list(objs, src=0)
say("broadcast_object_list", objs)
dist.barrier()
t = torch.ones(3) * (rank + 1)
w = dist.all_reduce(t, async_op=True)
say("async", w.wait(), t.tolist())
say("group.WORLD is set", dist.group.WORLD is not None)

# ---- DistributedDataParallel: per-rank seeds (DDP broadcasts rank 0's) ----
torch.manual_seed(1 + rank)
model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3))
ddp = DDP(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.5, momentum=0.9)
torch.manual_seed(42)
X = torch.randn(4 * world, 5)
Y = torch.randint(0, 3, (4 * world,))
x, y = X[rank * 4:(rank + 1) * 4], Y[rank * 4:(rank + 1) * 4]
losses = []
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(ddp(x), y)
    loss.backward()
    opt.step()
    losses.append(round(loss.item(), 5))
every = [None] * world
dist.all_gather_object(every, losses)
say("ddp losses", every)
say("ddp params", [fmt(p) for p in model.parameters()][2])
say("ddp state_dict keys", list(ddp.state_dict().keys()))

# no_sync: two half-batches, the second one's backward averages the sum
opt.zero_grad()
with ddp.no_sync():
    (F.cross_entropy(ddp(x[:2]), y[:2]) / 2).backward()
local = model[0].bias.grad.clone()
(F.cross_entropy(ddp(x[2:]), y[2:]) / 2).backward()
mine = [None] * world
dist.all_gather_object(mine, fmt(local))
say("no_sync kept local gradients differ", mine[0] != mine[-1])
say("no_sync then sync", fmt(model[0].bias.grad))

# buffers: a BatchNorm whose running mean starts different on each rank
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
with torch.no_grad():
    net[1].running_mean.fill_(float(rank))
bn = DDP(net)
say("buffers after wrap", fmt(net[1].running_mean))
bn(torch.randn(6, 3) + rank).sum().backward()
bn(torch.randn(6, 3))
all_means = [None] * world
dist.all_gather_object(all_means, fmt(net[1].running_mean))
say("buffers after two forwards", all_means)

# ---- DistributedSampler: the group's size and rank, a new order per epoch ----
sampler = DistributedSampler(range(10), shuffle=True, seed=3)
orders = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    orders.append(list(sampler))
every = [None] * world
dist.all_gather_object(every, orders)
say("sampler", len(sampler), every)

# ---- ZeroRedundancyOptimizer == one unsharded AdamW ----
torch.manual_seed(3)
zmodel = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
ref = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
ref.load_state_dict(zmodel.state_dict())
zero = ZeroRedundancyOptimizer(zmodel.parameters(), optimizer_class=torch.optim.AdamW, lr=0.05)
full = torch.optim.AdamW(ref.parameters(), lr=0.05)
torch.manual_seed(7)
data = torch.randn(8, 4)
target = torch.randint(0, 2, (8,))
for step in range(3):
    for m, o in ((zmodel, zero), (ref, full)):
        o.zero_grad()
        F.cross_entropy(m(data), target).backward()
        o.step()
worst = max((a - b).abs().max().item() for a, b in zip(zmodel.parameters(), ref.parameters()))
say("zero == adamw", worst < 1e-6, fmt(zmodel[2].bias))

dist.barrier()
dist.destroy_process_group()
say("is_initialized after destroy", dist.is_initialized())
if rank == 0:
    print("\n".join(lines))

# The three planted DDP bugs of the drill, each with its measured symptom.
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed import dist_check
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DistributedSampler

dist.init_process_group(backend="mpi")
rank = dist.get_rank()
world = dist.get_world_size()
B = 4
torch.manual_seed(3)
X = torch.randn(B * world, 5)
Y = torch.randint(0, 3, (B * world,))
x = X[rank * B:(rank + 1) * B]
y = Y[rank * B:(rank + 1) * B]

def fresh(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))

# Bug 1: gradients summed, not averaged: every gradient is world times the
# single-process one, so the effective learning rate is world times larger.
ref = fresh(0)
F.cross_entropy(ref(X), Y).backward()
summed = DistributedDataParallel(fresh(0), gradient_as_sum=True)
F.cross_entropy(summed(x), y).backward()
ratio = (summed.module[0].weight.grad.norm() / ref[0].weight.grad.norm()).item()
print(f"bug1 rank {rank}: grad norm ratio summed/averaged = {ratio:.3f} (world {world})")

# Bug 2: a different seed per rank and a hand-written data-parallel loop
# without a broadcast at the start: the ranks train different models.
model = fresh(100 + rank)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    for p in model.parameters():
        dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
    opt.step()
c = dist_check(model)
print(f"bug2 rank {rank}: ok={c.ok} first={c.first} rank={c.rank}: {c.message}")
# The fix: DistributedDataParallel broadcasts rank 0's parameters.
fixed = DistributedDataParallel(fresh(100 + rank))
print(f"bug2-fixed rank {rank}: ok={dist_check(fixed).ok}")

# Bug 3: a sampler without set_epoch gives every epoch the same order.
s = DistributedSampler(range(12), shuffle=True, seed=0)
e0 = list(s)
e1 = list(s)
s.set_epoch(1)
e1_fixed = list(s)
print(f"bug3 rank {rank}: epoch0 {e0} epoch1 without set_epoch {e1} same={e0 == e1}; with set_epoch(1) {e1_fixed} same={e0 == e1_fixed}")

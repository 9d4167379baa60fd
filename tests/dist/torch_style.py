# PyTorch's spelling: imports, a user nn.Module, DDP from torch.nn.parallel,
# ZeRO from torch.distributed.optim, DistributedSampler from torch.utils.data.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.utils.data import DistributedSampler

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 16)
        self.fc2 = nn.Linear(16, 3)
    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))

dist.init_process_group(backend="mpi")
rank = dist.get_rank()
world = dist.get_world_size()
t = torch.ones(2) * (rank + 1)
dist.all_reduce(t, op=dist.ReduceOp.MAX)
assert t.tolist() == [float(world)] * 2, t
print(f"ok torch.distributed rank {rank}")
torch.manual_seed(10 + rank)          # different per rank: DDP broadcasts rank 0's
model = Net()
ddp = DDP(model)
opt = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.AdamW, lr=1e-2)
torch.manual_seed(0)
X = torch.randn(4 * world, 5)
Y = torch.randint(0, 3, (4 * world,))
sampler = DistributedSampler(list(range(len(X))), shuffle=True, seed=0)
for epoch in range(2):
    sampler.set_epoch(epoch)
    idx = torch.tensor(list(sampler))
    opt.zero_grad()
    F.cross_entropy(ddp(X[idx]), Y[idx]).backward()
    opt.step()
c = dist_check(ddp)
assert c.ok, c.message
print(f"ok user_module_ddp_zero rank {rank}: {c.message}")
torch.manual_seed(20 + rank)
apart = Net()
c = dist_check(apart)
assert not c.ok and c.first == "fc1.weight" and c.rank == 1, c.message
print(f"ok dist_check_names rank {rank}: {c.message}")

# ZeRO-1 over DDP of a user nn.Module, fed by a DistributedSampler, against
# one process with unsharded AdamW on the whole batch; each rank keeps about
# 1/world of the optimizer state. Every rank prints "ok ..." lines; the
# driver counts them.
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed import dist_check
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DistributedSampler


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 32)
        self.fc2 = nn.Linear(32, 16)
        self.fc3 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc3(torch.tanh(self.fc2(torch.tanh(self.fc1(x)))))


dist.init_process_group(backend="mpi")
rank = dist.get_rank()
world = dist.get_world_size()
B = 4

torch.manual_seed(10 + rank)  # different per rank: DDP broadcasts rank 0's
model = Net()
ddp = DDP(model)
zero = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.AdamW, lr=1e-2,
                               weight_decay=0.1)
ref = Net()
ref.load_state_dict(model.state_dict())  # rank 0's, as DDP broadcast them
opt_ref = torch.optim.AdamW(ref.parameters(), lr=1e-2, weight_decay=0.1)
torch.manual_seed(7)
X = torch.randn(B * world, 6)
Y = torch.randint(0, 4, (B * world,))
sampler = DistributedSampler(range(len(X)), shuffle=True, seed=0)
worst = 0.0
for epoch in range(5):
    sampler.set_epoch(epoch)
    mine = torch.tensor(list(sampler))
    every = [torch.zeros(B, dtype=torch.int64) for _ in range(world)]
    dist.all_gather(every, mine)  # the whole batch, in the ranks' order
    whole = torch.cat(every)
    zero.zero_grad()
    F.cross_entropy(ddp(X[mine]), Y[mine]).backward()
    zero.step()
    opt_ref.zero_grad()
    F.cross_entropy(ref(X[whole]), Y[whole]).backward()
    opt_ref.step()
    for p, q in zip(model.parameters(), ref.parameters()):
        worst = max(worst, (p - q).abs().max().item())
assert worst < 1e-5, f"ZeRO differs from AdamW by {worst}"
print(f"ok zero_equals_adamw rank {rank}: max diff over 5 steps {worst:.2e}")
mine = torch.tensor([zero.local_state_numel])
dist.all_reduce(mine)
assert mine.item() == zero.total_state_numel, f"shares {mine.item()} != {zero.total_state_numel}"
assert zero.local_state_numel < zero.total_state_numel
print(f"ok zero_shards rank {rank}: {zero}")
c = dist_check(ddp)
assert c.ok, c.message
print(f"ok dist_check_after_zero rank {rank}: {c.message}")
torch.manual_seed(20 + rank)
apart = Net()
c = dist_check(apart)
assert not c.ok and c.first == "fc1.weight" and c.rank == 1, c.message
print(f"ok dist_check_names rank {rank}: {c.message}")

# DDP on N ranks against one process on the concatenated batch, step by
# step: SGD, then gradient accumulation with no_sync(), then small buckets
# (several all-reduces, started during backward), then the profiler's and
# the NaN hunt's hooks beside DDP's. Every rank prints "ok ..." lines; the driver counts them.
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed import dist_check
from torch.nn.parallel import DistributedDataParallel
from nndb.instruments import profile

dist.init_process_group(backend="mpi")
rank = dist.get_rank()
world = dist.get_world_size()
B = 4
TOL = 1e-5  # float32 round-off: the sum over ranks is in another order

def fresh(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 8), nn.Tanh(),
                         nn.Linear(8, 3))

def max_diff(a, b):
    d = 0.0
    for p, q in zip(a.parameters(), b.parameters()):
        d = max(d, (p - q).abs().max().item())
    return d

torch.manual_seed(42)
X = torch.randn(B * world, 5)
Y = torch.randint(0, 3, (B * world,))
x = X[rank * B:(rank + 1) * B]
y = Y[rank * B:(rank + 1) * B]

def check(name, bucket_cap_mb, accumulate, with_profile):
    ref = fresh(0)
    model = fresh(0 if rank == 0 else 1000 + rank)
    ddp = DistributedDataParallel(model, bucket_cap_mb=bucket_cap_mb)
    assert max_diff(model, ref) == 0.0, "DDP did not broadcast rank 0's parameters"
    opt = torch.optim.SGD(ddp.parameters(), lr=0.5)
    opt_ref = torch.optim.SGD(ref.parameters(), lr=0.5)
    worst = 0.0
    for step in range(4):
        opt.zero_grad()
        if accumulate:
            h = B // 2
            with ddp.no_sync():
                (F.cross_entropy(ddp(x[:h]), y[:h]) / 2).backward()
            (F.cross_entropy(ddp(x[h:]), y[h:]) / 2).backward()
        elif with_profile:
            def step_fn():
                F.cross_entropy(ddp(x), y).backward()
            profile(step_fn)
        else:
            F.cross_entropy(ddp(x), y).backward()
        opt.step()
        opt_ref.zero_grad()
        F.cross_entropy(ref(X), Y).backward()
        opt_ref.step()
        worst = max(worst, max_diff(model, ref))
    assert worst < TOL, f"{name}: parameters differ by {worst}"
    print(f"ok {name} rank {rank}: max |DDP - single| over 4 steps = {worst:.2e}, buckets {len(ddp.buckets)}, started during backward {ddp.started_early}")
    return ddp

check("sgd", 25, False, False)
check("no_sync", 25, True, False)
small = check("buckets", 0.0004, False, False)
assert len(small.buckets) >= 3, f"expected several buckets, got {small.buckets}"
assert small.started_early >= 1, "no bucket started before the end of backward"
# reverse order of registration: the last layer's parameters go first
assert small.buckets[0][0] == 5, f"first bucket {small.buckets[0]}"
print(f"ok bucket_order rank {rank}: {small.buckets}")
check("with_profiler_hook", 0.0004, False, True)
torch.autograd.set_detect_anomaly(True)
check("with_anomaly_hook", 0.0004, False, False)
torch.autograd.set_detect_anomaly(False)
print(f"ok dist_check rank {rank}: {dist_check(small).message}")

"""FullyShardedDataParallel gives DistributedDataParallel's results. Under
nndb (MPI) each variant trains with FSDP (FULL_SHARD and SHARD_GRAD_OP, one
unit and one unit per layer); under PyTorch on gloo (Debian's 1.13 FSDP
does not import on Python 3.11) the same script trains with DDP. Every rank
prints its losses and the full state_dict after the steps, and the lines
must be equal (tests/dist/test_dist.py)."""
import functools

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

torch.set_num_threads(1)
nndb = dist.is_mpi_available()
dist.init_process_group(backend="mpi" if nndb else "gloo")
rank, world = dist.get_rank(), dist.get_world_size()
if nndb:
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy
    from torch.distributed.fsdp.wrap import size_based_auto_wrap_policy


def say(*args):
    print(f"rank {rank}:", *args)


def fmt(t):
    return [round(v, 5) for v in t.detach().flatten().tolist()]


torch.manual_seed(1)
X = torch.randn(16, 6)
Y = torch.randint(0, 3, (16,))
x, y = X[rank * 8:(rank + 1) * 8], Y[rank * 8:(rank + 1) * 8]

variants = [("FULL_SHARD", None), ("SHARD_GRAD_OP", None), ("FULL_SHARD", "per layer"),
            ("SHARD_GRAD_OP", "per layer")]
for strategy, wrap in variants:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(),
                          nn.Linear(16, 3))
    if nndb:
        policy = (functools.partial(size_based_auto_wrap_policy, min_num_params=20)
                  if wrap else None)
        wrapped = FSDP(model, sharding_strategy=getattr(ShardingStrategy, strategy),
                       auto_wrap_policy=policy)
    else:
        wrapped = DDP(model)
    opt = torch.optim.AdamW(wrapped.parameters(), lr=0.05)
    for step in range(4):
        opt.zero_grad()
        if step == 1:  # two backward passes accumulate into the same gradients
            F.cross_entropy(wrapped(x[:4]), y[:4]).div(2).backward()
            loss = F.cross_entropy(wrapped(x[4:]), y[4:]).div(2)
        else:
            loss = F.cross_entropy(wrapped(x), y)
        loss.backward()
        if step == 2:  # clip the whole model's gradient norm
            norm = (wrapped.clip_grad_norm_(0.5) if nndb else
                    torch.nn.utils.clip_grad_norm_(wrapped.parameters(), 0.5))
            say(strategy, wrap, "grad norm before clipping", round(float(norm), 4))
        opt.step()
        say(strategy, wrap, "step", step, "loss", round(loss.item(), 5))
    sd = wrapped.state_dict()
    if not nndb:  # DDP's keys carry "module."
        sd = {k[len("module."):]: v for k, v in sd.items()}
    say(strategy, wrap, "state_dict keys", list(sd.keys()))
    for k, v in sd.items():
        say(strategy, wrap, k, tuple(v.shape), fmt(v)[:6], round(v.sum().item(), 4))
    # the model in eval mode without gradients
    with torch.no_grad():
        say(strategy, wrap, "eval", fmt(wrapped(X[:2])))
    # the full state dict loads into a fresh wrapped model
    torch.manual_seed(5)
    fresh = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(),
                          nn.Linear(16, 3))
    if nndb:
        fresh = FSDP(fresh, sharding_strategy=getattr(ShardingStrategy, strategy),
                     auto_wrap_policy=policy)
        fresh.load_state_dict(sd)
    else:
        fresh = DDP(fresh)
        fresh.load_state_dict({"module." + k: v for k, v in sd.items()})
    with torch.no_grad():
        say(strategy, wrap, "loaded eval", fmt(fresh(X[:2])))
dist.barrier()
say("done")

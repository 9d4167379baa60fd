"""DistributedDataParallel's buffers (broadcast_buffers True and False, a
user register_buffer that differs per rank, no_grad forwards), unused
parameters (find_unused_parameters False: unreduced gradients and the next
forward's error; True: zeros where another rank used it, untouched where
none did) and async_op. Runs unchanged under

    mpirun -np 2 nndb python tests/dist/semantics.py                 (MPI)
    PyTorch on gloo, as torchrun starts it (RANK, WORLD_SIZE, ...)

and every rank prints the same lines under both; tests/dist/test_dist.py
compares them.
"""
import re

import torch
import torch.nn as nn
import torch.distributed as dist
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


torch.set_num_threads(1)
dist.init_process_group(backend="mpi" if dist.is_mpi_available() else "gloo")
rank = dist.get_rank()
x = torch.arange(6.0).reshape(2, 3) * (rank + 1)
for bb in (True, False):
    torch.manual_seed(0)
    m = DDP(Running(10 * rank + 1), broadcast_buffers=bb)
    print(f"rank {rank} buffers {bb} wrap {flat(m.module.running_mean)}")
    for step in range(3):
        m(x).sum().backward()
        print(f"rank {rank} buffers {bb} step {step} {flat(m.module.running_mean)}")
    with torch.no_grad():
        m(x)
    m(x)
    print(f"rank {rank} buffers {bb} after no_grad {flat(m.module.running_mean)}")
for mode in ("nofind", "never", "some"):
    torch.manual_seed(0)
    m = DDP(TwoHeads(), find_unused_parameters=mode != "nofind")
    use_b = mode == "some" and rank == 0
    for it in range(2):
        try:
            m.zero_grad()
            m(x, use_b).sum().backward()
            print(f"rank {rank} unused {mode} {it} {grads(m.module)}")
        except RuntimeError as e:
            # the message's start, and the parameters it names
            unused = re.findall(r"Parameter indices which did not receive grad for rank \d+: "
                                r"[\d ]+", str(e))
            print(f"rank {rank} unused {mode} {it} error {str(e)[:60]} {unused}")
            break
t = torch.ones(3) * (rank + 1)
w = dist.all_reduce(t, async_op=True)
print(f"rank {rank} async {w.wait()} {w.is_completed()} {flat(t)}")

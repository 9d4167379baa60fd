"""SyncBatchNorm under MPI == BatchNorm in one process on the whole batch.
Each rank holds its slice of one seeded batch; after a forward and backward
in training (two steps, momentum and momentum=None) and one in eval, every
rank checks its output and input gradient against its slice of the
one-process results, the all-reduced weight and bias gradients against the
one-process ones, and the running statistics. Prints "ok ..." lines
(counted by tests/dist/test_dist.py):
    mpirun -np N nndb python tests/dist/sync_batchnorm.py"""
import torch
import torch.distributed as dist
import torch.nn as nn

torch.set_num_threads(1)
dist.init_process_group(backend="mpi")
rank, world = dist.get_rank(), dist.get_world_size()


def close(a, b, what):
    ok = torch.allclose(a, b, rtol=1e-4, atol=1e-5)
    print(("ok " if ok else "FAIL ") + f"{what} rank {rank}", "" if ok else f"{a} vs {b}",
          flush=True)


for momentum in (0.1, None):
    torch.manual_seed(0)
    per = 3
    ref = nn.BatchNorm2d(4, momentum=momentum)
    with torch.no_grad():
        ref.weight.uniform_(0.5, 1.5)
        ref.bias.uniform_(-1, 1)
    sync = nn.SyncBatchNorm.convert_sync_batchnorm(
        nn.Sequential(nn.BatchNorm2d(4, momentum=momentum)))[0]
    sync.load_state_dict(ref.state_dict())
    for step in range(2):
        x = torch.randn(per * world, 4, 5, 5) * 2 + 1
        r = torch.randn_like(x)
        mine = slice(rank * per, (rank + 1) * per)
        xf = x.clone().requires_grad_()
        yf = ref(xf)
        (yf * r).sum().backward()
        xl = x[mine].clone().requires_grad_()
        y = sync(xl)
        (y * r[mine]).sum().backward()
        close(y, yf.detach()[mine], f"output m={momentum} step {step}")
        close(xl.grad, xf.grad[mine], f"input grad m={momentum} step {step}")
        for name in ("weight", "bias"):
            g = getattr(sync, name).grad.clone()
            dist.all_reduce(g)
            close(g, getattr(ref, name).grad, f"{name} grad summed m={momentum} step {step}")
        sync.zero_grad()
        ref.zero_grad()
    close(sync.running_mean, ref.running_mean, f"running_mean m={momentum}")
    close(sync.running_var, ref.running_var, f"running_var m={momentum}")
    sync.eval()
    ref.eval()
    x = torch.randn(per, 4, 5, 5)
    close(sync(x), ref(x), f"eval m={momentum}")
print(f"ok done rank {rank}")

# Every collective against a reference each rank computes alone from the
# inputs every rank would have (rank r's input is a known function of r),
# for float32, float64 and int64. Prints "ok ..." per check.
import torch
import torch.distributed as dist

dist.init_process_group(backend="mpi")
rank = dist.get_rank()
world = dist.get_world_size()
assert dist.is_initialized()
assert dist.get_backend() == "mpi"

def inp(r, dtype):
    return (torch.arange(6).reshape(2, 3) * (r + 2) - 3 * r).to(dtype)

def same(a, b, what):
    assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != {b.dtype}"
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    assert (a == b).all().item(), f"{what}: {a} != {b}"
    print(f"ok {what} rank {rank}")

for dt in [torch.float32, torch.float64, torch.int64]:
    ins = [inp(r, dt) for r in range(world)]
    total = ins[0].clone()
    big = ins[0].clone()
    small = ins[0].clone()
    prod = ins[0].clone()
    for r in range(1, world):
        total = total + ins[r]
        big = torch.maximum(big, ins[r])
        small = torch.minimum(small, ins[r])
        prod = prod * ins[r]
    t = inp(rank, dt)
    dist.all_reduce(t)
    same(t, total, f"all_reduce SUM {dt}")
    for name, op, want in [("MAX", dist.ReduceOp.MAX, big), ("MIN", dist.ReduceOp.MIN, small), ("PRODUCT", dist.ReduceOp.PRODUCT, prod)]:
        t = inp(rank, dt)
        dist.all_reduce(t, op=op)
        same(t, want, f"all_reduce {name} {dt}")
    if dt != torch.int64:
        t = inp(rank, dt)
        dist.all_reduce(t, op=dist.ReduceOp.AVG)
        same(t, total / world, f"all_reduce AVG {dt}")
    t = inp(rank, dt)
    dist.broadcast(t, src=world - 1)
    same(t, ins[world - 1], f"broadcast {dt}")
    parts = [torch.zeros(2, 3, dtype=dt) for r in range(world)]
    dist.all_gather(parts, inp(rank, dt))
    for r in range(world):
        same(parts[r], ins[r], f"all_gather[{r}] {dt}")
    out = torch.zeros(2 * world, 3, dtype=dt)
    dist.all_gather_into_tensor(out, inp(rank, dt))
    same(out, torch.cat(ins), f"all_gather_into_tensor {dt}")
    # reduce_scatter: rank r's input is world blocks; block k of rank r = ins[r] + k
    o = torch.zeros(2, 3, dtype=dt)
    dist.reduce_scatter_tensor(o, torch.cat([inp(rank, dt) + k for k in range(world)]))
    same(o, total + world * rank, f"reduce_scatter_tensor {dt}")
    t = inp(rank, dt)
    dist.reduce(t, dst=0)
    if rank == 0:
        same(t, total, f"reduce {dt}")
    else:
        same(t, ins[rank], f"reduce leaves non-dst {dt}")
    t = inp(rank, dt)
    if rank == 1:
        g = [torch.zeros(2, 3, dtype=dt) for r in range(world)]
        dist.gather(t, gather_list=g, dst=1)
        for r in range(world):
            same(g[r], ins[r], f"gather[{r}] {dt}")
    else:
        dist.gather(t, dst=1)
    t = torch.zeros(2, 3, dtype=dt)
    if rank == 0:
        dist.scatter(t, scatter_list=[inp(r, dt) * 10 for r in range(world)], src=0)
    else:
        dist.scatter(t, src=0)
    same(t, ins[rank] * 10, f"scatter {dt}")
    # a ring of send/recv
    nxt = (rank + 1) % world
    prv = (rank + world - 1) % world
    t = torch.zeros(2, 3, dtype=dt)
    if rank % 2 == 0:
        dist.send(inp(rank, dt), dst=nxt)
        src = dist.recv(t, src=prv)
    else:
        src = dist.recv(t, src=prv)
        dist.send(inp(rank, dt), dst=nxt)
    assert src == prv
    same(t, ins[prv], f"send/recv {dt}")
dist.barrier()
print(f"ok barrier rank {rank}")

"""Point to point: send/recv, isend/irecv (Work handles), batch_isend_irecv
with P2POp, tags, a receive from any rank, the errors, and a two-stage
pipeline (activations forward, their gradients back). Runs unchanged under
    mpirun -np 2 nndb python tests/dist/p2p.py        (MPI)
    PyTorch on gloo, as torchrun starts it (RANK, WORLD_SIZE, ...)
and every rank prints the same lines under both (tests/dist/test_dist.py)."""
import torch
import torch.distributed as dist

torch.set_num_threads(1)
backend = "mpi" if dist.is_mpi_available() else "gloo"
dist.init_process_group(backend=backend)
rank, world = dist.get_rank(), dist.get_world_size()
peer = 1 - rank


def say(*args):
    print(f"rank {rank}:", *args)


def fmt(t):
    return [round(v, 4) for v in t.detach().flatten().tolist()]


def error(name, f):
    try:
        f()
        say(name, "no error")
    except Exception as e:  # the class and PyTorch's words
        say(name, type(e).__name__, str(e).splitlines()[0])


# ---- blocking send/recv, three dtypes ----
for dt in (torch.float32, torch.float64, torch.int64):
    if rank == 0:
        dist.send(torch.arange(4, dtype=dt) * 3, dst=1)
        got = torch.zeros(2, 2, dtype=dt)
        say("recv returns", dist.recv(got, src=1), fmt(got), got.dtype)
    else:
        got = torch.zeros(4, dtype=dt)
        say("recv returns", dist.recv(got, src=0), fmt(got), got.dtype)
        dist.send(torch.tensor([[7, 8], [9, 10]], dtype=dt), dst=0)

# ---- a receive from any rank: recv returns the sender ----
if rank == 1:
    x = torch.zeros(2)
    say("recv from any returns", dist.recv(x), fmt(x))
else:
    dist.send(torch.tensor([5.0, 6.0]), dst=1)

# ---- isend/irecv: Work handles; tags pick the message ----
a = torch.zeros(3)
b = torch.zeros(3)
if rank == 0:
    w1 = dist.isend(torch.tensor([1.0, 2.0, 3.0]), dst=1, tag=11)
    w2 = dist.isend(torch.tensor([4.0, 5.0, 6.0]), dst=1, tag=22)
    say("isend wait", w1.wait(), w2.wait(), w1.is_completed(), w2.is_completed())
else:
    r2 = dist.irecv(b, src=0, tag=22)  # the later message first: the tag decides
    r1 = dist.irecv(a, src=0, tag=11)
    say("irecv wait", r2.wait(), r1.wait(), r1.is_completed())
    say("tag 11 got", fmt(a), "tag 22 got", fmt(b))

# ---- batch_isend_irecv: both ranks send and receive at once (a ring) ----
send_t = torch.arange(3.0) + 10 * rank
recv_t = torch.zeros(3)
ops = [dist.P2POp(dist.isend, send_t, peer), dist.P2POp(dist.irecv, recv_t, peer)]
reqs = dist.batch_isend_irecv(ops)
say("batch", len(reqs), [r.wait() for r in reqs], fmt(recv_t))
# several messages each way, with tags, in one batch
outs = [torch.full((2,), float(rank * 10 + k)) for k in range(3)]
ins = [torch.zeros(2) for _ in range(3)]
ops = ([dist.P2POp(dist.irecv, ins[k], peer, tag=k) for k in range(3)] +
       [dist.P2POp(dist.isend, outs[k], peer, tag=k) for k in range(3)])
for r in dist.batch_isend_irecv(ops):
    r.wait()
say("batch with tags", [fmt(t) for t in ins])

# ---- a two-stage pipeline: activations forward, their gradients back ----
torch.manual_seed(0)
l1, l2 = torch.nn.Linear(4, 6), torch.nn.Linear(6, 2)
x = torch.randn(5, 4)
y = torch.randn(5, 2)
ref = ((l2(torch.tanh(l1(x))) - y) ** 2).mean()
g1 = torch.autograd.grad(ref, [l1.weight, l2.weight])
if rank == 0:  # stage 0 owns l1
    h = torch.tanh(l1(x))
    dist.send(h.detach(), dst=1)
    gh = torch.zeros(5, 6)
    dist.recv(gh, src=1)
    h.backward(gh)
    say("stage 0 grad equals one process", torch.allclose(l1.weight.grad, g1[0], atol=1e-6))
else:  # stage 1 owns l2 and the loss
    h = torch.zeros(5, 6)
    dist.recv(h, src=0)
    h.requires_grad_()
    loss = ((l2(h) - y) ** 2).mean()
    loss.backward()
    dist.send(h.grad, dst=0)
    say("stage 1 loss", round(loss.item(), 5), "equals one process",
        abs(loss.item() - ref.item()) < 1e-6,
        torch.allclose(l2.weight.grad, g1[1], atol=1e-6))

# ---- errors, in PyTorch's words ----
t = torch.ones(3)
error("send a list", lambda: dist.send([t], dst=peer))
error("isend a number", lambda: dist.isend(3, dst=peer))
error("irecv a number", lambda: dist.irecv(3, src=peer))
error("recv a number", lambda: dist.recv(3, src=peer))
error("send non-contiguous", lambda: dist.send(torch.ones(3, 3).t(), dst=peer))
error("P2POp with send", lambda: dist.P2POp(dist.send, t, peer))
error("P2POp with a list", lambda: dist.P2POp(dist.isend, [t], peer))
error("batch of nothing", lambda: dist.batch_isend_irecv([]))
error("batch of ints", lambda: dist.batch_isend_irecv([1]))
error("batch as a tuple", lambda: dist.batch_isend_irecv((dist.P2POp(dist.isend, t, peer),)))
try:
    dist.send(t, dst=5)
except IndexError:  # gloo's words are C++'s; the class is the same
    say("send to rank 5: IndexError")
dist.barrier()
say("done")

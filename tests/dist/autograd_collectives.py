"""torch.distributed.nn.functional: collectives with gradients, and a
Megatron-style tensor-parallel MLP built on them, against the same MLP in
one process. Runs unchanged under
    mpirun -np 2 nndb python tests/dist/autograd_collectives.py      (MPI)
    PyTorch on gloo, as torchrun starts it (RANK, WORLD_SIZE, ...)
and every rank prints the same lines under both (tests/dist/test_dist.py)."""
import torch
import torch.distributed as dist
import torch.distributed.nn.functional as dnn
import torch.nn.functional as F

torch.set_num_threads(1)
backend = "mpi" if dist.is_mpi_available() else "gloo"
dist.init_process_group(backend=backend)
rank, world = dist.get_rank(), dist.get_world_size()


def say(*args):
    print(f"rank {rank}:", *args)


def fmt(t):
    return [round(v, 4) for v in t.detach().flatten().tolist()]


# ---- each collective and its gradient ----
x = (torch.arange(3.0) + 10 * rank).requires_grad_()
w = torch.tensor([1.0, 2.0, 3.0]) * (rank + 1)

y = dnn.all_reduce(x)
(y * w).sum().backward()
say("all_reduce", fmt(y), "grad", fmt(x.grad))

x.grad = None
y = dnn.broadcast(x, src=0)
(y * w).sum().backward()
say("broadcast", fmt(y), "grad", fmt(x.grad))

x.grad = None
y = dnn.reduce(x, dst=1)
(y * w).sum().backward()
say("reduce", fmt(y) if rank == 1 else "(not dst)", "grad", fmt(x.grad))

x.grad = None
parts = dnn.all_gather(x)
sum((p * w * (i + 1)).sum() for i, p in enumerate(parts)).backward()
say("all_gather", [fmt(p) for p in parts], "grad", fmt(x.grad))

x.grad = None
parts = dnn.gather(x, dst=0)
sum((p * w * (i + 1)).sum() for i, p in enumerate(parts)).backward()
say("gather", [fmt(p) for p in parts] if rank == 0 else "(not dst)", "grad", fmt(x.grad))

xs = [(torch.arange(2.0) + 100 * r + 10 * rank).requires_grad_() for r in range(world)]
y = dnn.scatter(xs, src=0)
(y * (rank + 1)).sum().backward()
say("scatter", fmt(y), "grads", [fmt(t.grad) if t.grad is not None else None for t in xs])

# ---- tensor-parallel MLP (column-parallel then row-parallel) ----
torch.manual_seed(0)  # the same full weights on every rank
D, H, C, B = 4, 8, 3, 5
W1 = torch.randn(H, D) * 0.5
W2 = torch.randn(C, H) * 0.5
xb = torch.randn(B, D)
target = torch.randn(B, C)

# one process: the reference
a1, a2 = W1.clone().requires_grad_(), W2.clone().requires_grad_()
ref = F.mse_loss(torch.tanh(xb @ a1.t()) @ a2.t(), target)
ref.backward()

# each rank holds a slice of the hidden features
k = H // world
sl = slice(rank * k, (rank + 1) * k)
p1 = W1[sl].clone().requires_grad_()      # column-parallel: rows of W1
p2 = W2[:, sl].clone().requires_grad_()   # row-parallel: columns of W2
h = torch.tanh(xb @ p1.t())
out = dnn.all_reduce(h @ p2.t())          # the partial products summed
loss = F.mse_loss(out, target)
loss.backward()
say("tensor-parallel loss", round(loss.item(), 5), "one process", round(ref.item(), 5))
# all_reduce's backward sums every rank's gradient: each rank computed the
# same loss, so the slices get world x the one-process gradient (Megatron's
# row-parallel layer uses an all_reduce whose backward is the identity)
say("grad W1 slice / one process", round((p1.grad / a1.grad[sl]).mean().item(), 4),
    "grad W2 slice / one process", round((p2.grad / a2.grad[:, sl]).mean().item(), 4))

# the bug the lesson plants: no all_reduce (each rank's partial product alone)
q1, q2 = W1[sl].clone().requires_grad_(), W2[:, sl].clone().requires_grad_()
bad = F.mse_loss(torch.tanh(xb @ q1.t()) @ q2.t(), target)
bad.backward()
say("without all_reduce: loss equal", abs(bad.item() - ref.item()) < 1e-6,
    "grad W1 matches", torch.allclose(q1.grad, a1.grad[sl], atol=1e-6))

# all_gather variant: gather the hidden slices, full W2 on every rank
g1 = W1[sl].clone().requires_grad_()
g2 = W2.clone().requires_grad_()
hs = torch.cat(dnn.all_gather(torch.tanh(xb @ g1.t())), dim=1)
loss2 = F.mse_loss(hs @ g2.t(), target)
loss2.backward()
say("all_gather MLP loss", round(loss2.item(), 5), "grad W1 slice matches",
    torch.allclose(g1.grad, a1.grad[sl] * world, atol=1e-5))
dist.destroy_process_group()

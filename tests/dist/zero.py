# ZeRO-1 over DDP against one process with unsharded AdamW on the whole
# batch; each rank keeps about 1/world of the optimizer state.
dist.init_process_group(backend="mpi")
rank = dist.get_rank()
world = dist.get_world_size()
B = 4

def fresh():
    manual_seed(0)
    return Sequential(Linear(6, 32), Tanh(), Linear(32, 16), Tanh(), Linear(16, 4))

manual_seed(7)
X = randn(B * world, 6)
Y = randint(0, 4, (B * world,))
x = X[rank * B:(rank + 1) * B]
y = Y[rank * B:(rank + 1) * B]
ref = fresh()
model = fresh()
ddp = DistributedDataParallel(model)
zero = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=AdamW, lr=1e-2, weight_decay=0.1)
opt_ref = AdamW(ref.parameters(), lr=1e-2, weight_decay=0.1)
worst = 0.0
for step in range(5):
    zero.zero_grad()
    cross_entropy(ddp(x), y).backward()
    zero.step()
    opt_ref.zero_grad()
    cross_entropy(ref(X), Y).backward()
    opt_ref.step()
    for p, q in zip(model.parameters(), ref.parameters()):
        worst = max(worst, (p - q).abs().max().item())
assert worst < 1e-5, f"ZeRO differs from AdamW by {worst}"
print(f"ok zero_equals_adamw rank {rank}: max diff over 5 steps {worst:.2e}")
mine = tensor([zero.local_state_numel])
dist.all_reduce(mine)
assert mine.item() == zero.total_state_numel, f"shares {mine.item()} != {zero.total_state_numel}"
assert zero.local_state_numel < zero.total_state_numel
print(f"ok zero_shards rank {rank}: {zero}")
print(f"ok dist_check_after_zero rank {rank}: {dist_check(ddp).ok}")

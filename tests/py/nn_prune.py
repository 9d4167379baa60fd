# torch.nn.utils.prune: masks, reparametrization, hooks, iterative and global
# pruning, remove, errors -- the same under PyTorch 1.13 and nndb.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3))
x = torch.randn(4, 6)

prune.l1_unstructured(net[0], "weight", amount=0.3)
print(sorted(n for n, _ in net[0].named_parameters()), sorted(n for n, _ in net[0].named_buffers()))
print(net[0].weight_mask)
print(int(net[0].weight_mask.sum()), (net[0].weight == 0).sum().item())
print(prune.is_pruned(net), prune.is_pruned(net[2]))
print(type(list(net[0]._forward_pre_hooks.values())[0]).__name__)
out = net(x)
print(out)
out.sum().backward()
print(net[0].weight_orig.grad)  # pruned entries get no gradient

# pruning again: a container; the new rule acts on what is kept
prune.ln_structured(net[0], "weight", amount=2, n=2, dim=0)
hook = list(net[0]._forward_pre_hooks.values())[0]
print(type(hook).__name__, len(hook), [type(m).__name__ for m in hook])
print(net[0].weight_mask)

# random rules draw from torch's generator in PyTorch's order
torch.manual_seed(1)
prune.random_unstructured(net[2], "weight", amount=5)
print(net[2].weight_mask)
torch.manual_seed(2)
prune.random_structured(net[2], "bias", amount=0.5, dim=0) if False else None
lin = nn.Linear(4, 6)
torch.manual_seed(3)
prune.random_structured(lin, "weight", amount=0.5, dim=0)
print(lin.weight_mask)

# importance scores, identity, custom masks
lin2 = nn.Linear(3, 3)
prune.l1_unstructured(lin2, "weight", amount=2, importance_scores=torch.arange(9.0).view(3, 3))
print(lin2.weight_mask)
prune.identity(lin2, "bias")
print(lin2.bias_mask)
prune.custom_from_mask(lin2, "bias", mask=torch.tensor([1, 0, 1]))
print(lin2.bias_mask, lin2.bias)

# remove makes it permanent
prune.remove(net[0], "weight")
print(sorted(n for n, _ in net[0].named_parameters()), list(net[0]._forward_pre_hooks))
print((net[0].weight == 0).sum().item(), isinstance(net[0].weight, nn.Parameter))

# global pruning over several layers at once
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 4))
params = [(model[0], "weight"), (model[2], "weight")]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.4)
print([int(m.weight_mask.sum()) for m, _ in params])
print(sum(int((m.weight == 0).sum()) for m, _ in params), 0.4 * (64 + 32))
print(model[2].weight_mask)

# state_dict keys after pruning
print(list(model[2].state_dict().keys()))

# the pruned method as a plain function on a tensor
t = torch.tensor([[0.5, -2.0, 0.1], [3.0, -0.2, 1.0]])
print(prune.L1Unstructured(amount=0.5).prune(t))
print(prune.LnStructured(amount=1, n=1, dim=1).prune(t))

# errors in PyTorch's words
for bad in (lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5),
            lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=-1),
            lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=10),
            lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount="a"),
            lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0),
            lambda: prune.remove(nn.Linear(2, 2), "weight"),
            lambda: prune.global_unstructured(params, pruning_method=prune.LnStructured, amount=1, n=2)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split(" of module")[0].split(" PruningContainer")[0])
m = nn.Linear(2, 2)
try:
    prune.l1_unstructured(m, "weight", amount=10)
except ValueError:
    pass
print(sorted(n for n, _ in m.named_parameters()))  # left as it was

# sort/argsort/topk (engine/ops/ops_index.c): stable order with NaN, -0.0, +-inf,
# descending, integers beyond 2**31, bools, gradients.
import torch
torch.manual_seed(0)
for t in range(100):
    n = int(torch.randint(1, 60, ()))
    x = torch.randint(-3, 4, (n,)).float()
    x[x == 3] = float('nan')
    x[x == -3] = -0.0
    x[x == 2] = float('inf')
    x[x == -2] = float('-inf')
    for d in (False, True):
        s = x.sort(descending=d, stable=True)
        print(s.values.tolist(), s.indices.tolist())
print(torch.tensor([3, -5, 2**40, -2**40, 0]).sort(), torch.tensor([True, False, True]).sort())
x = torch.randn(20, 30, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda x: x.sort(1).values, (x,)), x.topk(3, 0).indices)

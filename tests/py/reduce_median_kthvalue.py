# median/kthvalue by selection (engine/ops/ops_index.c nn_kth_indices): values,
# indices among ties and NaN rows as PyTorch's, gradients through gather.
import torch
torch.manual_seed(0)
for trial in range(200):
    n = int(torch.randint(1, 40, ()))
    x = torch.randint(0, 5, (3, n)).float()
    if trial % 3 == 0:
        x[0, int(torch.randint(0, n, ()))] = float('nan')
    k = int(torch.randint(1, n + 1, ()))
    m = x.median(1)
    kv = x.kthvalue(k, 1)
    print(m.values.tolist(), m.indices.tolist(), kv.values.tolist(), kv.indices.tolist())
x = torch.randn(50, 33, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda x: x.median(1).values, (x,)), torch.autograd.gradcheck(lambda x: x.kthvalue(5, 0).values, (x,)))
print(torch.tensor([[3, 1, 2], [7, 7, 7]]).median(1), torch.tensor([9, 2, 5]).kthvalue(2))

# prod (engine/ops/ops_more.c): along rows with 32 running products, along
# columns a slice at a time, over everything; int64 wraps as PyTorch's;
# zeros and the gradient; values close to PyTorch's (rounding order differs).
import torch

torch.manual_seed(0)
x = 1 + torch.randn(37, 70) * 0.05
for r in (x.prod(1), x.prod(0), x.prod(), x.t().prod(1), x.prod(1, keepdim=True)):
    print(r.shape, [round(v, 4) for v in r.reshape(-1)[:6].tolist()])
i = torch.randint(-3, 4, (5, 40))
print(i.prod(1).tolist(), i.prod(0).tolist()[:8], torch.tensor([2**40, 2**30, 7]).prod().item())
print(torch.tensor([[2., 0, 3], [1, 2, 4]]).prod(1), torch.ones(0).prod(), torch.ones(3, 0).prod(1))
w = torch.randn(4, 35, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda w: w.prod(1), (w,)), torch.autograd.gradcheck(lambda w: w.prod(), (w[:, :5],)))
z = torch.tensor([[1., 0., 3.], [0., 0., 2.]], requires_grad=True)
z.prod(1).sum().backward()
print(z.grad)

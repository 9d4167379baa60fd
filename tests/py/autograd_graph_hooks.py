# torch.autograd.graph.save_on_cpu changes nothing on the CPU (values and
# gradients as without it).
import torch

torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(4, 2, requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    y = (x @ w).tanh().sum()
y.backward()
g1 = (x.grad.clone(), w.grad.clone())
x.grad = None
w.grad = None
(x @ w).tanh().sum().backward()
print(torch.equal(g1[0], x.grad), torch.equal(g1[1], w.grad), round(y.item(), 5))
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    print(torch.ones(2).sum().item())

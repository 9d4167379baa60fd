# torch.autograd.grad and torch.autograd.backward: non-leaf inputs,
# retain_graph, allow_unused, several outputs, grad_outputs; .grad stays
# untouched; the errors torch raises.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor([3.0, 4.0], requires_grad=True)
m = w * z
out = (m * m).sum()
print(torch.autograd.grad(out, [w, m], retain_graph=True))
print(w.grad, z.grad)
print(torch.autograd.grad(out, w))
print(torch.autograd.grad((w * 2).sum(), [w, z], allow_unused=True))
print(torch.autograd.grad([(w * 2).sum(), (w * w).sum()], w))
print(torch.autograd.grad(w * 3, w, torch.ones(2)))
print(torch.autograd.grad(w * 3, w, grad_outputs=torch.tensor([1.0, -1.0])))
print(torch.autograd.grad([w * 3, z * w], [w, z], grad_outputs=[torch.ones(2), torch.tensor([2.0, 0.5])]))
torch.autograd.backward([(w * 2).sum(), (w * w).sum()])
print(w.grad)
w.grad = None
torch.autograd.backward(w * z, torch.tensor([1.0, 10.0]))
print(w.grad, z.grad)

# a gradient penalty's first half: the gradient of a model's output
# with respect to its input
x = torch.tensor([[0.5, -1.0]], requires_grad=True)
lin = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[2.0, -3.0]]))
    lin.bias.fill_(0.25)
y = torch.tanh(lin(x))
gx, = torch.autograd.grad(y.sum(), x)
print(gx, lin.weight.grad)

for f in (lambda: torch.autograd.grad(w * 2, w),
          lambda: torch.autograd.grad((w * 2).sum(), [w, torch.ones(2)]),
          lambda: torch.autograd.grad((w * 2).sum(), [w, z]),
          lambda: torch.autograd.grad(torch.ones(2).sum(), w),
          lambda: torch.autograd.grad([w.sum(), z.sum()], w, grad_outputs=[None]),
          lambda: torch.autograd.grad(w * 2, w, torch.ones(3))):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError", e)

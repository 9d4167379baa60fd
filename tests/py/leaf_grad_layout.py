# A leaf's .grad follows PyTorch's layout contract (AccumulateGrad): a
# non-overlapping and dense leaf (transposed, permuted, channels_last)
# gets its strides whatever layout its gradient came in, a non-dense or
# overlapping leaf a row-major .grad; a second backward adds into the
# .grad where it is; torch.autograd.grad's results are not .grad and keep
# their own layout. Module.to(memory_format=) lays out the 4-d and 5-d
# parameters (a conv's weight), whose .grad then has that layout too.
import torch

torch.manual_seed(0)


def show(name, leaf):
    g = leaf.grad
    print(name, tuple(leaf.shape), leaf.stride(), g.stride(), g.is_contiguous(),
          g.is_contiguous(memory_format=torch.channels_last) if g.dim() == 4 else "-",
          round(g.double().sum().item(), 6))


w = torch.randn(3, 4).t().requires_grad_()
(w * 2).sum().backward()
show("t mul", w)
(w * 3).sum().backward()
show("t acc", w)
w.grad.zero_()
(w.exp()).sum().backward()
show("t zeroed", w)

m = torch.randn(5, 4).t().requires_grad_()
(torch.randn(2, 4) @ m).sum().backward()
show("t matmul", m)

c = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last).requires_grad_()
c.exp().sum().backward()
show("cl exp", c)
c2 = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last).requires_grad_()
(c2.sum(1, keepdim=True) * torch.randn(4, 5)).sum().backward()  # a row-major gradient
show("cl sum", c2)

p = torch.randn(2, 3, 4).permute(2, 0, 1).requires_grad_()
p.sin().sum().backward()
show("perm sin", p)
p2 = torch.randn(2, 3, 4).permute(2, 0, 1).detach().requires_grad_()
(p2 @ torch.randn(3, 5)).sum().backward()
show("perm matmul", p2)
p3 = torch.randn(2, 3, 4).permute(2, 0, 1).detach().requires_grad_()
(p3 * 2).sum().backward()
(p3.reshape(4, 6) @ torch.randn(6, 2)).sum().backward()
show("perm twice", p3)

b = torch.randn(4, 6)[:, ::2].detach().requires_grad_()
(b * 3).sum().backward()
show("strided", b)
e = torch.randn(3, 1).expand(3, 4).requires_grad_()
(e * 2).sum().backward()
show("expanded", e)
o = torch.randn(4, 1).t().requires_grad_()
(o * 2).sum().backward()
show("size-1 dim", o)
k = torch.randn(3, 4).requires_grad_()
(k.t() * 2).sum().backward()
show("contiguous leaf, transposed use", k)

# two uses in one pass of a transposed weight
u = torch.randn(6, 5).t().requires_grad_()
x = torch.randn(3, 6)
((x @ u.t()).sum() + (u * u).sum()).backward()
show("two uses", u)
u.grad = None
(x @ u.t()).sum().backward()
show("set to None", u)

w3 = torch.randn(3, 4).t().requires_grad_()
g, = torch.autograd.grad((w3 * 2).sum(), w3)
print("autograd.grad", g.stride(), w3.grad)

# Module.to(memory_format=)
net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.Linear(4, 2))
net = net.to(torch.float64, memory_format=torch.channels_last)
for n, q in net.named_parameters():
    print(n, q.dtype, q.stride())
for n, q in net.named_buffers():
    print(n, q.dtype, q.stride())
net(torch.randn(2, 3, 6, 6, dtype=torch.float64)).sum().backward()
for n, q in net.named_parameters():
    print(n, "grad", q.grad.stride())
net.to(memory_format=torch.contiguous_format)
print(net[0].weight.stride(), net[0].weight.grad.stride())
net.to(memory_format=torch.preserve_format)
print(net[0].weight.stride())
c3 = torch.nn.Conv3d(2, 3, 2).to(memory_format=torch.channels_last_3d)
print(c3.weight.stride(), c3.bias.stride())
c3(torch.randn(1, 2, 3, 3, 3)).sum().backward()
print(c3.weight.grad.stride())

# nn.utils.convert_conv2d_weight_memory_format: Conv2d and ConvTranspose2d
# weights only, each weight the same Parameter
net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ConvTranspose2d(4, 2, 2),
                          torch.nn.Conv1d(2, 2, 1), torch.nn.Linear(3, 3))
w0 = net[0].weight
print(torch.nn.utils.convert_conv2d_weight_memory_format(net, torch.channels_last) is net,
      net[0].weight is w0)
for n, q in net.named_parameters():
    print(n, q.stride())
torch.nn.utils.convert_conv2d_weight_memory_format(net, torch.contiguous_format)
print(net[0].weight.stride())

# optimizers over a transposed and a channels_last parameter: their steps
# and the layout of their state (zeros_like's, the parameter's strides)
torch.manual_seed(0)
for name, kw in [("Adam", {}), ("AdamW", {}), ("Adam", {"amsgrad": True}),
                 ("RMSprop", {"momentum": 0.9, "centered": True}), ("Adagrad", {}),
                 ("SGD", {"momentum": 0.9}), ("Adamax", {}), ("NAdam", {}), ("RAdam", {}),
                 ("Adadelta", {})]:
    w = torch.nn.Parameter(torch.randn(3, 4).t())
    c = torch.nn.Parameter(torch.randn(2, 3, 2, 2).to(memory_format=torch.channels_last))
    opt = getattr(torch.optim, name)([w, c], lr=0.1, **kw)
    for _ in range(3):
        opt.zero_grad()
        ((w * torch.arange(12.).view(3, 4).t()).sum() + (w ** 2).sum()
         + (c.exp() * torch.arange(24.).view(2, 3, 2, 2)).sum()).backward()
        opt.step()
    print(name, kw, [round(v, 5) for v in w.flatten().tolist()][:4],
          [round(v, 5) for v in c.flatten().tolist()][:4], w.grad.stride(), c.grad.stride(),
          {k: v.stride() for k, v in opt.state[w].items() if torch.is_tensor(v) and v.dim() > 0},
          {k: v.stride() for k, v in opt.state[c].items() if torch.is_tensor(v) and v.dim() > 0})

# parameters_to_vector flattens each tensor with view(-1): a transposed
# parameter or .grad is PyTorch's RuntimeError; a column is a view
w = torch.nn.Parameter(torch.randn(3, 4).t())
(w * 2).sum().backward()
for t in (w, w.grad, w[:, 0], torch.randn(2, 3)):
    try:
        print(torch.nn.utils.parameters_to_vector([t]).shape)
    except RuntimeError as e:
        print(type(e).__name__, e)

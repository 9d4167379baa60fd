# The create_graph pass as PyTorch 1.13 shows it: the node names of the
# gradients it builds (ops torch differentiates with one backward kernel),
# retain_grad() under backward(create_graph=True) (a recorded copy, then a
# sum), and checkpoint's reentrant error under torch.autograd.grad.
import torch
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
z = torch.randn(2, 3, requires_grad=True)
w = torch.randn(3, 3, requires_grad=True)
cases = [("exp*sin", lambda t: (t.exp() * t.sin()).sum()), ("mm", lambda t: (t @ t.t()).sum()),
         ("relu", lambda t: torch.relu(t).pow(2).sum()),
         ("softmax", lambda t: torch.softmax(t, -1)[:, 0].sum()),
         ("linear", lambda t: torch.nn.functional.linear(t, w).tanh().sum()),
         ("log_softmax", lambda t: torch.log_softmax(t, 1)[:, 1].sum()),
         ("sigmoid", lambda t: t.sigmoid().sum()), ("tanh", lambda t: t.tanh().sum()),
         ("div", lambda t: (1 / (t * t + 1)).sum()), ("matmul-w", lambda t: (t @ w).pow(2).sum())]
for name, f in cases:
    g, = torch.autograd.grad(f(z), z, create_graph=True)
    gg, = torch.autograd.grad(g.pow(2).sum(), z)
    print(name, g.grad_fn.name(), [round(v, 4) for v in gg.flatten().tolist()])

a = torch.randn(3, requires_grad=True)
b = a * 2
b.retain_grad()
c = (b ** 2).sum()
c.backward(create_graph=True)
print("retained", b.grad, b.grad.requires_grad)
c.backward(create_graph=True)
print("retained twice", b.grad)
(gb,) = torch.autograd.grad(b.grad.sum(), a)
print("through the retained grad", gb)

x = torch.randn(2, 3, requires_grad=True)
y = checkpoint(lambda t: torch.tanh(t @ w).sin(), x, use_reentrant=True)
try:
    torch.autograd.grad(y.sum(), x)
except RuntimeError as e:
    print("reentrant:", e)
y.sum().backward()
print("checkpoint backward", [round(v, 4) for v in x.grad.flatten().tolist()])

# second derivatives through self-attention (one packed node in nndb)
for bf in (False, True):
    torch.manual_seed(6)
    layer = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.1, batch_first=bf)
    src = torch.randn((3, 4, 8) if bf else (4, 3, 8), requires_grad=True)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(4)
    out = layer(src, src_mask=mask)
    g, = torch.autograd.grad(out.pow(2).sum(), src, create_graph=True)
    gg = torch.autograd.grad(g.pow(2).sum(), [src, layer.self_attn.in_proj_weight])
    print("encoder layer bf", bf, round(g.abs().sum().item(), 3),
          [round(t.abs().sum().item(), 2) for t in gg])

# The in-place forms of the activations and dropouts (F.relu(x, inplace=True),
# nn.ReLU(inplace=True), F.dropout(..., inplace=True), ...) after another op:
# the same values, the same gradients, the same grad_fn name, the same
# object returned, and PyTorch's error on a leaf that requires grad.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(6, 5, requires_grad=True)
w = torch.randn(5)
weights = torch.arange(30.).reshape(6, 5)
cases = [
    ("relu", lambda h: F.relu(h, inplace=True)),
    ("relu_", F.relu_),
    ("ReLU", nn.ReLU(inplace=True)),
    ("relu6", lambda h: F.relu6(h, inplace=True)),
    ("ReLU6", nn.ReLU6(inplace=True)),
    ("hardtanh", lambda h: F.hardtanh(h, -0.5, 0.7, inplace=True)),
    ("leaky_relu", lambda h: F.leaky_relu(h, 0.1, inplace=True)),
    ("elu", lambda h: F.elu(h, inplace=True)),
    ("selu", lambda h: F.selu(h, inplace=True)),
    ("celu", lambda h: F.celu(h, inplace=True)),
    ("silu", lambda h: F.silu(h, inplace=True)),
    ("mish", lambda h: F.mish(h, inplace=True)),
    ("hardsigmoid", lambda h: F.hardsigmoid(h, inplace=True)),
    ("hardswish", lambda h: F.hardswish(h, inplace=True)),
    ("threshold", lambda h: F.threshold(h, 0.1, -2.0, inplace=True)),
    ("dropout", lambda h: F.dropout(h, 0.4, training=True, inplace=True)),
    ("Dropout", nn.Dropout(0.3, inplace=True)),
    ("Dropout2d", nn.Dropout2d(0.3, inplace=True)),
    ("alpha_dropout", lambda h: F.alpha_dropout(h, 0.2, training=True, inplace=True)),
    ("rrelu", lambda h: F.rrelu(h, inplace=True)),
]
for name, act in cases:
    x.grad = None
    torch.manual_seed(1)
    h = x * w + 0.25
    out = act(h)
    (out * weights).sum().backward()
    print(f"{name:12s} same object {out is h}  grad_fn {out.grad_fn.name()}  "
          f"value {out.double().sum().item():.4f}  grad {x.grad.double().abs().sum().item():.4f}")

# A BatchNorm output through ReLU(inplace=True), as in resnet's blocks.
torch.manual_seed(0)
bn = nn.BatchNorm1d(5)
x.grad = None
out = nn.ReLU(inplace=True)(bn(x * 1.0))
(out * weights).sum().backward()
print("bn+relu_", round(x.grad.double().abs().sum().item(), 4), round(bn.weight.grad.double().sum().item(), 4))

# Without autograd the in-place form just writes.
with torch.no_grad():
    h = x * 1.0
    print("no_grad", F.relu(h, inplace=True) is h, h.grad_fn, round(h.double().sum().item(), 5))
try:
    F.relu(torch.randn(3, requires_grad=True), inplace=True)
except RuntimeError as e:
    print("RuntimeError", e)

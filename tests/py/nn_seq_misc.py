# Copies, checkpoints, dtype changes, state_dict keys and constructor errors
# of the sequence modules, as PyTorch has them.
import copy, pickle, io
import torch
from torch import nn
m = nn.LSTM(2, 3, num_layers=2)
print(len(m._flat_weights), m._flat_weights_names[:3])
m.flatten_parameters()
m2 = copy.deepcopy(m)
print(torch.equal(m2.weight_ih_l0, m.weight_ih_l0), m2.weight_ih_l0 is m.weight_ih_l0)
buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0)
m3 = nn.LSTM(2, 3, num_layers=2); print(m3.load_state_dict(torch.load(buf)))
m.double(); print(m.weight_hh_l1.dtype, m(torch.randn(3, 1, 2, dtype=torch.float64))[0].dtype)
mha = nn.MultiheadAttention(4, 2)
print(list(mha.state_dict().keys()))
t = nn.Transformer(8, 2, 1, 1, 16)
print(len(t.state_dict()))
print(nn.TransformerEncoderLayer(8, 2).activation_relu_or_gelu, nn.TransformerEncoderLayer(8, 2, activation="gelu").activation_relu_or_gelu)
try:
    nn.TransformerEncoderLayer(8, 2, activation="tanh")
except RuntimeError as e:
    print(e)
try:
    nn.MultiheadAttention(5, 2)
except AssertionError as e:
    print(e)


# Exact GELU in float32 (issue 27): whole blocks of 16 and the scalar rest,
# contiguous, strided and broadcast gradients, each within 1e-6 of the float64
# formula (PyTorch 1.13 computes it through oneDNN, nndb through SLEEF's exp:
# the last bits may differ, the values must not).
def _gelu_check():
    import math
    import torch.nn.functional as F
    torch.manual_seed(27)
    for n in (7, 37, 4099):
        x = (torch.randn(n) * 4).requires_grad_()
        g = torch.randn(n)
        y = F.gelu(x)
        y.backward(g)
        xd = x.detach().double()
        ref = 0.5 * xd * (1 + torch.erf(xd / math.sqrt(2)))
        dref = g.double() * (0.5 * (1 + torch.erf(xd / math.sqrt(2))) + xd * torch.exp(-xd * xd / 2) / math.sqrt(2 * math.pi))
        print("gelu", n, y.dtype, (y.double() - ref).abs().max().item() < 1e-6,
              (x.grad.double() - dref).abs().max().item() < 1e-6)
    base = torch.randn(64, 48) * 3
    xs = base[:, ::3].requires_grad_()
    F.gelu(xs).sum().backward()
    xd = xs.detach().double()
    ref = 0.5 * xd * (1 + torch.erf(xd / math.sqrt(2)))
    dref = 0.5 * (1 + torch.erf(xd / math.sqrt(2))) + xd * torch.exp(-xd * xd / 2) / math.sqrt(2 * math.pi)
    print("gelu strided", (F.gelu(xs).double() - ref).abs().max().item() < 1e-6,
          (xs.grad.double() - dref).abs().max().item() < 1e-6)
    sp = torch.tensor([0.0, -0.0, 1.0, -1.0, 10.0, -10.0, 30.0, float("inf"), float("nan")] * 2)
    print("gelu special", F.gelu(sp)[[0, 2, 3, 4, 6, 7]].tolist(), F.gelu(sp)[8].isnan().item(),
          F.gelu(sp)[17].isnan().item())


_gelu_check()

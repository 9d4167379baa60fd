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


# Exact GELU in float32 (issue 27), bit for bit: contiguous input goes
# through oneDNN's gelu_erf in PyTorch 1.13, strided input through ATen's
# kernel (SLEEF on blocks of 16, libm on the rest); each value and gradient is
# printed in hex, and checked within 1e-6 of the float64 formula.
def _gelu_check():
    import math
    import torch.nn.functional as F

    def hx(t):
        return " ".join(v.hex() for v in t.detach().reshape(-1).tolist())

    def close(x, y, gx, g):
        xd = x.detach().double()
        ref = 0.5 * xd * (1 + torch.erf(xd / math.sqrt(2)))
        d = 0.5 * (1 + torch.erf(xd / math.sqrt(2))) + xd * torch.exp(-xd * xd / 2) / math.sqrt(2 * math.pi)
        return (y.double() - ref).abs().max().item() < 1e-6, (gx.double() - g.double() * d).abs().max().item() < 1e-6

    torch.manual_seed(27)
    for n in (7, 37, 100):
        x = (torch.randn(n) * 4).requires_grad_()
        g = torch.randn(n)
        y = F.gelu(x)
        y.backward(g)
        print("gelu", n, hx(y), hx(x.grad), close(x, y, x.grad, g))
    for name, x in (("slice", (torch.randn(4, 40) * 3)[:, :37]), ("step", (torch.randn(40, 2) * 3)[:, 0])):
        x.requires_grad_()
        g = torch.randn(x.shape)
        y = F.gelu(x)
        y.backward(g)
        print("gelu", name, hx(y), hx(x.grad), close(x, y, x.grad, g))
    sp = torch.tensor([0.0, -0.0, 1e-30, -1e-30, 13.5, -13.5, 100.0, -100.0, 1e30, -1e30,
                       float("inf"), float("-inf"), float("nan"), 3.4e38, -3.4e38, 9.0, -9.0, 0.5],
                      requires_grad=True)
    y = F.gelu(sp)
    y.backward(torch.linspace(-1, 1, 18))
    print("gelu special", hx(y), hx(sp.grad))


_gelu_check()


# tanh-GELU in float32 (issue 27, fifth session), bit for bit: ATen's
# kernel (oneDNN takes only the exact form): SLEEF's tanh on blocks of 16,
# libm's on the rest of a run and on strided runs; values and gradients in
# hex for short runs, hashes of a 260001-value sweep (240001 of them on a
# grid over [-12, 12], through the -0 region below x = -5.0614), and each
# checked within 2e-6 of the float64 formula.
def _gelu_tanh_check():
    import hashlib
    import math
    import struct
    import torch.nn.functional as F

    def hx(t):
        return " ".join(v.hex() for v in t.detach().reshape(-1).tolist())

    def bits(t):
        v = t.detach().reshape(-1).tolist()
        return hashlib.md5(struct.pack("<%df" % len(v), *v)).hexdigest()[:16]

    k = math.sqrt(2 / math.pi)

    def close(x, y, gx, g):
        xd = x.detach().double()
        t = torch.tanh(k * (xd + 0.044715 * xd ** 3))
        ref = 0.5 * xd * (1 + t)
        d = 0.5 * (1 + t) + 0.5 * xd * (1 - t * t) * k * (1 + 3 * 0.044715 * xd * xd)
        return ((y.double() - ref).abs().max().item() < 2e-6,
                (gx.double() - g.double() * d).abs().max().item() < 2e-6)

    torch.manual_seed(28)
    for n in (7, 37, 100):
        x = (torch.randn(n) * 4).requires_grad_()
        g = torch.randn(n)
        y = F.gelu(x, approximate="tanh")
        y.backward(g)
        print("gelu tanh", n, hx(y), hx(x.grad), close(x, y, x.grad, g))
    for name, x in (("slice", (torch.randn(4, 40) * 3)[:, :37]), ("step", (torch.randn(40, 2) * 3)[:, 0])):
        x.requires_grad_()
        g = torch.randn(x.shape)
        y = F.gelu(x, approximate="tanh")
        y.backward(g)
        print("gelu tanh", name, hx(y), hx(x.grad), close(x, y, x.grad, g))
    x = torch.cat([torch.linspace(-12, 12, 240001), torch.randn(20000) * 3]).requires_grad_()
    g = torch.randn(x.shape)
    y = F.gelu(x, approximate="tanh")
    y.backward(g)
    print("gelu tanh sweep", bits(y), bits(x.grad), close(x, y, x.grad, g), (y == 0).sum().item())
    x.grad = None
    F.gelu(x, approximate="tanh").sum().backward()
    print("gelu tanh sweep ones", bits(x.grad))
    sp = torch.tensor([0.0, -0.0, 1e-30, -1e-30, -5.0614, -5.06138, -5.5, -9.5, 9.5, 1e13, -1e13,
                       1e14, -1e14, 1e20, -1e20, float("inf"), float("-inf"), float("nan")],
                      requires_grad=True)
    y = F.gelu(sp, approximate="tanh")
    y.backward(torch.linspace(-1, 1, 18))
    print("gelu tanh special", hx(y), hx(sp.grad))


_gelu_tanh_check()

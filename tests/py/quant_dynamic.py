"""torch.quantization.quantize_dynamic / torch.ao.quantization.quantize_dynamic
of nn.Linear to int8 as PyTorch 1.13 does on the CPU: the converted modules'
repr, the quantized weights (int_repr, scale, zero point), outputs within
float32 rounding of a reference that follows 1.13's steps (per-tensor
symmetric qint8 weights; per-tensor quint8 activations with reduce_range,
ChooseQuantizationParams' zero point; exact integer products), the error
against the float model, which modules are converted and the original model
left alone."""
import torch
from torch import nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.fc(x)) + x


class MyLinear(nn.Linear):
    pass


model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 16), Block(), MyLinear(16, 8),
                      nn.Linear(8, 4, bias=False))
q = torch.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
print(q)
print("original untouched:", type(model[0]).__name__, model.training, q.training)
q2 = torch.ao.quantization.quantize_dynamic(model)
print(q2[0])

# the quantized weights
for i in (0, 2, 5):
    wq = q[i].weight()
    print(i, wq.dtype, wq.qscheme(), wq.q_scale(), wq.q_zero_point(),
          wq.int_repr().dtype, int(wq.int_repr().sum()), int(wq.int_repr().abs().max()))
print(q[0].weight().int_repr()[:2, :8])
print(q[5].bias(), q[0].bias().shape)


def ref_weight(w):
    mx = max(-min(w.min().item(), 0.0), max(w.max().item(), 0.0))
    s = max((torch.tensor(mx, dtype=torch.float32) / 127.5).item(),
            torch.finfo(torch.float32).eps)
    qw = torch.clamp(torch.round(w * (1.0 / torch.tensor(s, dtype=torch.float32))), -128, 127)
    return qw, s


def choose(mn, mx, qmin=0, qmax=127):
    mn, mx = min(mn, 0.0), max(mx, 0.0)
    scale = torch.tensor((float(mx) - mn) / (qmax - qmin), dtype=torch.float32).item()
    zmin, zmax = qmin - mn / scale, qmax - mx / scale
    emin, emax = abs(qmin) - abs(mn / scale), abs(qmax) - abs(mx / scale)
    z0 = zmin if emin < emax else zmax
    return scale, (qmin if z0 < qmin else qmax if z0 > qmax else int(round(z0)))


def ref_linear(x, lin):
    w = lin.weight.detach()
    qw, sw = ref_weight(w)
    x2 = x.reshape(-1, w.shape[1])
    sx, zx = choose(x2.min().item(), x2.max().item())
    qx = torch.clamp(torch.round(x2 * (1.0 / torch.tensor(sx, dtype=torch.float32))) + zx, 0, 255)
    acc = (qx.double() - zx) @ qw.double().t()
    out = acc.float() * (torch.tensor(sx, dtype=torch.float32) * torch.tensor(sw, dtype=torch.float32))
    if lin.bias is not None:
        out = out + lin.bias.detach()
    return out.reshape(*x.shape[:-1], w.shape[0])


def ref_model(x):
    h = torch.relu(ref_linear(x, model[0]))
    h = ref_linear(h, model[2])
    h = model[3].act(ref_linear(h, model[3].fc)) + h
    h = model[4](h)  # a subclass of Linear is not converted (its type is not in the mapping)
    return ref_linear(h, model[5])


with torch.no_grad():
    for shape in [(8, 20), (3, 5, 20), (1, 20)]:
        x = torch.randn(*shape)
        yq, yr, yf = q(x), ref_model(x), model(x)
        print(shape, tuple(yq.shape), yq.dtype,
              "matches 1.13's steps within 1e-5:", bool((yq - yr).abs().max() < 1e-5),
              "error vs float < 0.05:", bool((yq - yf).abs().max() < 0.05),
              "differs from float:", not torch.equal(yq, yf))
    x = torch.randn(4, 20)
    print(q(x))
    print(q2(x).sub(q(x)).abs().max().item())

# which modules: by name, by dict, in place
qn = torch.quantization.quantize_dynamic(model, {"2"})
print([m._get_name() for m in qn])
qd = torch.quantization.quantize_dynamic(model, {nn.Linear: torch.quantization.default_dynamic_qconfig})
print([m._get_name() for m in qd])
m2 = nn.Sequential(nn.Linear(3, 2))
r = torch.quantization.quantize_dynamic(m2, inplace=True)
print(r is m2, m2)
# size: int8 weights are a quarter of float32's
fbytes = sum(p.numel() * 4 for n, p in model.named_parameters() if n.endswith("weight"))
qbytes = sum(q[i].weight().int_repr().numel() for i in (0, 2, 5)) + \
    q[3].fc.weight().int_repr().numel() + model[4].weight.numel() * 4
print("weight bytes", fbytes, qbytes)
print(torch.quantize_per_tensor(torch.tensor([-1.0, 0.0, 0.26, 300.0]), 0.5, 3, torch.quint8))

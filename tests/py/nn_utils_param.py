# torch.nn.utils: parametrize, parametrizations.spectral_norm, weight_norm,
# spectral_norm (hooks), fusion, skip_init, stateless.functional_call:
# values, gradients, state_dict keys and errors equal PyTorch's.
import copy

import torch
from torch import nn
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations, stateless


def r(t, n=5):
    return [round(v, n) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(0, 1)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def forward(self, X):
        return X * self.s

    def right_inverse(self, A):
        return A / self.s


class Flat(nn.Module):
    def forward(self, X):
        return X.reshape(-1)


class ToFloat64(nn.Module):
    def forward(self, X):
        return X.double()


class Sum2(nn.Module):  # parametrized by two tensors
    def forward(self, A, B):
        return A + B

    def right_inverse(self, X):
        return X / 2, X / 2


torch.manual_seed(0)
m = nn.Linear(3, 3).double()
P.register_parametrization(m, "weight", Symmetric())
print(type(m).__name__, P.is_parametrized(m), P.is_parametrized(m, "weight"),
      P.is_parametrized(m, "bias"), P.type_before_parametrizations(m).__name__)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters()])
w = m.weight
print("symmetric", torch.equal(w, w.T), r(w))
x = torch.randn(2, 3, dtype=torch.float64)
m(x).pow(2).sum().backward()
print("grad original", r(m.parametrizations.weight.original.grad))
P.register_parametrization(m, "weight", Scale(2.0))
print("chained", r(m.weight))
with torch.no_grad():
    m.weight = torch.eye(3, dtype=torch.float64) * 4
print("assigned", r(m.weight), r(m.parametrizations.weight.original))
print(m)
with P.cached():
    a, b = m.weight, m.weight
    print("cached same object", a is b)
print("uncached new object", m.weight is not m.weight)
P.remove_parametrizations(m, "weight")
print(type(m).__name__, list(m.state_dict().keys()), r(m.weight))
print(type(m.weight).__name__)

m2 = nn.Linear(2, 2).double()
P.register_parametrization(m2, "bias", Sum2())
print(list(m2.state_dict().keys()), r(m2.bias), r(m2.parametrizations.bias.original0))
P.remove_parametrizations(m2, "bias")
print(list(m2.state_dict().keys()))
for bad in (lambda: P.register_parametrization(nn.Linear(2, 2), "nope", Symmetric()),
            lambda: P.remove_parametrizations(nn.Linear(2, 2), "weight"),
            lambda: P.register_parametrization(nn.Linear(2, 3), "weight", Flat()),
            lambda: P.register_parametrization(nn.Linear(2, 3), "weight", ToFloat64())):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, str(e).splitlines()[0])

# spectral_norm as a parametrization: seeded u/v, power iteration in train
torch.manual_seed(1)
sn = parametrizations.spectral_norm(nn.Linear(5, 4).double())
print(list(sn.state_dict().keys()))
x = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
out = sn(x)
out.sum().backward()
print("sn out", r(out), "grad", r(x.grad), r(sn.parametrizations.weight.original.grad))
print("u", r(sn.parametrizations.weight[0]._u))
sn.eval()
print("eval", r(sn(x)))
torch.manual_seed(2)
sn1 = parametrizations.spectral_norm(nn.Linear(4, 3).double(), name="bias")
print("bias normalized", r(sn1.bias))

# weight_norm
torch.manual_seed(3)
wn = nn.utils.weight_norm(nn.Linear(4, 3).double())
print(list(wn.state_dict().keys()), r(wn.weight_g), tuple(wn.weight_g.shape))
x = torch.randn(2, 4, dtype=torch.float64)
wn(x).pow(2).sum().backward()
print("wn grads", r(wn.weight_g.grad), r(wn.weight_v.grad))
wn0 = nn.utils.weight_norm(nn.Linear(4, 3).double(), dim=None)
print("dim=None g", tuple(wn0.weight_g.shape), r(wn0.weight_g))
wn1 = nn.utils.weight_norm(nn.Linear(4, 3).double(), dim=1)
print("dim=1 g", tuple(wn1.weight_g.shape))
try:
    nn.utils.weight_norm(wn)
except RuntimeError as e:
    print("RuntimeError", e)
nn.utils.remove_weight_norm(wn)
print(list(wn.state_dict().keys()), type(wn.weight).__name__)
try:
    nn.utils.remove_weight_norm(wn)
except ValueError as e:
    print("ValueError", str(e).splitlines()[0])

# spectral_norm (hooks)
torch.manual_seed(4)
hs = nn.utils.spectral_norm(nn.Linear(5, 3).double())
print(list(hs.state_dict().keys()))
x = torch.randn(2, 5, dtype=torch.float64)
for _ in range(3):
    y = hs(x)
print("hook sn", r(y), r(hs.weight_u), r(hs.weight_v))
y.sum().backward()
print("hook sn grad", r(hs.weight_orig.grad))
sd = hs.state_dict()
print("metadata", sd._metadata[""].get("spectral_norm"))
hs2 = nn.utils.spectral_norm(nn.Linear(5, 3).double())
hs2.load_state_dict(sd)
hs2.eval()
hs.eval()
print("reloaded equal", torch.equal(hs2(x), hs(x)))
nn.utils.remove_spectral_norm(hs)
print(list(hs.state_dict().keys()))

# fusion
torch.manual_seed(5)
lin, bn = nn.Linear(3, 4).double().eval(), nn.BatchNorm1d(4).double()
bn.running_mean.normal_()
bn.running_var.uniform_(0.5, 2)
bn.weight.data.normal_()
bn.eval()
fused = nn.utils.fusion.fuse_linear_bn_eval(lin, bn)
x = torch.randn(2, 3, dtype=torch.float64)
print("fused linear", torch.allclose(fused(x), bn(lin(x))), r(fused.bias))
w, b = nn.utils.fuse_conv_bn_weights(torch.randn(4, 2, 3, dtype=torch.float64), None,
                                     bn.running_mean, bn.running_var, 1e-5, bn.weight,
                                     bn.bias)
print("fused conv weights", tuple(w.shape), r(b))

# skip_init, functional_call, memory format
torch.manual_seed(6)
s = nn.utils.skip_init(nn.Linear, 3, 2)
print(type(s).__name__, tuple(s.weight.shape))
try:
    nn.utils.skip_init(nn.ReLU)
except RuntimeError as e:
    print("RuntimeError", e)
lin = nn.Linear(3, 2).double()
x = torch.randn(4, 3, dtype=torch.float64)
new = {"weight": torch.ones(2, 3, dtype=torch.float64), "bias": torch.zeros(2, dtype=torch.float64)}
print("functional_call", r(stateless.functional_call(lin, new, (x,))),
      torch.equal(lin(x), lin(x)), type(lin.weight).__name__)
seq = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)).double()
out = stateless.functional_call(seq, {"1.running_mean": torch.ones(3, dtype=torch.float64)}, x)
print("nested buffer", r(seq[1].running_mean))
print(nn.utils.convert_conv2d_weight_memory_format(lin, None) is lin)
print(copy.deepcopy(parametrizations.spectral_norm(nn.Linear(2, 2))).__class__.__name__)

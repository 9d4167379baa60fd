# Lazy modules: LazyLinear takes in_features from its first input and
# becomes a Linear, drawing its initial values as PyTorch does; a state_dict
# loads into an uninitialized one; UninitializedParameter's errors and repr.
import copy
import warnings

import torch
from torch import nn
from torch.nn.parameter import UninitializedParameter, UninitializedBuffer

warnings.simplefilter("ignore")


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


torch.manual_seed(0)
m = nn.LazyLinear(3)
print(type(m).__name__, m, m.has_uninitialized_params())
print(repr(m.weight), isinstance(m.weight, UninitializedParameter),
      isinstance(m.weight, nn.Parameter))
try:
    m.weight.shape
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
x = torch.randn(2, 4)
y = m(x)
print(type(m).__name__, m, type(m.weight).__name__, tuple(m.weight.shape))
print(r(m.weight), r(m.bias), r(y))
y.sum().backward()
print(r(m.weight.grad))

# dtype set before the first forward is kept
m64 = nn.LazyLinear(2, bias=False).double()
print(m64(torch.randn(3, 5, dtype=torch.float64)).dtype, m64.bias, m64.in_features)

# load_state_dict materializes
src = nn.Linear(6, 2)
lz = nn.LazyLinear(2)
lz.load_state_dict(src.state_dict())
print(type(lz).__name__, tuple(lz.weight.shape), torch.equal(lz.weight, src.weight))
x = torch.randn(1, 6)
print(torch.equal(lz(x), src(x)), type(lz).__name__)

# inside a Sequential, and a deep copy before initialization
torch.manual_seed(1)
seq = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
seq2 = copy.deepcopy(seq)
print(seq(torch.randn(5, 3)).shape, [type(s).__name__ for s in seq])
print(sum(p.numel() for p in seq.parameters()), type(seq2[0]).__name__)
print(type(UninitializedBuffer()).__name__, repr(UninitializedBuffer()))

# lazy norms: num_features from the first input, then the eager class
for cls, shape in ((nn.LazyBatchNorm1d, (4, 3)), (nn.LazyBatchNorm2d, (2, 3, 2, 2)),
                   (nn.LazyBatchNorm3d, (2, 3, 2, 2, 1)), (nn.LazyInstanceNorm1d, (2, 3, 4)),
                   (nn.LazyInstanceNorm2d, (2, 3, 2, 2)),
                   (nn.LazyInstanceNorm3d, (2, 3, 2, 2, 2))):
    torch.manual_seed(2)
    kw = {"affine": True, "track_running_stats": True} if "Instance" in cls.__name__ else {}
    m = cls(**kw).double()
    print(cls.__name__, m, list(m.state_dict().keys()), m.has_uninitialized_params())
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    y = m(x)
    (y * torch.arange(y.numel()).view(y.shape).cos()).sum().backward()
    print("  ", type(m).__name__, m, r(y)[:6], r(x.grad)[:6], r(m.running_mean),
          r(m.weight.grad), int(m.num_batches_tracked))
m = nn.LazyBatchNorm1d(affine=False, track_running_stats=False)
print(m(torch.randn(5, 2)).shape, type(m).__name__, list(m.state_dict().keys()))
lz = nn.LazyBatchNorm2d()
lz.load_state_dict(nn.BatchNorm2d(4).state_dict())
print(type(lz).__name__, tuple(lz.running_var.shape))

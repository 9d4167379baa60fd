# out= on the functions nndb writes in Python that PyTorch gives an out=
# overload (addmm, baddbmm, cummax, mode, aminmax, torch.linalg.*, F.gelu,
# ...): accepted, written, the out itself or torch.return_types.NAME_out
# returned, PyTorch's dtype checks and resize warning. And the Tensor
# methods, which take no out= in PyTorch: refused with its TypeError where
# nndb used to write it. tests/opinfo/out.sh covers every OpInfo function;
# this file shows the printed results, messages included.
import warnings

import torch
import torch.nn.functional as F

warnings.simplefilter("always")
warnings.showwarning = lambda m, c, *a, **k: print("warning:", c.__name__, str(m)[:100])
torch.manual_seed(0)


def show(name, f):
    try:
        r = f()
    except Exception as e:
        print(name, type(e).__name__ + ":", str(e).split("\n")[0])
        return
    if isinstance(r, tuple):
        print(name, type(r).__module__ + "." + type(r).__name__, [(t.dtype, t.shape) for t in r])
        print(r)
    else:
        v = torch.view_as_real(r) if r.is_complex() else r
        v = v.round(decimals=4) if v.is_floating_point() else v
        print(name, r.dtype, r.shape, v.tolist())


x = torch.arange(9.0).reshape(3, 3) / 4 - 1
z = torch.empty(3, 3)
show("addmm", lambda: torch.addmm(x, x, x, out=z))
print("addmm is out", torch.addmm(x, x, x, out=z) is z, torch.equal(z, torch.addmm(x, x, x)))
show("addmm f64 out", lambda: torch.addmm(x, x, x, out=torch.empty(3, 3, dtype=torch.float64)))
show("addmm resized", lambda: torch.addmm(x, x, x, out=torch.empty(2)))
show("addmm empty", lambda: torch.addmm(x, x, x, out=torch.empty(0)))
b = torch.empty(1, 3, 3)
show("baddbmm", lambda: torch.baddbmm(x[None], x[None], x[None], out=b))
show("addmv", lambda: torch.addmv(x[0], x, x[1], out=torch.empty(3)))
show("vdot f64", lambda: torch.vdot(x[0], x[1], out=torch.empty((), dtype=torch.float64)))

i64 = torch.long
vals, idx = torch.empty(3, 3), torch.empty(3, 3, dtype=i64)
r = torch.cummax(x, 0, out=(vals, idx))
print("cummax", type(r).__name__, r.values is vals, r.indices is idx)
print(r)
show("cummin", lambda: torch.cummin(x, 1, out=(torch.empty(0), torch.empty(0, dtype=i64))))
show("cummax f64 values", lambda: torch.cummax(x, 0, out=(torch.empty(3, 3, dtype=torch.float64), idx)))
show("cummax one out", lambda: torch.cummax(x, 0, out=vals))
show("mode", lambda: torch.mode(torch.tensor([[1.0, 1, 2], [3, 3, 3]]), 1,
                                out=(torch.empty(2), torch.empty(2, dtype=i64))))
show("mode resized", lambda: torch.mode(torch.tensor([[1.0, 1, 2], [3, 3, 3]]), 1,
                                        out=(torch.empty(5), torch.empty(5, dtype=i64))))
show("aminmax", lambda: torch.aminmax(x, out=(torch.empty(()), torch.empty(()))))
show("aminmax dim", lambda: torch.aminmax(x, dim=0, out=(torch.empty(3), torch.empty(3))))
show("aminmax long min", lambda: torch.aminmax(x, out=(torch.empty((), dtype=i64), torch.empty(()))))
# functions OpInfo samples without a dim or not at all (PyTorch's docstrings
# list out= for them)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
show("nanmedian", lambda: torch.nanmedian(m, 0, out=(torch.empty(2), torch.empty(2, dtype=i64))))
show("nanmedian f64", lambda: torch.nanmedian(m, 0, out=(torch.empty(2, dtype=torch.float64),
                                                         torch.empty(2, dtype=i64))))
show("nanmedian no dim", lambda: torch.nanmedian(m, out=torch.empty(())))
show("matrix_power", lambda: torch.matrix_power(m, 2, out=torch.empty(2, 2)))
show("matrix_power f64", lambda: torch.matrix_power(m, 2, out=torch.empty(2, 2, dtype=torch.float64)))
show("matrix_power long", lambda: torch.matrix_power(m, 2, out=torch.empty(2, 2, dtype=i64)))
show("row_stack", lambda: torch.row_stack([m, m], out=torch.empty(4, 2, dtype=torch.float64)))
show("row_stack long", lambda: torch.row_stack([m, m], out=torch.empty(4, 2, dtype=i64)))
show("frexp", lambda: torch.frexp(x[0], out=(torch.empty(3), torch.empty(3, dtype=torch.int32))))

# linear algebra: the out types of tuple results, the dtype rules
a = torch.tensor([[4.0, 1.0], [1.0, 3.0]])
show("linalg.eigh", lambda: torch.linalg.eigh(a, out=(torch.empty(2), torch.empty(2, 2))))
show("linalg.qr", lambda: torch.linalg.qr(a, out=(torch.empty(2, 2), torch.empty(2, 2))))
show("linalg.inv f64", lambda: torch.linalg.inv(a, out=torch.empty(2, 2, dtype=torch.float64)))
show("linalg.norm", lambda: torch.linalg.norm(a, out=torch.empty(())))
show("linalg.cross", lambda: torch.linalg.cross(x, x.flip(0), out=torch.empty(3, 3)))
show("special.expit", lambda: torch.special.expit(x[0], out=torch.empty(3)))
show("fft.rfft", lambda: torch.fft.rfft(x[0], out=torch.empty(2, dtype=torch.complex64)))

# torch.nn.functional's kernels with out=
show("F.gelu", lambda: F.gelu(x, out=torch.empty(3, 3)))
show("F.gelu f64", lambda: F.gelu(x, out=torch.empty(3, 3, dtype=torch.float64)))
show("F.softplus", lambda: F.softplus(x[0], out=torch.empty(3)))
show("F.linear vector", lambda: F.linear(x[0], x, out=torch.empty(3)))
show("F.linear vector [1, 3]", lambda: F.linear(x[0], x, out=torch.empty(1, 3)))
show("F.relu", lambda: F.relu(x, out=torch.empty(3, 3)))

# autograd: refused as for every out= call
w = torch.ones(3, 3, requires_grad=True)
show("addmm grad", lambda: torch.addmm(x, w, x, out=torch.empty(3, 3)))
with torch.no_grad():
    show("addmm no_grad", lambda: torch.addmm(x, w, x, out=torch.empty(3, 3)))

# the reductions without a dim have no out= overload
show("sum no dim", lambda: torch.sum(x, out=torch.empty(())))
show("sum dim", lambda: torch.sum(x, 0, out=torch.empty(3)))
show("mean no dim", lambda: torch.mean(x, out=torch.empty(())))
show("median no dim", lambda: torch.median(x, out=torch.empty(())))
show("broadcast_to", lambda: torch.broadcast_to(x[0], (2, 3), out=torch.empty(2, 3)))
show("reshape", lambda: torch.reshape(x, (9,), out=torch.empty(9)))

# factories: created in out's dtype; a dtype= given must be out's
show("ones", lambda: torch.ones(2, out=torch.empty(5, dtype=i64)))
show("ones dtype", lambda: torch.ones(2, dtype=torch.float32, out=torch.empty(2, dtype=i64)))
show("arange", lambda: torch.arange(0, 3, out=torch.empty(5)))

# Tensor methods: no out=. PyTorch's words: "add() got an unexpected keyword
# argument 'out'" for add, "Tensor.abs() takes no keyword arguments" for the
# methods without parameters, "sum() received an invalid combination of
# arguments ..." for the overloaded ones; nndb says the first, so only the
# exception's type is printed for those.
for name, f in [
    ("x.add", lambda: x.add(x, out=z)),
    ("x.mul", lambda: x.mul(2, out=z)),
    ("x.addmm", lambda: x.addmm(x, x, out=z)),
    ("x.matmul", lambda: x.matmul(x, out=z)),
    ("x.add_", lambda: x.clone().add_(x, out=z)),
    ("x.unsqueeze", lambda: x.unsqueeze(0, out=z)),
]:
    before = z.clone()
    show(name, f)
    print("  out untouched", torch.equal(before, z))
for name, f in [
    ("x.cummax", lambda: x.cummax(0, out=(vals, idx))),
    ("x.clamp", lambda: x.clamp(0, 1, out=z)),
    ("x.softmax", lambda: x.softmax(0, out=z)),
    ("x.sum", lambda: x.sum(0, out=torch.empty(3))),
    ("x.abs", lambda: x.abs(out=z)),
    ("x.exp_", lambda: x.clone().exp_(out=z)),
    ("x.clamp_", lambda: x.clone().clamp_(0, 1, out=z)),
]:
    before = z.clone()
    try:
        f()
        print(name, "accepted out=")
    except Exception as e:
        print(name, type(e).__name__)
    print("  out untouched", torch.equal(before, z))

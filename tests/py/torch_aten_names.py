"""ATen spellings of nn.functional (torch.rrelu, feature_dropout,
native_dropout, grid_sampler*, affine_grid_generator, ctc_loss,
embedding_renorm_, convolution, conv_tbc, norm_except_dim,
native_group_norm), set_default_tensor_type, is_anomaly_check_nan_enabled,
and Tensor.new: the same values, gradients, random draws
and errors as PyTorch 1.13."""
import torch
import torch.nn.functional as F


def show(name, t):
    if isinstance(t, (tuple, list)):
        for i, u in enumerate(t):
            show(f"{name}[{i}]", u)
        return
    # + 0.0: nndb's grid_sample gives 0.0 where PyTorch gives -0.0 out of bounds
    print(name, t.dtype, tuple(t.shape),
          [round(v, 4) + 0.0 for v in t.detach().double().flatten().tolist()[:12]],
          round(t.detach().double().sum().item(), 3))


def err(name, f):
    try:
        f()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__, str(e).splitlines()[0])


torch.manual_seed(0)
x = torch.randn(3, 4, 5)
show("rrelu eval", torch.rrelu(x))
show("rrelu train", torch.rrelu(x, 0.1, 0.3, True))
g = torch.Generator().manual_seed(3)
show("rrelu gen", torch.rrelu(x, training=True, generator=g))
show("rrelu gen again", torch.rrelu(x, training=True, generator=g))
show("default stream untouched", torch.rand(3))
y = x.clone()
torch.rrelu_(y, training=True)
show("rrelu_", y)
xg = x.clone().requires_grad_()
torch.rrelu(xg, training=True).sum().backward()
show("rrelu grad", xg.grad)

for p in (0.0, 0.3, 1.0):
    show(f"feature_dropout {p}", torch.feature_dropout(x, p, True))
show("feature_dropout eval", torch.feature_dropout(x, 0.5, False))
y = x.clone()
torch.feature_dropout_(y, 0.4, True)
show("feature_dropout_", y)
show("feature_alpha_dropout", torch.feature_alpha_dropout(x, 0.4, True))
show("alpha_dropout", torch.alpha_dropout(x, 0.4, True))
err("feature_dropout 1-d", lambda: torch.feature_dropout(torch.ones(3), 0.5, True))
err("feature_dropout p", lambda: torch.feature_dropout(x, 1.5, True))
show("native_dropout", torch.native_dropout(x, 0.3, True))
show("native_dropout eval", torch.native_dropout(x, 0.3, False))

inp = torch.randn(2, 3, 5, 6, requires_grad=True)
grid = (torch.rand(2, 4, 4, 2) * 2.4 - 1.2).requires_grad_()
for mode in (0, 1, 2):
    for pad in (0, 1, 2):
        for ac in (False, True):
            out = torch.grid_sampler(inp, grid, mode, pad, ac)
            show(f"grid_sampler {mode} {pad} {ac}", out)
out = torch.grid_sampler_2d(inp, grid, 0, 0, False)
out.pow(2).sum().backward()
show("grid_sampler_2d grad input", inp.grad)
show("grid_sampler_2d grad grid", grid.grad)
inp3 = torch.randn(1, 2, 3, 4, 5)
grid3 = torch.rand(1, 2, 3, 2, 3) * 2 - 1
show("grid_sampler_3d", torch.grid_sampler_3d(inp3, grid3, 0, 1, True))
err("grid_sampler_2d 5-d", lambda: torch.grid_sampler_2d(inp3, grid3, 0, 0, False))
theta = torch.randn(2, 2, 3)
show("affine_grid_generator", torch.affine_grid_generator(theta, [2, 3, 4, 5], False))

T, C, N, S = 12, 5, 3, 4
log_probs = torch.randn(T, N, C).log_softmax(2).requires_grad_()
targets = torch.randint(1, C, (N, S), dtype=torch.long)
for red in (0, 1, 2):
    show(f"ctc_loss {red}", torch.ctc_loss(log_probs, targets, [12, 10, 8], [4, 3, 2], 0, red,
                                            False))
torch.ctc_loss(log_probs, targets, torch.tensor([12, 10, 8]), torch.tensor([4, 3, 2])).sum().backward()
show("ctc_loss grad", log_probs.grad)

w = torch.randn(6, 4) * 3
with torch.no_grad():
    torch.embedding_renorm_(w, torch.tensor([[4, 1], [1, 0]]), 2.0, 2.0)
show("embedding_renorm_", w)
w = torch.randn(6, 4) * 3
torch.embedding_renorm_(w, torch.tensor([5, 2, 2]), 1.5, 1.0)
show("embedding_renorm_ l1", w)

inp = torch.randn(2, 4, 9, 8)
wt = torch.randn(6, 2, 3, 3)
b = torch.randn(6)
show("convolution", torch.convolution(inp, wt, b, [2, 1], [1, 0], [1, 2], False, [0, 0], 2))
wt_t = torch.randn(4, 3, 3, 3)
show("convolution transposed", torch.convolution(inp, wt_t, None, [2, 2], [1, 1], [1, 1], True,
                                                 [1, 0], 1))
show("convolution 1d", torch.convolution(torch.randn(2, 3, 10), torch.randn(5, 3, 4), None, [1],
                                         [2], [1], False, [0], 1))
tbc_in, tbc_w, tbc_b = torch.randn(7, 2, 3), torch.randn(3, 3, 5), torch.randn(5)
show("conv_tbc", torch.conv_tbc(tbc_in, tbc_w, tbc_b, 1))

v = torch.randn(3, 4, 5)
for dim in (-1, 0, 1, 2):
    show(f"norm_except_dim {dim}", torch.norm_except_dim(v, 2, dim))
show("norm_except_dim p3", torch.norm_except_dim(v, 3, 0))

gi = torch.randn(2, 6, 4)
gw, gb = torch.randn(6), torch.randn(6)
show("native_group_norm", torch.native_group_norm(gi, gw, gb, 2, 6, 4, 3, 1e-5))
show("native_group_norm no affine", torch.native_group_norm(gi, None, None, 2, 6, 4, 2, 1e-5))

print(torch.is_anomaly_check_nan_enabled())
with torch.autograd.detect_anomaly(check_nan=False):
    print(torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_check_nan_enabled())

torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.get_default_dtype(), torch.tensor([1.5]).dtype)
torch.set_default_tensor_type("torch.FloatTensor")
print(torch.get_default_dtype())
err("set_default_tensor_type long", lambda: torch.set_default_tensor_type(torch.LongTensor))

a = torch.randn(2, 3, dtype=torch.float64)
for args in ((), (2, 3), (torch.Size([4]),), ([1, 2],), ((2, 3),)):
    n = a.new(*args)
    print("new", args, n.dtype, tuple(n.shape), n.tolist() if args and type(args[0]) in (list, tuple) else "")
print(a.new(a).dtype, torch.equal(a.new(a), a))
err("new other dtype", lambda: a.new(torch.ones(2)))

# batch_norm_update_stats: (mean, biased var), running stats moved in place
bx = torch.randn(4, 3, 5)
rm, rv = torch.randn(3), torch.rand(3)
show("batch_norm_update_stats", torch.batch_norm_update_stats(bx, rm, rv, 0.1))
show("  running", (rm, rv))
show("batch_norm_update_stats none", torch.batch_norm_update_stats(bx.double(), None, None, 0.3))

# from_file: raw native-order values
import struct
with open("from_file.bin", "wb") as f:
    f.write(struct.pack("<5f", 1.5, 2, 3, 4, 5.25))
print(torch.from_file("from_file.bin", size=3, dtype=torch.float32))
print(torch.from_file("from_file.bin", False, 5), torch.from_file("from_file.bin", size=0))
print(torch.from_file("from_file.bin", size=2, dtype=torch.float64))
err("from_file short", lambda: torch.from_file("from_file.bin", size=7))
err("from_file missing", lambda: torch.from_file("no_such_file.bin", size=2))

z = torch.tensor([1.5 + 2j, -1 - 0.5j])
r = torch.view_as_real_copy(z)
print(r, torch.view_as_complex_copy(r))

# deprecated: volatile (always False, with a warning), reinforce (removed)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    t = torch.ones(2)
    print(t.volatile)
    t.volatile = True
    print(t.volatile, [str(m.message) for m in w])
try:
    t.reinforce(1.0)
except RuntimeError as e:
    print(repr(str(e)))

# as_subclass: the same data as an instance of the subclass, on the graph
class Sub(torch.Tensor):
    pass


xs = torch.ones(2, requires_grad=True)
ys = xs.as_subclass(Sub)
print(type(ys).__name__, ys.grad_fn.name(), ys.requires_grad)
(ys * 3).sum().backward()
print(xs.grad)
zs = torch.arange(3.0).as_subclass(Sub)
zs[0] = 7.0
print(type(zs).__name__, zs.requires_grad, zs.grad_fn, zs.tolist())
base = torch.zeros(2)
base.as_subclass(Sub).add_(1.0)
print(base)
err("as_subclass int", lambda: xs.as_subclass(int))

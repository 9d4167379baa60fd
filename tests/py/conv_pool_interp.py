# pooling (max with indices, ceil_mode, dilation; avg with count_include_pad
# and divisor_override; adaptive; lp), unfold/fold, shuffles, instance and
# local response norm, padding modes, interpolate in every mode, affine_grid
# and grid_sample: values, grad_fn names and float64 gradcheck against PyTorch.
import warnings
import torch
import torch.nn.functional as F

warnings.simplefilter("ignore")
torch.manual_seed(0)
gc = torch.autograd.gradcheck
x = torch.randn(2, 3, 7, 8, dtype=torch.float64, requires_grad=True)
x1 = torch.randn(2, 3, 9, dtype=torch.float64, requires_grad=True)
x3 = torch.randn(1, 2, 5, 6, 5, dtype=torch.float64, requires_grad=True)


def show(name, y):
    if isinstance(y, tuple):
        print(name, tuple(y[0].shape), round(y[0].sum().item(), 8), y[1].flatten()[:12].tolist(),
              y[0].grad_fn.name())
    else:
        print(name, tuple(y.shape), round(y.sum().item(), 8) + 0.0,
              y.grad_fn.name() if name != "cs" else None)


theta = torch.tensor([[[0.9, 0.2, 0.1], [-0.1, 0.8, 0.05]]] * 2, dtype=torch.float64)
theta2 = torch.tensor([[[1.5, 0.2, 0.1], [-0.1, 1.3, 0.05]]] * 2, dtype=torch.float64)
cases = [
    ("mp2", lambda a: F.max_pool2d(a, 2), x),
    ("mp2s", lambda a: F.max_pool2d(a, 3, stride=2, padding=1), x),
    ("mp2c", lambda a: F.max_pool2d(a, 3, stride=2, ceil_mode=True), x),
    ("mp2d", lambda a: F.max_pool2d(a, 2, dilation=2), x),
    ("mp2i", lambda a: F.max_pool2d(a, (2, 3), return_indices=True), x),
    ("mp1", lambda a: F.max_pool1d(a, 3, stride=2, padding=1), x1),
    ("mp1i", lambda a: F.max_pool1d(a, 2, return_indices=True), x1),
    ("mp3", lambda a: F.max_pool3d(a, 2, ceil_mode=True), x3),
    ("mpu", lambda a: F.max_pool2d(a[0], 2), x),
    ("apu", lambda a: F.avg_pool2d(a[0], 2), x),
    ("aapu", lambda a: F.adaptive_max_pool2d(a[0], 2), x),
    ("ap2", lambda a: F.avg_pool2d(a, 3, stride=2, padding=1), x),
    ("ap2n", lambda a: F.avg_pool2d(a, 3, stride=2, padding=1, count_include_pad=False), x),
    ("ap2c", lambda a: F.avg_pool2d(a, 3, stride=2, padding=1, ceil_mode=True), x),
    ("ap2cn", lambda a: F.avg_pool2d(a, 3, stride=2, padding=1, ceil_mode=True,
                                     count_include_pad=False), x),
    ("ap2d", lambda a: F.avg_pool2d(a, 2, divisor_override=3), x),
    ("ap1", lambda a: F.avg_pool1d(a, 3, stride=2, padding=1), x1),
    ("ap3", lambda a: F.avg_pool3d(a, (2, 3, 2), padding=1), x3),
    ("aap2", lambda a: F.adaptive_avg_pool2d(a, (3, 5)), x),
    ("aap2n", lambda a: F.adaptive_avg_pool2d(a, (None, 3)), x),
    ("aap1", lambda a: F.adaptive_avg_pool1d(a, 4), x1),
    ("aap3", lambda a: F.adaptive_avg_pool3d(a, (2, 4, 3)), x3),
    ("aap2_1", lambda a: F.adaptive_avg_pool2d(a, 1), x),
    ("amp2", lambda a: F.adaptive_max_pool2d(a, (3, 5)), x),
    ("amp2i", lambda a: F.adaptive_max_pool2d(a, (3, 5), return_indices=True), x),
    ("amp1", lambda a: F.adaptive_max_pool1d(a, 4), x1),
    ("amp3", lambda a: F.adaptive_max_pool3d(a, 2), x3),
    ("lp2", lambda a: F.lp_pool2d(a, 2, 2), x),
    ("lp1", lambda a: F.lp_pool1d(a.abs() + 0.1, 3, 3), x1),
    ("unf", lambda a: F.unfold(a, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), x),
    ("fold", lambda a: F.fold(F.unfold(a, 2, stride=2), (7, 8), 2, stride=2), x),
    ("foldov", lambda a: F.fold(F.unfold(a, 3, padding=1), (7, 8), 3, padding=1), x),
    ("ps", lambda a: F.pixel_shuffle(a.reshape(2, 12, 7, 2), 2), x),
    ("pus", lambda a: F.pixel_unshuffle(a[:, :, :6, :], 2), x),
    ("cs", lambda a: F.channel_shuffle(a.reshape(2, 6, 7, 4), 3), x),
    ("in", lambda a: F.instance_norm(a), x),
    ("gn", lambda a: F.group_norm(a.reshape(2, 6, 7, 4), 3), x),
    ("lrn", lambda a: F.local_response_norm(a, 2), x),
    ("lrn3", lambda a: F.local_response_norm(a[:, :, 0], 3), x),
    ("pr", lambda a: F.pad(a, (1, 2, 2, 1), mode="reflect"), x),
    ("prep", lambda a: F.pad(a, (1, 2, 2, 1), mode="replicate"), x),
    ("pc", lambda a: F.pad(a, (1, 2, 2, 1), mode="circular"), x),
    ("pr1", lambda a: F.pad(a, (3, 2), mode="reflect"), x1),
    ("pr3", lambda a: F.pad(a, (1, 1, 1, 1, 1, 1), mode="replicate"), x3),
    ("near", lambda a: F.interpolate(a, scale_factor=2), x),
    ("near2", lambda a: F.interpolate(a, size=(5, 13)), x),
    ("nearx", lambda a: F.interpolate(a, size=(5, 13), mode="nearest-exact"), x),
    ("nearsf", lambda a: F.interpolate(a, scale_factor=1.7), x),
    ("lin", lambda a: F.interpolate(a, size=13, mode="linear"), x1),
    ("linac", lambda a: F.interpolate(a, size=13, mode="linear", align_corners=True), x1),
    ("bil", lambda a: F.interpolate(a, size=(5, 13), mode="bilinear"), x),
    ("bilsf", lambda a: F.interpolate(a, scale_factor=1.5, mode="bilinear"), x),
    ("bilac", lambda a: F.interpolate(a, size=(11, 3), mode="bilinear", align_corners=True), x),
    ("bic", lambda a: F.interpolate(a, size=(11, 13), mode="bicubic"), x),
    ("bicac", lambda a: F.interpolate(a, size=(5, 13), mode="bicubic", align_corners=True), x),
    ("tri", lambda a: F.interpolate(a, size=(7, 3, 8), mode="trilinear"), x3),
    ("area", lambda a: F.interpolate(a, size=(3, 5), mode="area"), x),
    ("area1", lambda a: F.interpolate(a, scale_factor=0.5, mode="area"), x1),
    ("near3", lambda a: F.interpolate(a, scale_factor=(2, 1, 3)), x3),
    ("ag", lambda a: F.grid_sample(a, F.affine_grid(theta, (2, 3, 5, 4))), x),
    ("agac", lambda a: F.grid_sample(a, F.affine_grid(theta2, (2, 3, 5, 4), align_corners=True),
                                     padding_mode="border", align_corners=True), x),
    ("agr", lambda a: F.grid_sample(a, F.affine_grid(theta2, (2, 3, 5, 4), align_corners=False),
                                    padding_mode="reflection", align_corners=False), x),
    ("agn", lambda a: F.grid_sample(a, F.affine_grid(theta2, (2, 3, 5, 4), align_corners=False),
                                    mode="nearest", align_corners=False), x),
]
for name, f, a in cases:
    y = f(a)
    show(name, y)
    ff = (lambda t: f(t)[0]) if isinstance(y, tuple) else f
    if name not in ("agn", "cs"):
        print(gc(ff, (a,)))

xf = torch.randn(1, 2, 4, 5)
# float32 bicubic differs from ATen's by about 1e-6 (ATen's is the less exact one)
print(F.interpolate(xf.double(), size=(7, 9), mode="bicubic"))
print(F.interpolate(xf, scale_factor=1.3, mode="bilinear"))
print(F.interpolate(xf, size=(7, 9), mode="bilinear", align_corners=True))
print(F.interpolate(xf, size=(3, 8), mode="nearest-exact"))
print(F.max_pool2d(xf, 2, return_indices=True))
print(F.max_unpool2d(*F.max_pool2d(xf, 2, return_indices=True), 2, output_size=(4, 5)))
print(F.max_unpool1d(*F.max_pool1d(xf[0], 2, return_indices=True), 2))
print(F.affine_grid(theta.float(), (2, 3, 2, 3), align_corners=False)[0])
# NaN propagates through max pooling, as in PyTorch
xn = xf.clone()
xn[0, 0, 1, 1] = float("nan")
print(F.max_pool2d(xn, 2)[0, 0])


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


err(lambda: F.max_pool2d(torch.randn(1, 3, 2, 2), 3))
err(lambda: F.max_pool2d(torch.randn(1, 3, 5, 5), 3, padding=2))
err(lambda: F.avg_pool2d(torch.randn(1, 3, 2, 2), 3))
err(lambda: F.max_pool2d(torch.randn(3), 2))
err(lambda: F.adaptive_avg_pool2d(torch.randn(3), 2))
err(lambda: F.unfold(torch.randn(1, 2, 2, 2), 3))
err(lambda: F.pixel_shuffle(torch.randn(1, 3, 2, 2), 2))
err(lambda: F.interpolate(torch.randn(1, 1, 4), scale_factor=2, mode="bilinear"))
err(lambda: F.interpolate(torch.randn(1, 1, 4, 4), size=3, scale_factor=2))
err(lambda: F.interpolate(torch.randn(1, 1, 4, 4), size=3, align_corners=True))
err(lambda: F.pad(torch.randn(1, 1, 3, 3), (3, 3, 3, 3), mode="reflect"))
err(lambda: F.local_response_norm(torch.randn(3, 4), 2))
err(lambda: F.channel_shuffle(torch.randn(1, 5, 2, 2), 2))
# fractional max pooling: torch's draws, ATen's intervals
torch.manual_seed(3)
xr = torch.randn(2, 3, 9, 10, requires_grad=True)
v, i = F.fractional_max_pool2d(xr, 3, output_size=(4, 5), return_indices=True)
print(v[1, 2], i[1, 2])
v.sum().backward()
print(xr.grad[0, 0])
print(torch.nn.FractionalMaxPool2d(2, output_ratio=0.5)(xr).shape)
print(F.fractional_max_pool3d(torch.randn(1, 2, 6, 7, 8), 2, output_ratio=(0.5, 0.5, 0.7)).sum())
# grid_sample bicubic and 3-D
g = F.affine_grid(theta2, (2, 3, 5, 4), align_corners=False)
print(F.grid_sample(x, g, mode="bicubic", align_corners=False)[0, 0].detach())
v3 = torch.randn(1, 2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
t3 = torch.tensor([[[0.9, 0.1, 0.0, 0.1], [0.0, 1.1, 0.2, -0.1], [0.1, 0.0, 0.8, 0.05]]],
                  dtype=torch.float64)
g3 = F.affine_grid(t3, (1, 2, 2, 3, 4), align_corners=False)
print(F.grid_sample(v3, g3, align_corners=False).sum().item(),
      gc(lambda a: F.grid_sample(a, g3, align_corners=False), (v3,)))

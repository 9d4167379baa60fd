# F.interpolate(antialias=True), bilinear and bicubic, against PyTorch 1.13:
# downsampling (the filter stretched), upsampling, sizes and scale factors,
# align_corners, float32 and float64, the gradient, and the errors.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def show(t, digits=5):
    return " ".join(f"{v:.{digits}f}" for v in t.flatten().tolist())


x32 = torch.rand(2, 3, 17, 13) * 4 - 1
for mode in ("bilinear", "bicubic"):
    for kw in ({"size": (5, 4)}, {"size": (30, 7)}, {"size": (17, 6)}, {"scale_factor": 0.37},
               {"scale_factor": (1.6, 0.5)}, {"size": (8, 9), "align_corners": True},
               {"size": (1, 1)}, {"size": (17, 13)}):
        # float64 to 8 decimals; float32 within 1e-5 of the float64 result
        # (ATen's float32 weights round differently: its values stray up to
        # ~5 ulp from the exact ones, nndb's by fewer, so the digits differ)
        y64 = F.interpolate(x32.double(), mode=mode, antialias=True, **kw)
        y32 = F.interpolate(x32, mode=mode, antialias=True, **kw)
        print(mode, kw, tuple(y64.shape), f"{y64.sum().item():.6f}", show(y64[1, 2, :2], 8))
        print("  max", f"{y64.abs().max().item():.10f}", f"{y64[0, 0].sum().item():.10f}",
              "float32", y32.dtype, f"{y32.sum().item():.2f}",
              bool((y32.double() - y64).abs().max() < 1e-5))

# the gradient (the adjoint of the weights), checked against PyTorch's and by gradcheck
x = (torch.rand(1, 2, 11, 9, dtype=torch.float64) - 0.5).requires_grad_()
for mode in ("bilinear", "bicubic"):
    y = F.interpolate(x, size=(4, 5), mode=mode, antialias=True)
    g = torch.arange(y.numel(), dtype=torch.float64).reshape(y.shape) / 10
    (gx,) = torch.autograd.grad((y * g).sum(), x)
    print(mode, "grad", f"{gx.sum().item():.8f}", show(gx[0, 1, 3]))
    print(mode, "gradcheck", torch.autograd.gradcheck(
        lambda t: F.interpolate(t, size=(6, 3), mode=mode, antialias=True), (x,)))

for bad in ({"mode": "nearest"}, {"mode": "bilinear", "x": torch.rand(1, 1, 4)}):
    try:
        F.interpolate(bad.get("x", torch.rand(1, 1, 4, 4)), size=2, mode=bad["mode"],
                      antialias=True)
    except (ValueError, RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)

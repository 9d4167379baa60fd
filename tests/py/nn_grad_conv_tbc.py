# torch.nn.grad (convolution gradients from the output's gradient),
# F.conv_tbc and the lazy norms' neighbours: values equal PyTorch's.
import torch
import torch.nn.functional as F


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


torch.manual_seed(0)
for nd, conv in ((1, F.conv1d), (2, F.conv2d), (3, F.conv3d)):
    x = torch.randn(2, 4, *([5] * nd), dtype=torch.float64, requires_grad=True)
    w = torch.randn(6, 2, *([3] * nd), dtype=torch.float64, requires_grad=True)
    kw = dict(stride=2, padding=1, dilation=1, groups=2)
    out = conv(x, w, None, **kw)
    go = torch.randn(out.shape, dtype=torch.float64)
    gx, gw = torch.autograd.grad(out, (x, w), go)
    fi = getattr(torch.nn.grad, f"conv{nd}d_input")(x.shape, w, go, **kw)
    fw = getattr(F.grad, f"conv{nd}d_weight")(x, w.shape, go, **kw)
    print(nd, tuple(fi.shape), tuple(fw.shape), torch.allclose(fi, gx), torch.allclose(fw, gw),
          r(fi)[:5], r(fw)[:5])
x = torch.randn(7, 2, 3, dtype=torch.float64)
w = torch.randn(3, 3, 4, dtype=torch.float64)
b = torch.randn(4, dtype=torch.float64)
for pad in (0, 1, 2):
    y = F.conv_tbc(x, w, b, pad)
    print("conv_tbc", pad, tuple(y.shape), r(y)[:8])
print(F.GRID_SAMPLE_INTERPOLATION_MODES, F.GRID_SAMPLE_PADDING_MODES, F.utils._pair(3))

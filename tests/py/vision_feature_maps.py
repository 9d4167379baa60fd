"""activations() on a CNN: besides its table, example 0's feature maps of
each layer with an [N, C, H, W] output (the first 16 channels, each
stretched to its own range) as pictures; report.feature_maps holds them.
PyTorch has no activations(): under /usr/bin/python3 the grids are
computed here from the layers' outputs, and both must print the same."""
import numpy as np
import torch
import torch.nn as nn

try:
    from nndb.instruments import activations
except ImportError:
    activations = None

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 20, 3, padding=1), nn.BatchNorm2d(20), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(20, 3, 3), nn.Flatten(), nn.Linear(3 * 12 * 12, 10))
x = torch.randn(4, 1, 28, 28)


def expected_grid(t):
    """show_images' layout of example 0's first 16 channels, each min-max stretched."""
    m = t[0, :16].detach().double().numpy()
    lo = m.min(axis=(1, 2), keepdims=True)
    span = np.maximum(m.max(axis=(1, 2), keepdims=True) - lo, 1e-12)
    a = (np.clip((m - lo) / span, 0, 1) * 255 + 0.5).astype(np.uint8)
    n, h, w = a.shape
    s = max(1, min(8, 96 // max(h, w)))
    a = a.repeat(s, axis=1).repeat(s, axis=2)
    cols = min(8, n)
    rows = -(-n // cols)
    H, W = a.shape[1:]
    g = np.full((rows * (H + 2) + 2, cols * (W + 2) + 2), 255, np.uint8)
    for k in range(n):
        r, q = divmod(k, cols)
        g[2 + r * (H + 2):2 + r * (H + 2) + H, 2 + q * (W + 2):2 + q * (W + 2) + W] = a[k]
    return g


outs = {}
hooks = [m.register_forward_hook(lambda mod, i, o, k=k: outs.__setitem__(f"net.{k}", o))
         for k, m in enumerate(net)]
with torch.no_grad():
    net(x)
for h in hooks:
    h.remove()
want = {k: expected_grid(v) for k, v in outs.items() if v.dim() == 4}
if activations is not None:
    report = activations(net, x)
    got = {k: g.array[..., 0] for k, g in report.feature_maps.items()}
    print("layers", list(got) == list(want), list(got))
    for k in want:
        # one grey level of rounding at most (the layers' float32 values may
        # differ from PyTorch's in the last bit)
        print(k, got[k].shape, int(np.abs(got[k].astype(int) - want[k].astype(int)).max()) <= 1)
    print("html pictures", report.html.count("<img"), "text line", "feature maps of example 0" in repr(report))
else:
    print("layers", True, list(want))
    for k, g in want.items():
        print(k, g.shape, True)
    print("html pictures", len(want), "text line", True)

"""Looking at images: matplotlib's imshow draws nndb tensors as it draws
PyTorch's, and nndb.show_images lays a batch out as torchvision's make_grid
does (same grid, checked pixel for pixel against torchvision 0.14 under
/usr/bin/python3, where show_images does not exist)."""
import hashlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

try:
    import nndb.images as images
except ImportError:
    images = None

torch.manual_seed(0)
x = torch.rand(3, 8, 10)
fig, ax = plt.subplots(1, 3)
shown = [ax[0].imshow(x[0], cmap="gray"), ax[1].imshow(x.permute(1, 2, 0)),
         ax[2].imshow((x * 255).to(torch.uint8).permute(1, 2, 0).numpy())]
for im in shown:
    a = im.get_array()
    print("imshow", a.shape, a.dtype, round(float(np.asarray(a, dtype=np.float64).sum()), 4))
fig.canvas.draw()
print("canvas", int(np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(np.int64).sum()))
plt.close(fig)


def digest(a):
    a = np.ascontiguousarray(a, dtype=np.uint8)
    return a.shape, int(a.astype(np.int64).sum()), hashlib.md5(a.tobytes()).hexdigest()[:12]


batch = (torch.rand(10, 1, 6, 5) * 255).to(torch.uint8)
rgb = (torch.rand(5, 3, 4, 7) * 255).to(torch.uint8)
for name, t, nrow, pad in (("gray", batch, 4, 2), ("rgb", rgb, 3, 1), ("one", rgb[0], 8, 2)):
    if images is not None:
        g = images.show_images(t, nrow=nrow, padding=pad, scale=1, show=False).array
        if g.shape[2] == 1:
            g = g[..., 0]
    else:
        from torchvision.utils import make_grid

        g = make_grid(t, nrow=nrow, padding=pad, pad_value=255)
        if t.dim() == 3:  # make_grid gives one image unpadded; show_images pads it
            g = torch.nn.functional.pad(g, (pad, pad, pad, pad), value=255)
        g = g.permute(1, 2, 0).numpy()
        if t.dim() == 4 and t.shape[1] == 1 or t.dim() == 3 and t.shape[0] == 1:
            g = g[..., 0]
    print(name, digest(g))

# The text form (nndb only; these are the lines it must print).
expected = ["<10 images 1x6x5 from shape [10, 1, 6, 5], 0..255>",
            "<4 images 1x5x5 from shape [4, 5, 5], stretched from [-1, 2] (4 channels shown as grey maps)>",
            "<1 image 3x4x4 from shape [4, 4, 3], 0..1 (read as channels-last [H, W, C])>",
            "<70 images 1x2x2 from shape [70, 1, 2, 2], 0..1; first 64 shown>"]
if images is not None:
    vals = torch.linspace(-1, 2, 100).reshape(4, 5, 5)
    got = [repr(images.show_images(batch, show=False)), repr(images.show_images(vals, show=False)),
           repr(images.show_images(torch.full((4, 4, 3), 0.5), show=False)),
           repr(images.show_images(torch.zeros(70, 1, 2, 2), show=False))]
    for e, g in zip(expected, got):
        print(g == e, g)
    png = images.show_images(batch, show=False).png
    print("png", png[:8] == b"\x89PNG\r\n\x1a\n")
    for bad in ("x", torch.zeros(2, 2, 2, 2, 2), torch.zeros(0, 3)):
        try:
            images.show_images(bad, show=False)
        except (TypeError, ValueError) as e:
            print(type(e).__name__)
else:
    for e in expected:
        print(True, e)
    print("png", True)
    print("TypeError\nValueError\nValueError")

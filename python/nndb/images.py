"""show_images(): look at image tensors in Jupyter (and, as text, anywhere).

A tensor or array of shape [H, W], [C, H, W] or [N, C, H, W] (C = 1 or 3,
or any C, shown as C grey feature maps) becomes one PNG grid, drawn with
Pillow (python3-pil): a display bundle with image/png for Jupyter and a
text line for the terminal and scripts. Small images are enlarged by an
integer factor (nearest pixels) so 28x28 digits are visible.

Values: uint8 is read as 0..255; float in [0, 1] as is; anything else is
stretched from its min to its max, and the text says so, which is itself
a hint (un-normalised pixels, or normalised ones, show their range).
"""

import base64
import io
import math

import torch

# NumPy and Pillow are imported when a picture is made, not with the
# prelude (a session's start imports this module).

__all__ = ["show_images", "show_feature_maps", "ImageGrid"]


class ImageGrid:
    """One picture of a batch of images: .png (bytes), .text, .array (HWC uint8)."""

    def __init__(self, array, text):
        self.array = array
        self.text = text
        self._png = None

    @property
    def png(self):
        if self._png is None:
            from PIL import Image

            a = self.array
            img = Image.fromarray(a[..., 0] if a.shape[2] == 1 else a, "L" if a.shape[2] == 1 else "RGB")
            buf = io.BytesIO()
            img.save(buf, format="PNG")
            self._png = buf.getvalue()
        return self._png

    def __repr__(self):
        return self.text

    def _repr_png_(self):
        return self.png

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": self.text, "image/png": base64.b64encode(self.png).decode("ascii")}


def _as_numpy(x):
    import numpy as np

    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy()
    if hasattr(x, "__array_interface__") or isinstance(x, (list, tuple)):
        if isinstance(x, (list, tuple)) and x and isinstance(x[0], torch.Tensor):
            return np.stack([_as_numpy(t) for t in x])
        return np.asarray(x)
    if type(x).__module__.startswith("PIL."):
        return np.asarray(x)
    raise TypeError(f"show_images() takes a tensor, an array or a PIL image, not {type(x).__name__}")


def _layout(a, channels_last):
    """[N, C, H, W] from a [H, W], [C, H, W] or [N, C, H, W] array; the note says how it was read."""
    note = ""
    if a.ndim == 2:
        a = a[None, None]
    elif a.ndim == 3:
        if channels_last or (channels_last is None and a.shape[0] not in (1, 3) and a.shape[2] in (1, 3)):
            a = a.transpose(2, 0, 1)[None]
            note = " (read as channels-last [H, W, C])"
        elif a.shape[0] in (1, 3):
            a = a[None]
        else:
            a = a[:, None]
            note = f" ({a.shape[0]} channels shown as grey maps)"
    elif a.ndim == 4:
        if channels_last or (channels_last is None and a.shape[1] not in (1, 3) and a.shape[3] in (1, 3)):
            a = a.transpose(0, 3, 1, 2)
            note = " (read as channels-last [N, H, W, C])"
        elif a.shape[1] not in (1, 3):
            n, c = a.shape[:2]
            a = a.reshape(n * c, 1, *a.shape[2:])
            note = f" ({c} channels of each image shown as grey maps)"
    else:
        raise ValueError(f"show_images() wants [H, W], [C, H, W] or [N, C, H, W], got shape {list(a.shape)}")
    return a, note


def show_images(x, nrow=8, padding=2, scale=None, labels=None, channels_last=None, max_images=64, show=True):
    """Show images as one grid: in Jupyter a picture, elsewhere a line of text.

        show_images(images[:16])             # a batch [N, C, H, W]
        show_images(model.conv1(x)[0])       # feature maps [C, H, W]

    nrow images per row, `padding` pixels between them, `scale` an integer
    enlargement (default: enough for about 96 pixels a side, at most 8),
    labels a list of strings printed in the text form. Shows the picture
    and returns None, as plot() does (so a cell ending in show_images(x)
    shows it once); show=False shows nothing and returns the ImageGrid.
    """
    import numpy as np

    a = _as_numpy(x)
    shape = list(a.shape)
    if a.size == 0:
        raise ValueError(f"show_images(): no pixels in an array of shape {shape}")
    a, note = _layout(a, channels_last)
    total = a.shape[0]
    a = a[:max_images]
    if a.dtype == np.bool_:
        a = a.astype(np.uint8) * 255
    if a.dtype == np.uint8:
        lo, hi, how = 0.0, 255.0, "0..255"
    else:
        f = a.astype(np.float64)
        finite = f[np.isfinite(f)]
        mn = float(finite.min()) if finite.size else 0.0
        mx = float(finite.max()) if finite.size else 1.0
        if mn >= 0.0 and mx <= 1.0:
            lo, hi, how = 0.0, 1.0, "0..1"
        else:
            lo, hi = mn, mx
            how = f"stretched from [{mn:.4g}, {mx:.4g}]"
        a = np.nan_to_num(f, nan=lo, posinf=hi, neginf=lo)
    a = np.clip((a.astype(np.float64) - lo) / max(hi - lo, 1e-12), 0.0, 1.0)
    a = (a * 255.0 + 0.5).astype(np.uint8)
    n, c, h, w = a.shape
    if scale is None:
        scale = max(1, min(8, 96 // max(h, w)))
    if scale > 1:
        a = a.repeat(scale, axis=2).repeat(scale, axis=3)
    cols = min(nrow, n)
    rows = int(math.ceil(n / cols))
    H, W = a.shape[2], a.shape[3]
    grid = np.full((rows * (H + padding) + padding, cols * (W + padding) + padding, c), 255, np.uint8)
    for k in range(n):
        r, q = divmod(k, cols)
        y, xx = padding + r * (H + padding), padding + q * (W + padding)
        grid[y:y + H, xx:xx + W] = a[k].transpose(1, 2, 0)
    what = "image" if total == 1 else "images"
    text = f"<{total} {what} {c}x{h}x{w} from shape {shape}, {how}{note}"
    if total > n:
        text += f"; first {n} shown"
    text += ">"
    if labels is not None:
        text += "\n" + " ".join(str(s) for s in list(labels)[:n])
    out = ImageGrid(grid, text)
    if not show:
        return out
    from nndb import display

    display.display(out)
    return None


def show_feature_maps(x, example=0, max_maps=16, nrow=8, show=True):
    """A layer's feature maps as one grid of grey pictures, each channel
    stretched to its own range (so a faint channel is as visible as a strong
    one): [x] is a layer's output [N, C, H, W] (example [example] is shown)
    or one sample's [C, H, W]; the first [max_maps] channels.

        %break net.conv1       # then, at the (nndb) prompt:
        show_feature_maps(out)

    In Jupyter a picture, in the terminal REPL a PNG saved (and drawn, in a
    terminal that shows pictures) as plot() does, in a script a text line.
    Returns None, or the ImageGrid with show=False."""
    t = x.detach() if isinstance(x, torch.Tensor) else torch.as_tensor(x)
    if t.dim() == 4:
        if not -t.shape[0] <= example < t.shape[0]:
            raise IndexError(f"show_feature_maps(): example {example} is out of range for a "
                             f"batch of {t.shape[0]}")
        t = t[example]
    if t.dim() != 3:
        raise ValueError("show_feature_maps(): expected feature maps [N, C, H, W] or [C, H, W], "
                         f"got shape {list(t.shape)}")
    if t.numel() == 0:
        raise ValueError(f"show_feature_maps(): no pixels in shape {list(t.shape)}")
    m = t[:max_maps].double()
    lo = m.amin(dim=(1, 2), keepdim=True)
    span = (m.amax(dim=(1, 2), keepdim=True) - lo).clamp(min=1e-12)
    grid = show_images(((m - lo) / span).float().unsqueeze(1), show=False, nrow=nrow,
                       channels_last=False)
    c = t.shape[0]
    grid.text = (f"<{c} feature maps {t.shape[1]}x{t.shape[2]}"
                 + (f", first {max_maps} shown" if c > max_maps else "")
                 + ", each stretched to its own range>")
    if not show:
        return grid
    from nndb import display

    display.display(grid)
    return None

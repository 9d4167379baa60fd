# einops' rearrange/reduce/repeat (nndb ships python/einops; Debian has no
# einops): under nndb each line is computed with einops, under PyTorch by
# the equivalent torch ops, and the two outputs must be the same.
import numpy as np
import torch

try:
    import einops
except ImportError:
    einops = None

x = torch.arange(2 * 3 * 4 * 2, dtype=torch.float32).view(2, 3, 4, 2)
v = torch.arange(12.0)
img = torch.arange(12.0).view(3, 4)


def show(name, einops_fn, torch_fn):
    r = einops_fn() if einops is not None else torch_fn()
    print(name, tuple(r.shape))
    print(r)


show("flatten", lambda: einops.rearrange(x, "b c h w -> b (c h w)"), lambda: x.reshape(2, -1))
show("split", lambda: einops.rearrange(v, "(h w) -> h w", h=3), lambda: v.view(3, 4))
show("split w", lambda: einops.rearrange(v, "(h w) -> w h", w=6), lambda: v.view(2, 6).t())
show("transpose", lambda: einops.rearrange(x, "b c h w -> b h w c"), lambda: x.permute(0, 2, 3, 1))
show("merge batch", lambda: einops.rearrange(x, "b c h w -> (b h) w c"),
     lambda: x.permute(0, 2, 3, 1).reshape(8, 2, 3))
show("heads", lambda: einops.rearrange(x, "b c (n d) w -> b n c d w", n=2),
     lambda: x.view(2, 3, 2, 2, 2).permute(0, 2, 1, 3, 4))
show("ellipsis", lambda: einops.rearrange(x, "b ... w -> b w ..."), lambda: x.permute(0, 3, 1, 2))
show("squeeze 1", lambda: einops.rearrange(img.view(3, 1, 4), "h 1 w -> h w"), lambda: img)
show("unsqueeze 1", lambda: einops.rearrange(img, "h w -> 1 h w 1"), lambda: img.view(1, 3, 4, 1))
show("mean", lambda: einops.reduce(x, "b c h w -> b c", "mean"), lambda: x.mean(dim=(2, 3)))
show("sum", lambda: einops.reduce(x, "b c h w -> c", "sum"), lambda: x.sum(dim=(0, 2, 3)))
show("max", lambda: einops.reduce(x, "b c h w -> b w", "max"), lambda: x.amax(dim=(1, 2)))
show("min", lambda: einops.reduce(x, "b c h w -> h", "min"), lambda: x.amin(dim=(0, 1, 3)))
show("pool", lambda: einops.reduce(x, "b c (h 2) w -> b c h w", "max"),
     lambda: x.view(2, 3, 2, 2, 2).amax(dim=3))
show("keepdim", lambda: einops.reduce(x, "b c h w -> b c 1 1", "mean"),
     lambda: x.mean(dim=(2, 3), keepdim=True))
show("repeat new", lambda: einops.repeat(img, "h w -> h w c", c=2),
     lambda: img.unsqueeze(2).expand(3, 4, 2))
show("repeat tile", lambda: einops.repeat(img, "h w -> (2 h) w"), lambda: img.repeat(2, 1))
show("repeat interleave", lambda: einops.repeat(img, "h w -> h (w 2)"),
     lambda: img.repeat_interleave(2, dim=1))
show("repeat batch", lambda: einops.repeat(v, "n -> b n", b=2), lambda: v.expand(2, 12))
show("list stack", lambda: einops.rearrange([img, img + 1], "n h w -> h (n w)"),
     lambda: torch.stack([img, img + 1]).permute(1, 0, 2).reshape(3, 8))
a = np.arange(24).reshape(2, 3, 4)
r = einops.rearrange(a, "a b c -> c (a b)") if einops else a.transpose(2, 0, 1).reshape(4, 6)
print("numpy", type(r).__name__, r.tolist())
r = einops.reduce(a, "a b c -> a", "sum") if einops else a.sum(axis=(1, 2))
print("numpy sum", r.tolist())
r = einops.repeat(a[0], "b c -> b c k", k=2) if einops else np.repeat(a[0][:, :, None], 2, axis=2)
print("numpy repeat", r.shape, r[1].tolist())
if einops is not None:
    for bad in [lambda: einops.rearrange(v, "(h w) -> h w"),
                lambda: einops.rearrange(x, "b c h -> b c h"),
                lambda: einops.rearrange(x, "b c h w -> b c h")]:
        try:
            bad()
        except einops.EinopsError:
            print("EinopsError")
    print(einops.parse_shape(x, "b _ h w"))
else:
    print("EinopsError\nEinopsError\nEinopsError")
    print({"b": 2, "h": 4, "w": 2})

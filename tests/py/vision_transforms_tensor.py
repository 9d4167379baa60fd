# torchvision.transforms on tensor images where torchvision goes through
# F.interpolate and F.grid_sample: Resize (bilinear, nearest, bicubic,
# antialias), RandomResizedCrop, rotation (nearest, bilinear, fill, center),
# on [C, H, W], [N, C, H, W] and uint8, against torchvision 0.14.
import torch
from torchvision import transforms as T
from torchvision.transforms import functional as TF

I = T.InterpolationMode


def show(name, x):
    print(name, x.dtype, tuple(x.shape), round(float(x.double().sum()), 2),
          [round(v, 4) for v in x.reshape(-1)[:6].tolist()])


torch.manual_seed(0)
x = torch.rand(3, 20, 24)
b = torch.rand(2, 3, 16, 16)
u8 = (torch.rand(3, 20, 24) * 255).to(torch.uint8)
for size in (12, (9, 13), 30):
    for mode in (I.BILINEAR, I.NEAREST, I.BICUBIC):
        show(f"resize {size} {mode.value}", T.Resize(size, interpolation=mode)(x))
show("resize batch", T.Resize(8)(b))
show("resize uint8 bilinear", T.Resize(10)(u8))
show("resize uint8 bicubic", T.Resize(10, interpolation=I.BICUBIC)(u8))
show("resize max_size", T.Resize(10, max_size=12)(x))
torch.manual_seed(1)
for i in range(3):
    show(f"random resized crop {i}", T.RandomResizedCrop(14)(x))
for angle in (30, -45.5, 90):
    show(f"rotate {angle} nearest", TF.rotate(x, angle))
    show(f"rotate {angle} bilinear", TF.rotate(x, angle, interpolation=I.BILINEAR))
show("rotate fill", TF.rotate(x, 20, fill=[0.5, 0.2, 1.0]))
show("rotate center", TF.rotate(x, 15, center=[3, 4]))
show("rotate uint8", TF.rotate(u8, 33))
show("rotate batch", TF.rotate(b, 10, interpolation=I.BILINEAR))
torch.manual_seed(2)
show("RandomRotation bilinear", T.RandomRotation(40, interpolation=I.BILINEAR, fill=1)(x))
show("pad reflect", T.Pad(3, padding_mode="reflect")(x))
show("pad edge batch", T.Pad((1, 2), padding_mode="edge")(b))

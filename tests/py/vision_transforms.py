# torchvision.transforms against torchvision 0.14: the same seed gives the
# same crops, flips, angles and jitter, on PIL images and on tensors; reprs,
# conversions and errors in torchvision's words.
import numpy as np
import torch
from PIL import Image
from torchvision import transforms as T
from torchvision.transforms import functional as TF


def show(name, x):
    if isinstance(x, Image.Image):
        a = np.asarray(x)
        print(name, "PIL", x.mode, x.size, int(a.sum()), a.reshape(-1)[:12].tolist())
    else:
        # Values to 5 decimals: torch.mean over several dimensions (ColorJitter's
        # contrast on tensors) may differ from PyTorch's in the last bit.
        print(name, x.dtype, tuple(x.shape), round(float(x.double().sum()), 3),
              [round(v, 5) for v in x.reshape(-1)[:8].tolist()])


rng = np.random.RandomState(0)
gray = Image.fromarray(rng.randint(0, 256, (28, 28)).astype(np.uint8), mode="L")
rgb = Image.fromarray(rng.randint(0, 256, (20, 24, 3)).astype(np.uint8), mode="RGB")

# Conversions.
show("to_tensor gray", T.ToTensor()(gray))
show("to_tensor rgb", T.ToTensor()(rgb))
show("pil_to_tensor", T.PILToTensor()(rgb))
show("ndarray", T.ToTensor()(np.asarray(rgb)))
u8 = T.PILToTensor()(rgb)
for dt in (torch.float32, torch.float64, torch.int16, torch.int32):
    show(f"convert {dt}", T.ConvertImageDtype(dt)(u8))
show("float->uint8", T.ConvertImageDtype(torch.uint8)(T.ToTensor()(rgb)))
show("to_pil", T.ToPILImage()(T.ToTensor()(rgb)))
show("to_pil gray", T.ToPILImage()(T.ToTensor()(gray)))
show("normalize", T.Normalize((0.5, 0.4, 0.3), (0.2, 0.25, 0.3))(T.ToTensor()(rgb)))

# Deterministic geometry, PIL and tensor.
x = T.ToTensor()(rgb)
for t in [T.CenterCrop(10), T.CenterCrop((30, 9)), T.Pad(3), T.Pad((1, 2, 3, 4), fill=7), T.Pad(2, padding_mode="reflect"),
          T.Pad(2, padding_mode="edge"), T.Pad(2, padding_mode="symmetric"), T.Grayscale(), T.Grayscale(3),
          T.Resize(12), T.Resize((9, 13)), T.Resize(10, interpolation=T.InterpolationMode.NEAREST)]:
    show(repr(t), t(rgb))
    if not isinstance(t, T.Resize):
        show(repr(t) + " tensor", t(x))
show("hflip", TF.hflip(rgb))
show("vflip tensor", TF.vflip(x))
show("crop outside tensor", TF.crop(x, -2, 20, 5, 8))
show("crop outside", TF.crop(rgb, -2, 20, 5, 8))
show("rotate 30", TF.rotate(rgb, 30))
show("rotate expand", TF.rotate(gray, 45, expand=True))
show("brightness", TF.adjust_brightness(rgb, 1.3))
show("contrast", TF.adjust_contrast(rgb, 0.6))
show("brightness t", TF.adjust_brightness(x, 1.3))
show("contrast t", TF.adjust_contrast(x, 0.6))
show("contrast u8", TF.adjust_contrast(u8, 1.7))
show("saturation", TF.adjust_saturation(rgb, 0.4))
show("saturation t", TF.adjust_saturation(x, 1.6))
for hf in (-0.5, -0.2, 0.1, 0.37):
    show(f"hue {hf}", TF.adjust_hue(rgb, hf))
    show(f"hue t {hf}", TF.adjust_hue(x, hf))
    show(f"hue u8 {hf}", TF.adjust_hue(u8, hf))
show("hue gray", TF.adjust_hue(gray, 0.3))

# Seeded random pipelines: the same draws as torchvision.
torch.manual_seed(0)
aug = T.Compose([
    T.RandomCrop(24, padding=4),
    T.RandomHorizontalFlip(),
    T.RandomVerticalFlip(p=0.3),
    T.RandomRotation(20),
    T.RandomResizedCrop(20),
    T.ColorJitter(brightness=0.5, contrast=0.5),
    T.ToTensor(),
    T.Normalize((0.2860,), (0.3530,)),
])
print(aug)
for i in range(8):
    show(f"aug {i}", aug(gray))
torch.manual_seed(1)
aug_rgb = T.Compose([T.RandomResizedCrop(16, scale=(0.2, 1.0)), T.RandomHorizontalFlip(), T.ColorJitter(0.3, 0.3, 0.3, 0.2),
                     T.RandomGrayscale(0.3), T.ToTensor()])
for i in range(6):
    show(f"aug rgb {i}", aug_rgb(rgb))
# Random transforms on tensors (crop, flips, jitter, nearest rotation).
torch.manual_seed(2)
aug_t = T.Compose([T.RandomCrop(18, padding=2), T.RandomHorizontalFlip(), T.ColorJitter(0.4, 0.4, 0.4, 0.1),
                   T.RandomApply([T.Grayscale(3)], p=0.5)])
for i in range(6):
    show(f"aug tensor {i}", aug_t(x))
torch.manual_seed(3)
for i in range(3):
    show(f"rotation tensor {i}", T.RandomRotation(25)(x))
print(T.RandomResizedCrop.get_params(x, (0.08, 1.0), (3 / 4, 4 / 3)))
print(T.RandomCrop.get_params(x, (10, 10)))
print(T.ColorJitter.get_params([0.5, 1.5], None, [0.9, 1.1], None))
print(torch.rand(1))  # the generator is where torchvision leaves it
torch.manual_seed(4)
er = T.RandomErasing(p=1.0)
show("erasing", er(x))

# Errors.
for f in [lambda: T.ToTensor()("img"), lambda: T.Normalize(0.5, 0.5)(u8), lambda: T.RandomCrop(40)(rgb),
          lambda: T.Normalize((0.5,), (0.0,))(x), lambda: T.ColorJitter(-1), lambda: T.Resize((1, 2, 3)),
          lambda: T.Lambda(3), lambda: T.ConvertImageDtype(torch.int32)(x), lambda: TF.rotate(rgb, "a"),
          lambda: T.Grayscale(2)(x)]:
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)

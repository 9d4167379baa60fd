# torchvision.models definitions against torchvision 0.14: the same modules,
# state_dict keys and shapes, parameter count, the seeded initialisation
# (the same numbers), and the same output on a small input.
import torch
from torchvision import models

import torchvision

# vgg11_bn is vgg11 with BatchNorm2d after each conv: one VGG is enough
# (its classifier alone is 120 M parameters, 0.5 GB).
for name, build, size in (("resnet18", models.resnet18, 64), ("vgg11_bn", models.vgg11_bn, 32),
                          ("mobilenet_v2", models.mobilenet_v2, 64)):
    torch.manual_seed(0)
    m = build(num_classes=10)
    sd = m.state_dict()
    n = sum(p.numel() for p in m.parameters())
    print(name, len(sd), n, list(sd)[:4], list(sd)[-2:])
    print("  shapes", [tuple(v.shape) for v in list(sd.values())[:3]])
    print("  init", [round(float(p.double().sum()), 3) for p in list(m.parameters())[:4]],
          round(float(sum(p.double().abs().sum() for p in m.parameters())), 1))
    m.eval()
    with torch.no_grad():
        x = torch.randn(2, 3, size, size)
        y = m(x)
    print("  out", tuple(y.shape), [round(v, 3) for v in y[0, :5].tolist()])
    if name == "resnet18":
        m.train()
        out = m(x)
        out.sum().backward()
        # through BatchNorm2d and ReLU(inplace=True) into conv1. conv1's
        # float32 gradient is ill-conditioned here (out.sum() sends the same
        # gradient to every position, which BatchNorm's backward nearly
        # cancels): PyTorch's is 2e-4 from the float64 model's, nndb's
        # Winograd layers (docs/images.md) land elsewhere in that range; so
        # 4 digits, and both against the float64 model.
        g32 = m.conv1.weight.grad.double()
        fc = f"{float(m.fc.weight.grad.double().sum()):.5g}"
        m64 = m.double()  # the same model, its parameters in float64
        m64.zero_grad()
        m64(x.double()).sum().backward()
        g64 = m64.conv1.weight.grad
        print("  grad", f"{float(g32.abs().sum()):.4g}", fc,
              "float64 within 1e-3:",
              bool((g32.abs().sum() - g64.abs().sum()).abs() < 1e-3 * g64.abs().sum()))
print(models.resnet18().fc, models.mobilenet_v2().classifier)
# nndb has no weights to download: it says so at once (torchvision would
# try the network).
if torchvision.__version__.endswith("nndb"):
    for bad in (lambda: models.resnet18(weights="IMAGENET1K_V1"), lambda: models.mobilenet_v2(pretrained=True)):
        try:
            bad()
            raise AssertionError("weights= should raise")
        except RuntimeError as e:
            assert "no pretrained weights" in str(e), e
print("weights checks done")

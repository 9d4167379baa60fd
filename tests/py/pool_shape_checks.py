"""Pooling refuses what PyTorch 1.13 refuses, with its messages in its order: avg_pool3d an input smaller than its kernel even with padding ("input image (T: 2 H: 2 W: 2) smaller than kernel size"), avg_pool1d and max_pool1d with indices or grad as 2-D pools of height 1 ("Given input size: (1x1x2)"), max_pool1d without them by its own checks (an empty result where no window fits), stride 0 before kernel 0, the per-axis kernel/stride/dilation texts; then a matrix of sizes, kernels, paddings, strides, ceil_mode and dilation over every avg/max 1-3d pool, printing the shape and sum or the error."""
import itertools
import torch
import torch.nn.functional as F
cases = [
 "F.avg_pool3d(torch.ones(1,1,2,2,2), 3)", "F.avg_pool2d(torch.ones(1,1,2,2), 3)", "F.avg_pool1d(torch.ones(1,1,2), 3)",
 "F.max_pool3d(torch.ones(1,1,2,2,2), 3)", "F.max_pool2d(torch.ones(1,1,2,2), 3)", "F.max_pool1d(torch.ones(1,1,2), 3)",
 "F.avg_pool2d(torch.ones(1,1,2,2), 3, padding=1)", "F.max_pool2d(torch.ones(1,1,2,2), 3, padding=1)", "F.avg_pool2d(torch.ones(1,1,2,2), 3, ceil_mode=True)",
 "F.max_pool2d(torch.ones(1,1,2,2), 3, ceil_mode=True)", "F.avg_pool2d(torch.ones(2,2), 3)", "F.max_pool2d(torch.ones(2,2), 3)", "F.avg_pool2d(torch.ones(1,2,2), 3)",
 "F.max_pool2d(torch.ones(1,2,2), 3)", "F.avg_pool3d(torch.ones(1,2,2,2), 3)", "F.max_pool1d(torch.ones(1,2), 3)", "F.avg_pool1d(torch.ones(1,2), 3)",
 "F.avg_pool2d(torch.ones(1,1,4,2), (2,3))", "F.max_pool2d(torch.ones(1,1,4,2), (2,3))", "F.max_pool2d(torch.ones(1,1,4,4), 2, dilation=3)",
 "F.avg_pool2d(torch.ones(1,1,4,4), 3, padding=2)", "F.max_pool2d(torch.ones(1,1,4,4), 3, padding=2)", "F.max_pool2d(torch.ones(1,1,1,1), 1, stride=2)",
 "torch.nn.MaxPool2d(2)(torch.ones(1,1,1,5))", "torch.nn.AvgPool2d(2)(torch.ones(1,1,1,5))", "torch.nn.AvgPool3d(2)(torch.ones(1,1,1,5,5))", "torch.nn.MaxPool3d(2)(torch.ones(1,1,1,5,5))",
 "F.max_pool2d(torch.ones(1,1,2,2), 3, return_indices=True)", "F.max_pool1d(torch.ones(1,1,2), 3, return_indices=True)", "F.avg_pool2d(torch.ones(1,1,0,4), 1)",
 "F.max_pool2d(torch.ones(1,1,2,2), 0)", "F.avg_pool2d(torch.ones(1,1,2,2), 0)", "F.avg_pool2d(torch.ones(1,1,2,2), 2, stride=0)", "F.max_pool2d(torch.ones(1,1,4,4), 2, stride=0)",
 "F.avg_pool1d(torch.ones(1,1,3), 2, padding=2)", "F.max_pool1d(torch.ones(1,1,3), 2, padding=2)", "F.max_pool3d(torch.ones(1,1,3,3,3), 2, padding=2)",
 "F.avg_pool3d(torch.ones(1,1,3,3,3), 2, padding=2)", "F.max_pool2d(torch.ones(1,1,4,4), 2, dilation=0)", "F.adaptive_avg_pool2d(torch.ones(1,1,2,2), 3)",
 "F.avg_pool2d(torch.ones(1,1,5,5), 2, ceil_mode=True)", "F.avg_pool2d(torch.ones(1,1,5,5), 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)",
 "F.max_pool1d(torch.ones(1,1,5), 2, ceil_mode=True)", "F.max_pool1d(torch.ones(1,1,0), 1)", "F.max_pool2d(torch.ones(1,0,4,4), 2)",
]
for c in cases:
    try: print(c, "->", eval(c))
    except Exception as e: print(c, "->", type(e).__name__, e)
x = torch.ones(1, 1, 2, requires_grad=True)
for c in ["F.max_pool1d(x, 3)", "F.max_pool1d(x, 3, return_indices=True)", "F.max_pool1d(x.detach(), 3, return_indices=True)", "F.max_pool1d(x, 2, padding=2)", "F.max_pool1d(x.detach(), 2, padding=2)",
          "F.max_pool1d(x.detach(), 0)", "F.max_pool1d(x.detach(), 2, stride=0)", "F.max_pool1d(x.detach(), 2, dilation=0)", "F.max_pool1d(x.detach(), 2, padding=-1)", "F.max_pool1d(x, 0)",
          "F.max_pool1d(x, 2, dilation=0)", "F.max_pool1d(x.detach(), 3).shape", "F.max_pool1d(torch.ones(2, 2), 3)", "F.max_pool1d(torch.ones(2, 5), 2, ceil_mode=True)", "F.max_pool1d(torch.ones(1,1,0), 1)",
          "F.max_pool1d(x, 3, ceil_mode=True)", "F.max_pool1d(x.detach(), 3, stride=1)", "F.max_pool1d(x.detach(), 3, stride=2, ceil_mode=True)",
          "F.avg_pool3d(torch.ones(1,1,2,2,2), 0)", "F.avg_pool3d(torch.ones(1,1,2,2,2), 2, stride=0)", "F.avg_pool3d(torch.ones(1,1,2,2,2), 3, padding=1)", "F.avg_pool3d(torch.ones(1,1,2,2,2), 2, padding=2)",
          "F.avg_pool3d(torch.ones(1,1,3,3,3), 2, padding=2)", "F.max_pool3d(torch.ones(1,1,3,3,3), 2, padding=2)", "F.max_pool3d(torch.ones(1,1,1,1,1), 3)", "F.max_pool3d(torch.ones(1,1,2,2,2), 0)",
          "F.max_pool3d(torch.ones(1,1,2,2,2), 2, dilation=0)", "F.avg_pool3d(torch.ones(1,1,0,2,2), 1)", "F.max_pool3d(torch.ones(1,1,0,2,2), 1)", "F.avg_pool3d(torch.ones(0,1,2,2,2), 1)",
          "F.avg_pool2d(torch.ones(1,1,2,2), 3, padding=2)", "F.avg_pool2d(torch.ones(1,1,2,2), 0, stride=1)", "F.max_pool2d(torch.ones(1,1,2,2), 0, stride=1)", "F.max_pool2d(torch.ones(1,1,2,2), 2, dilation=0)",
          "F.avg_pool1d(torch.ones(1,1,2), 0)", "F.avg_pool1d(torch.ones(1,1,2), 2, stride=0)", "F.avg_pool1d(torch.ones(1,1,2), 2, padding=2)", "F.avg_pool1d(torch.ones(1,1,2), 0, stride=1)",
          "F.avg_pool1d(torch.ones(2,3), 2)", "F.avg_pool1d(torch.ones(1,1,1,3), 2)", "F.avg_pool1d(torch.ones(3), 2)", "F.max_pool1d(torch.ones(3), 2)", "F.max_pool1d(torch.ones(1,1,1,3), 2)",
          "F.avg_pool1d(torch.ones(1,0,3), 2)", "F.avg_pool1d(torch.ones(0,1,3), 2)", "F.max_pool1d(torch.ones(0,1,3), 2)", "F.avg_pool1d(x, 3)", "F.avg_pool1d(torch.ones(1,1,5), 2, ceil_mode=True, padding=1)",
          "F.max_pool1d(torch.ones(1,1,3), 2, padding=-1)", "F.avg_pool2d(torch.ones(1,1,3,3), 2, padding=-1)",
          ]:
    try:
        r = eval(c)
        print(c, "->", r if not isinstance(r, tuple) else [t.shape for t in r])
    except Exception as e: print(c, "->", type(e).__name__, e)
for kind in ("avg", "max"):
    for d in (1, 2, 3):
        fn = getattr(F, f"{kind}_pool{d}d")
        for size, k, p, s, ceil, dil, batched in itertools.product((1, 2, 3, 5), (1, 2, 3), (0, 1, 2), (None, 1, 2), (False, True), (1, 2) if kind == "max" else (1,), (True, False)):
            shape = ((2, 1) if batched else (1,)) + (size,) * d
            x = torch.arange(float(torch.Size(shape).numel())).view(shape)
            kw = dict(stride=s, padding=p, ceil_mode=ceil)
            if kind == "max": kw["dilation"] = dil
            try:
                r = fn(x, k, **kw)
                out = f"{tuple(r.shape)} {r.sum().item():.4f}"
            except Exception as e:
                out = f"{type(e).__name__}: {e}"
            print(kind, d, shape, k, kw, out)

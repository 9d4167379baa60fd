# Convolutions of the shapes nndb's direct kernels serve (few channels,
# stride 1: engine/ops/ops_conv_direct.c) against PyTorch: float64 values
# and gradients of input, weight and bias (sums weighted by a random tensor,
# rounded to 8 decimals), float64 gradcheck, and float32 against float64
# within float32 tolerance. Covers LeNet-5's two layers, batch 1, odd sizes,
# padding, dilation, groups, 1-D and 3-D, the transposed convolution with
# stride 1 (output_padding with dilation), and 2 threads (the batch is split).
import torch
import torch.nn.functional as F

torch.manual_seed(0)
gc = torch.autograd.gradcheck


def grads(fn, x, w, b, r=None):
    y = fn(x, w, b)
    r = torch.randn_like(y) if r is None else r.to(y.dtype)
    gx, gw, gb = torch.autograd.grad((y * r).sum(), [x, w, b])
    return y, gx, gw, gb, r


def show(name, fn, xs, ws, bias_n):
    x = torch.randn(*xs, dtype=torch.float64, requires_grad=True)
    w = torch.randn(*ws, dtype=torch.float64, requires_grad=True)
    b = torch.randn(bias_n, dtype=torch.float64, requires_grad=True)
    y, gx, gw, gb, r = grads(fn, x, w, b)
    print(name, tuple(y.shape), round(y.sum().item(), 8), round((y * y).sum().item(), 6),
          round(gx.sum().item(), 8), round((gx * gx).sum().item(), 6),
          round((gw * torch.arange(gw.numel(), dtype=gw.dtype).view(gw.shape)).sum().item(), 6),
          round(gb.sum().item(), 8))
    # float32 through the same path, against the float64 result
    x32, w32, b32 = [t.detach().float().requires_grad_() for t in (x, w, b)]
    y32, gx32, gw32, gb32, _ = grads(fn, x32, w32, b32, r)
    ok = all(torch.allclose(a.double(), e, rtol=1e-4, atol=1e-4 * (1 + e.abs().max().item()))
             for a, e in [(y32, y), (gx32, gx), (gw32, gw), (gb32, gb)])
    print(" float32 close:", ok)
    return x, w, b


# LeNet-5's layers at batch 3, and batch 1
show("lenet1", lambda x, w, b: F.conv2d(x, w, b, padding=2), (3, 1, 28, 28), (6, 1, 5, 5), 6)
show("lenet2", lambda x, w, b: F.conv2d(x, w, b), (3, 6, 14, 14), (16, 6, 5, 5), 16)
show("batch1", lambda x, w, b: F.conv2d(x, w, b, padding=1), (1, 3, 8, 8), (5, 3, 3, 3), 5)
# odd sizes, unequal padding and dilation, non-square kernels
show("odd", lambda x, w, b: F.conv2d(x, w, b, padding=(1, 2)), (2, 3, 7, 9), (7, 3, 3, 2), 7)
show("dilated", lambda x, w, b: F.conv2d(x, w, b, padding=2, dilation=(2, 1)), (2, 2, 11, 10),
     (3, 2, 3, 3), 3)
show("same", lambda x, w, b: F.conv2d(x, w, b, padding="same"), (2, 3, 9, 9), (4, 3, 4, 3), 4)
# groups (two image channels per group), more output channels than a block of 4
show("groups", lambda x, w, b: F.conv2d(x, w, b, groups=2, padding=1), (2, 4, 9, 9),
     (10, 2, 3, 3), 10)
show("wide", lambda x, w, b: F.conv2d(x, w, b, padding=1), (2, 5, 12, 12), (9, 5, 3, 3), 9)
# 1-D and 3-D
show("conv1d", lambda x, w, b: F.conv1d(x, w, b, padding=1), (2, 3, 40), (5, 3, 4), 5)
show("conv3d", lambda x, w, b: F.conv3d(x, w, b, padding=1), (2, 2, 5, 6, 6), (3, 2, 3, 3, 2), 3)
# transposed, stride 1 (the same kernels with the two sides swapped)
show("transposed", lambda x, w, b: F.conv_transpose2d(x, w, b, padding=1), (2, 4, 10, 10),
     (4, 3, 3, 3), 3)
show("transposed_op", lambda x, w, b: F.conv_transpose2d(x, w, b, dilation=2, output_padding=1),
     (2, 3, 9, 9), (3, 2, 3, 3), 2)

# gradcheck (central differences) on small direct-path shapes
for kw, xs, ws in [(dict(padding=2), (2, 1, 9, 9), (3, 1, 5, 5)),
                   (dict(padding=(1, 0), dilation=(1, 2)), (1, 3, 8, 9), (4, 3, 3, 2)),
                   (dict(groups=2, padding=1), (2, 4, 7, 7), (6, 2, 3, 3))]:
    x = torch.randn(*xs, dtype=torch.float64, requires_grad=True)
    w = torch.randn(*ws, dtype=torch.float64, requires_grad=True)
    b = torch.randn(ws[0], dtype=torch.float64, requires_grad=True)
    print(kw, gc(lambda a, ww, bb: F.conv2d(a, ww, bb, **kw), (x, w, b)))

# two threads split the batch: under nndb the same bits as one thread (each
# sample goes through the same loops; the weight gradient is summed in fixed
# slices of the batch); PyTorch's oneDNN gradients are not bit-identical
# across thread counts, so under PyTorch the line checks closeness only.
nndb = hasattr(torch._C, "_mem_stats")
for xs, ws, pad in [((16, 6, 14, 14), (16, 6, 5, 5), 0), ((64, 1, 28, 28), (6, 1, 5, 5), 2)]:
    x = torch.randn(*xs, requires_grad=True)
    w = torch.randn(*ws, requires_grad=True)
    b = torch.randn(ws[0], requires_grad=True)
    one = grads(lambda a, ww, bb: F.conv2d(a, ww, bb, padding=pad), x, w, b)
    torch.set_num_threads(2)
    two = grads(lambda a, ww, bb: F.conv2d(a, ww, bb, padding=pad), x, w, b, one[-1])
    torch.set_num_threads(1)
    same = [torch.equal(p, q) if nndb else torch.allclose(p, q, rtol=1e-4, atol=1e-3)
            for p, q in zip(one, two)]
    print("same at 1 and 2 threads:", same)

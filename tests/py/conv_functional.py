# torch.nn.functional's convolutions: values, shapes, grad_fn names and
# float64 gradcheck of input, weight and bias over stride, padding (numbers,
# 'same', 'valid'), dilation, groups (depthwise), transposed with
# output_padding, 1-D/2-D/3-D and unbatched inputs; PyTorch's error messages.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
gc = torch.autograd.gradcheck
x = torch.randn(2, 3, 7, 7, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, 3, 3, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(4, dtype=torch.float64, requires_grad=True)
for kw in [dict(), dict(stride=2), dict(padding=1), dict(dilation=2), dict(padding="same"),
           dict(padding="valid"), dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2))]:
    y = F.conv2d(x, w, b, **kw)
    print(kw, tuple(y.shape), round(y.sum().item(), 8), y.grad_fn.name())
    print(gc(lambda a, ww, bb: F.conv2d(a, ww, bb, **kw), (x, w, b)))
# 'same' with an even kernel pads one more on the right
we = torch.randn(2, 3, 2, 4, dtype=torch.float64, requires_grad=True)
print(tuple(F.conv2d(x, we, padding="same").shape),
      gc(lambda a, ww: F.conv2d(a, ww, padding="same", dilation=(1, 3)), (x, we)))
# groups and depthwise
xg = torch.randn(2, 3, 6, 6, dtype=torch.float64, requires_grad=True)
wg = torch.randn(6, 1, 3, 3, dtype=torch.float64, requires_grad=True)
print(round(F.conv2d(xg, wg, groups=3, padding=1).sum().item(), 8),
      gc(lambda a, ww: F.conv2d(a, ww, groups=3, padding=1), (xg, wg)))
w2 = torch.randn(4, 2, 1, 1, dtype=torch.float64, requires_grad=True)
x4 = torch.randn(2, 4, 5, 5, dtype=torch.float64, requires_grad=True)
print(round(F.conv2d(x4, w2, groups=2).sum().item(), 8),
      gc(lambda a, ww: F.conv2d(a, ww, groups=2), (x4, w2)))
# transposed
for kw in [dict(), dict(stride=2, output_padding=1), dict(padding=1, dilation=2),
           dict(groups=3, stride=2), dict(stride=3, padding=2, output_padding=2)]:
    wt = torch.randn(3, 1 if "groups" in kw else 2, 3, 3, dtype=torch.float64,
                     requires_grad=True)
    bt = torch.randn(wt.shape[1] * kw.get("groups", 1), dtype=torch.float64, requires_grad=True)
    y = F.conv_transpose2d(xg, wt, bt, **kw)
    print(kw, tuple(y.shape), round(y.sum().item(), 8), y.grad_fn.name())
    print(gc(lambda a, ww, bb: F.conv_transpose2d(a, ww, bb, **kw), (xg, wt, bt)))
# 1-D and 3-D
x1 = torch.randn(2, 3, 9, dtype=torch.float64, requires_grad=True)
w1 = torch.randn(4, 3, 2, dtype=torch.float64, requires_grad=True)
print(round(F.conv1d(x1, w1, stride=2, padding=1).sum().item(), 8),
      gc(lambda a, ww: F.conv1d(a, ww, stride=2, padding=1), (x1, w1)))
wt1 = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
print(tuple(F.conv_transpose1d(x1, wt1, stride=3, padding=1).shape),
      gc(lambda a, ww: F.conv_transpose1d(a, ww, stride=3, padding=1), (x1, wt1)))
x3 = torch.randn(1, 2, 4, 5, 4, dtype=torch.float64, requires_grad=True)
w3 = torch.randn(2, 2, 2, 3, 2, dtype=torch.float64, requires_grad=True)
print(round(F.conv3d(x3, w3, padding=1).sum().item(), 8),
      gc(lambda a, ww: F.conv3d(a, ww, padding=1, dilation=(1, 2, 1)), (x3, w3)))
print(tuple(F.conv_transpose3d(x3, w3, stride=2).shape),
      gc(lambda a, ww: F.conv_transpose3d(a, ww, stride=2), (x3, w3)))
# unbatched
print(tuple(F.conv2d(x[0], w).shape), tuple(F.conv1d(x1[0], w1).shape),
      tuple(F.conv_transpose2d(xg[0], torch.randn(3, 2, 3, 3, dtype=torch.float64)).shape))
# float32 values (printed at torch's precision)
xf = torch.randn(4, 3, 10, 10)
print(F.conv2d(xf, torch.randn(5, 3, 3, 3), torch.randn(5), padding=1)[1, 2, :3, :4])
print(F.conv2d(xf, torch.randn(5, 3, 1, 1))[1, 2, :2, :4])
print(F.conv_transpose2d(xf, torch.randn(3, 2, 3, 3), stride=2)[0, 1, :2, :5])
# larger batch: several samples share one GEMM
xb = torch.randn(64, 1, 28, 28)
wb = torch.randn(6, 1, 5, 5, requires_grad=True)
yb = F.conv2d(xb, wb)
yb.square().sum().backward()
wd = wb.detach().double().requires_grad_()
F.conv2d(xb.double(), wd).square().sum().backward()
print(round(yb.sum().item(), 1), torch.allclose(wb.grad.double(), wd.grad, rtol=1e-4, atol=1e-2))

def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)

err(lambda: F.conv2d(torch.randn(1, 4, 10, 10), torch.randn(8, 3, 3, 3)))
err(lambda: F.conv2d(torch.randn(1, 3, 2, 2), torch.randn(8, 3, 3, 3)))
err(lambda: F.conv2d(torch.randn(10), torch.randn(8, 3, 3, 3)))
err(lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(8, 3, 3, 3), groups=2))
err(lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(8, 3, 3, 3).double()))
err(lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(8, 3, 3, 3), torch.randn(3)))
err(lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(8, 3, 3, 3), stride=0))
err(lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(8, 3, 3, 3), padding=-1))
err(lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(8, 3, 3, 3), padding="same", stride=2))
err(lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(8, 3, 3, 3), padding="foo"))
err(lambda: F.conv_transpose2d(torch.randn(1, 3, 5, 5), torch.randn(4, 2, 3, 3)))
err(lambda: F.conv_transpose2d(torch.randn(1, 3, 5, 5), torch.randn(3, 2, 3, 3),
                               output_padding=2))
err(lambda: F.conv1d(torch.randn(2, 3, 5), torch.randn(4, 3, 3, 3)))
print(tuple(F.conv2d(torch.randn(0, 3, 5, 5), torch.randn(4, 3, 3, 3)).shape))

"""The loops made fast in one pass over the slow kernels give PyTorch
1.13's bits at 1 and 2 threads: comparisons (dense, broadcast row, scalar,
strided; float32, float64, int64, bool), clamp (NaN inputs, one-sided,
-0.0), abs, mse_loss forward and backward (each reduction), and the SLEEF
maps split across threads (sin, cos, erf, tan, expm1; sinh and cosh
contiguous and below PyTorch's grain). Shapes
cover empty, 1-element, lengths around the vector widths, views and a
tensor large enough to split."""
import hashlib

import torch
import torch.nn.functional as F


def h(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    return hashlib.md5(t.numpy().tobytes()).hexdigest()[:10]


special = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0, -1.0, 0.5, 1e-40, 3e38]


def inputs(dt):
    torch.manual_seed(1)
    xs = []
    for n in [0, 1, 3, 7, 8, 15, 16, 17, 33, 63, 64, 65, 1000, 70001]:
        xs.append(torch.randn(n).to(dt) * 2)
    x = (torch.randn(37, 45) * 2).to(dt)
    xs += [x.t(), x[::2, 3:40], x[:, :1].expand(37, 45), x[5]]
    xs.append(torch.tensor(special).to(dt))
    xs.append((torch.randn(512, 1031) * 3).to(dt))
    return xs


def run():
    out = []
    for dt in (torch.float32, torch.float64):
        for x in inputs(dt):
            w = (x.flatten()[-1:] if x.numel() else torch.zeros(1, dtype=dt))
            r = [x == w, x != x.flip(-1) if x.dim() else x != x, x < 0.5, x >= w, x > x * 0.999,
                 x <= 0, x.clamp(-1, 1), x.clamp(min=0), x.clamp(max=-0.0), x.clamp(-0.0, 0.0),
                 x.abs(), x.sin(), x.cos(), x.erf(), x.tan(), torch.expm1(x)]
            # sinh/cosh: libm past the last whole vector block of PyTorch's
            # runs, which nndb takes from the contiguous copy (not views')
            # and from the whole tensor (not each thread's part)
            if x.is_contiguous() and x.numel() <= 32768:
                r += [x.sinh(), x.cosh()]
            out.append(" ".join(h(t) for t in r))
            y = x * 0.5 + 0.25
            out.append(" ".join(h(F.mse_loss(x, y, reduction=red)) for red in ("mean", "sum", "none")))
        big = torch.randn(512, 4096).to(dt)
        wb = torch.randn(4096).to(dt)
        wb[::7] = big[3, ::7]
        out.append(" ".join(h(t) for t in [big == wb, big < wb, wb > big, big == big.t().t(),
                                           big.clamp(-1, 1), big.sin(), big.erf(), big.abs(),
                                           F.mse_loss(big, big * 0.5)]))
    xi = torch.randint(-5, 5, (70001,))
    out.append(" ".join(h(t) for t in [xi == 3, xi < xi.flip(0), xi.clamp(-2, 2), xi.abs(),
                                       xi.bool() == xi.flip(0).bool(), xi > 2.5]))
    return out


for threads in (1, 2):
    torch.set_num_threads(threads)
    out = run()
    print(threads, hashlib.md5("".join(out).encode()).hexdigest()[:12])
    if threads == 1:
        first = out
    elif out != first:
        print("thread bits differ", [i for i, (p, q) in enumerate(zip(first, out)) if p != q])

for dt in (torch.float32, torch.float64):
    torch.manual_seed(2)
    x = torch.randn(300, 70, dtype=dt, requires_grad=True)
    t = torch.randn(300, 70, dtype=dt, requires_grad=True)
    for red in ("mean", "sum", "none"):
        x.grad = t.grad = None
        l = F.mse_loss(x, t, reduction=red)
        (l.sum() * 1.5 if red == "none" else l * 1.5).backward()
        print("mse grad", red, h(l), h(x.grad), h(t.grad))
    x.grad = None
    F.mse_loss(x, t[0].expand(300, 70)).backward()
    print("mse bc grad", h(x.grad))
    x.grad = None
    x.clamp(-0.5, 0.7).sum().backward()
    print("clamp grad", h(x.grad))
print((torch.tensor([1.0, float("nan"), -3.0]).clamp(-1, 1)))

# average pooling: 2x2 windows with stride 2 all inside take a loop of
# their own; the other geometries the general one
torch.manual_seed(3)
for threads in (1, 2):
    torch.set_num_threads(threads)
    res = []
    for dt in (torch.float32, torch.float64):
        im = (torch.randn(4, 8, 13, 18) * 3).to(dt)
        im[0, 0, 0, 0] = float("nan")
        im[1, 1, 2, 3] = float("inf")
        big = torch.randn(16, 64, 32, 32).to(dt)
        r = [F.avg_pool2d(im, 2), F.avg_pool2d(im, 2, ceil_mode=True),
             F.avg_pool2d(im, 2, divisor_override=3), F.avg_pool2d(im[:, :, 1:, 1:], 2),
             F.avg_pool2d(im.transpose(2, 3), 2), F.avg_pool2d(im, 2, 2, 1),
             F.avg_pool2d(im, 2, 2, 1, count_include_pad=False), F.avg_pool2d(im, (2, 3)),
             F.avg_pool2d(im[:, :, :2, :2], 2), F.avg_pool2d(big, 2),
             F.avg_pool3d(im[:, :, None], (1, 2, 2)),
             F.avg_pool3d(torch.stack([im, im * 0.5], 2), 2, 2, (1, 0, 0)),
             F.avg_pool1d(im[0], 2)]
        res.append(" ".join(h(t) for t in r))
    print("avg_pool", threads, hashlib.md5(" ".join(res).encode()).hexdigest()[:12])
x = torch.randn(2, 3, 6, 6, dtype=torch.float64, requires_grad=True)
F.avg_pool2d(x, 2).pow(2).sum().backward()
print("avg_pool grad", h(x.grad))

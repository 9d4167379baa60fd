# any/all along dims (the engine's reduction with an early exit per row)
# and the sums of bool and small integer tensors (read in their own type,
# int64 result) give PyTorch's values and dtypes: float32/float64 (NaN is
# true, -0.0 false), integers, uint8 (kept uint8), bool, float16;
# contiguous, transposed and strided; keepdim; empty dims; 1 and 2 threads.
import hashlib

import torch


def h(ts):
    s = ";".join(f"{t.dtype}{tuple(t.shape)}{t.flatten().tolist()}" for t in ts)
    return hashlib.md5(s.encode()).hexdigest()[:12]


def make(g, dt, *shape, dens=0.5):
    u = torch.rand(*shape, generator=g)
    v = torch.randn(*shape, generator=g)
    v[u > dens] = 0
    if dt.is_floating_point:
        x = v.to(dt)
        if x.numel() > 3:
            x.view(-1)[1] = float("nan")
            x.view(-1)[2] = -0.0
        return x
    if dt == torch.bool:
        return v != 0
    return (v * 10).round().to(dt)


def cases(dt):
    g = torch.Generator().manual_seed(7)
    out = []
    for shape in [(3, 7), (7, 3), (5, 130), (64, 40), (31, 257), (2, 3, 40), (9, 17, 11),
                  (64, 1000), (300, 129), (3, 40000)]:
        for dens in (0.0, 0.02, 0.5, 0.98, 1.0):
            x = make(g, dt, *shape, dens=dens)
            for d in range(len(shape)):
                out += [x.any(d), x.all(d), x.any(d, keepdim=True), x.all(-1 - d, keepdim=True)]
            out += [x.any(), x.all(), x.sum(), x.t().any(0) if x.dim() == 2 else x.any(1)]
            if not dt.is_floating_point:
                out += [x.sum(0), x.sum(-1), x.sum(-1, keepdim=True)]
    x = make(g, dt, 50, 70)
    out += [x.t().any(1), x.t().all(0), x[:, ::3].any(1), x[::2].all(1), x[5:, 7:].any(0)]
    out += [make(g, dt, 0, 5).any(1), make(g, dt, 0, 5).all(1), make(g, dt, 0, 5).all(0),
            make(g, dt, 4, 0, 3).any(1, keepdim=True), make(g, dt, 1).reshape(()).all(0)]
    return out


for threads in (1, 2):
    torch.set_num_threads(threads)
    for dt in (torch.float32, torch.float64, torch.float16, torch.int64, torch.int32,
               torch.int16, torch.int8, torch.uint8, torch.bool):
        res = cases(dt)
        print(threads, dt, len(res), sorted({str(v.dtype) for v in res}), h(res))

torch.manual_seed(0)
x = torch.randn(512, 4096)
print((x > 0).any(1).sum().item(), (x > -3).all(1).sum().item(), (x > 0).sum().item(),
      (x > 0).sum(1)[:5].tolist(), (x > 0).sum(0, keepdim=True).shape)
b = torch.ones(70001, dtype=torch.bool)
print(b.sum().item(), b.sum().dtype, torch.ones(3, 70001, dtype=torch.int8).mul(-3).sum().item(),
      torch.full((300, 300), 200, dtype=torch.uint8).sum().item())
w = torch.full((5, 3), 2**62)
print(w.sum().item(), w.sum(0).tolist(), w.sum(1, keepdim=True).tolist(),
      torch.arange(10).view(2, 5).t().sum(1).tolist(), torch.arange(-50, 50).view(10, 10)[::3].sum(0).tolist())

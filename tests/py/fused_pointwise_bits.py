"""addcmul, addcdiv, lerp (scalar and tensor weight) and add/sub with
alpha give PyTorch 1.13's bits with its fused multiply-adds, forward and
backward, float32 and float64, at 1 and 2 threads: dense rows (the
vectorised loops), a broadcast weight, strided views (transposed, sliced,
expanded), NaN/inf, empty and 1-element tensors, and a tensor large
enough to split across threads."""
import hashlib

import torch


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:10]


def ops(a, b, c):
    r = [
        torch.addcmul(a, b, c),
        torch.addcmul(a, b, c, value=0.3),
        torch.addcdiv(a, b, c),
        torch.addcdiv(a, b, c, value=-1.7),
        torch.lerp(a, b, 0.3),
        torch.lerp(a, b, 0.7),
        # a tensor weight of 0.5 or more: PyTorch 1.13's bits are not
        # matched there (docs/language.md), before or after the fast loops
        torch.lerp(a, b, c.clamp(-0.49, 0.49)),
        torch.add(a, b, alpha=2.5),
        torch.sub(a, b, alpha=0.1),
    ]
    return " ".join(h(t) for t in r)


special = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5, 1e-38, 3e38])
for threads in (1, 2):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    out = []
    for dt in (torch.float32, torch.float64):
        for n in [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1000, 70001, 400003]:
            a, b, c = (torch.randn(n) * 3).to(dt), (torch.randn(n) * 3).to(dt), torch.randn(n).to(dt)
            out.append(ops(a, b, c))
        x = torch.randn(37, 45).to(dt)
        y = torch.randn(45, 37).to(dt)
        w = torch.rand(45).to(dt) * 1.2 - 0.1
        out.append("t " + ops(x, y.t(), x * 0.5))
        out.append("bc " + ops(x, x * 2, w))
        out.append("bc1 " + ops(x[:, :1], x * 2, w))
        out.append("sl " + ops(x[::2, 3:40], y.t()[::2, 5:42], x[:19, ::3].repeat(1, 3)[:, :37]))
        out.append("ex " + ops(w.expand(37, 45), x, x.t().contiguous().t()))
        s = special.to(dt)
        g = torch.stack(torch.meshgrid(s, s, indexing="ij")).reshape(2, -1)
        out.append("sp " + ops(g[0], g[1], g[0].flip(0)))
        out.append("sp2 " + ops(g[1], g[0], g[1] * 0.25))
        big = torch.randn(512, 1024).to(dt)
        out.append("big " + ops(big, big * 0.5 + 1, big.sin()))
    print(threads, hashlib.md5("".join(out).encode()).hexdigest()[:12])
    if threads == 1:
        first = out
    else:
        for i, (p, q) in enumerate(zip(first, out)):
            if p != q:
                print("thread bits differ", i, p, q)

for dt in (torch.float32, torch.float64):
    a = torch.randn(5, 6, dtype=dt, requires_grad=True)
    b = torch.randn(5, 6, dtype=dt, requires_grad=True)
    c = torch.rand(6, dtype=dt, requires_grad=True)
    (torch.addcmul(a, b, c, value=0.7) * torch.arange(30.0).reshape(5, 6)).sum().backward()
    print("addcmul grad", h(a.grad), h(b.grad), h(c.grad))
    for t in (a, b, c):
        t.grad = None
    torch.addcdiv(a, b, c + 1, value=-0.3).sum().backward()
    print("addcdiv grad", h(a.grad), h(b.grad), h(c.grad))
    for t in (a, b, c):
        t.grad = None
    torch.lerp(a, b, c * 0.4).pow(2).sum().backward()
    print("lerp grad", h(a.grad), h(b.grad), h(c.grad))
print(torch.addcmul(torch.ones(3, dtype=torch.int64), torch.arange(3), torch.arange(3), value=2))
print(torch.lerp(torch.zeros(2), torch.ones(2), 0.25))

"""F.silu / nn.SiLU give PyTorch 1.13's bits, forward and backward, float32
and float64: x / (1 + exp(-x)) with SLEEF's exp on whole vector blocks and
libm's on the rest, and the backward g * s * (1 + x (1 - s)) with its
multiply-add fused. Hashes over lengths around the vector widths, views,
and a large tensor split across threads."""
import hashlib

import torch
import torch.nn.functional as F


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:10]


torch.manual_seed(0)
for threads in (1, 2):
    torch.set_num_threads(threads)
    out = []
    for n in list(range(1, 40)) + [100, 1000, 4099, 70001]:
        for dt in (torch.float32, torch.float64):
            x = (torch.randn(n) * 4).to(dt).requires_grad_()
            y = F.silu(x)
            y.backward(torch.randn(n).to(dt))
            out.append(h(y) + h(x.grad))
    print(threads, hashlib.md5("".join(out).encode()).hexdigest()[:12])
x = torch.randn(6, 40) * 3
print("views", h(F.silu(x[:, 5:30])), h(F.silu(x.t())), h(F.silu(x[::2])))
m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.SiLU(), torch.nn.Linear(16, 1))
x = torch.randn(32, 8)
m(x).sum().backward()
print("mlp", h(m[0].weight.grad))

# The backward with a gradient and an input of different layouts or a
# strided input (PyTorch's scalar op throughout, libm's exp), with rows of a
# view (each row vectorised with its own tail) and with an expanded
# gradient (one value for all, vectorised): PyTorch's bits and strides
g = torch.Generator().manual_seed(1)
for threads in (1, 2):
    torch.set_num_threads(threads)
    for dt in (torch.float32, torch.float64):
        for shape in [(37, 53), (300, 257)]:
            base = torch.randn(*shape, generator=g, dtype=dt) * 4
            go = torch.randn(*shape[::-1], generator=g, dtype=dt)
            cases = {
                "x.t, g": (base.t(), go),
                "x, g.t": (base.t().contiguous(), go.t().contiguous().t()),
                "x.t, g.t": (base.t(), go.t().contiguous().t()),
                "x[:, ::2]": (base[:, ::2], torch.randn(shape[0], (shape[1] + 1) // 2, generator=g,
                                                        dtype=dt)),
                "x[:, :29]": (base[:, :29], torch.randn(shape[0], 29, generator=g, dtype=dt)),
                "g column expanded": (base, torch.randn(shape[0], 1, generator=g,
                                                        dtype=dt).expand(*shape)),
            }
            for name, (x, gg) in cases.items():
                x = x.detach().requires_grad_()
                F.silu(x).backward(gg)
                print(threads, dt, shape, name, h(x.grad.double()), x.grad.stride())
            for name, x in (("expanded", base), ("expanded x.t", base.t()),
                            ("expanded x[:, :29]", base[:, :29])):
                x = x.detach().requires_grad_()
                (F.silu(x).sum() * 2.5).backward()
                print(threads, dt, shape, name, h(x.grad.double()), x.grad.stride())

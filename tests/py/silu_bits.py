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

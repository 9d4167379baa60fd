"""F.layer_norm of float32 rows gives PyTorch 1.13's bits: its row moments
(Welford in 8 lanes over chunks of 16 vectors, merged in a cascade, the
row's tail by scalar Welford; ops_rows.c, ln_row_moments) and its output
(x * rstd + (-rstd * mean)) * w + b. Hashes of the outputs over row
lengths 1 to 300 and some long ones, with and without weight and bias,
rows with a large mean, and nn.LayerNorm over two dims."""
import hashlib

import torch
import torch.nn.functional as F


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


torch.manual_seed(0)
lines = []
for n in list(range(1, 301)) + [383, 512, 768, 1000, 1024, 2048, 3072, 4099, 8192]:
    x = torch.randn(5, n) * 3 + 0.5
    w, b = torch.randn(n), torch.randn(n)
    lines.append(f"{n} {h(F.layer_norm(x, (n,)))} {h(F.layer_norm(x, (n,), w, b))} "
                 f"{h(F.layer_norm(x, (n,), w))} {h(F.layer_norm(x, (n,), None, b, 1e-3))}")
for i in range(0, len(lines), 20):
    print(hashlib.md5("".join(lines[i:i + 20]).encode()).hexdigest()[:12], lines[i].split()[0])
x = torch.randn(4, 300) * 0.01 + 1000.0
print("large mean", h(F.layer_norm(x, (300,))))
ln = torch.nn.LayerNorm([6, 10])
print("two dims", h(ln(torch.randn(3, 6, 10))))
print("gpt shape", h(F.layer_norm(torch.randn(2, 64, 768), (768,))))

for threads in (1, 2):
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    out = []
    for n in [1, 3, 7, 8, 9, 20, 64, 100, 257, 768]:
        for m in [1, 5, 64, 300]:
            x = (torch.randn(m, n) * 2 + 0.5).requires_grad_()
            w = torch.randn(n, requires_grad=True)
            b = torch.randn(n, requires_grad=True)
            F.layer_norm(x, (n,), w, b).backward(torch.randn(m, n))
            x2 = x.detach().clone().requires_grad_()
            F.layer_norm(x2, (n,)).backward(torch.randn(m, n))
            out.append(h(x.grad) + h(w.grad) + h(b.grad) + h(x2.grad))
    print("backward", threads, hashlib.md5("".join(out).encode()).hexdigest()[:12])

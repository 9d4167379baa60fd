# sum and mean of float32/float64 tensors give PyTorch's bits (and var/std
# over every element, and the pointwise losses): its float
# cascade over vectors of 8 floats / 4 doubles, the iterator's dim order
# and merging, and its split across threads (2 and 3 here) from 32768 elements
# (engine/ops/ops_sum.c). Each line is a hash of the results' bits, so any
# last-bit difference shows.
import hashlib
import struct

import torch


def h(t):
    v = t.detach().double().flatten().tolist()
    return hashlib.md5(struct.pack(f"{len(v)}d", *v)).hexdigest()[:12]


def cases(dt):
    g = torch.Generator().manual_seed(3)

    def r(*shape):
        return (torch.randn(*shape, generator=g, dtype=dt) * 3 + 1)

    out = []
    # full sums over every length up to 300 and some past the cascade's steps
    for n in list(range(0, 300)) + [511, 512, 1000, 4097, 65535, 65536, 70001, 1 << 18]:
        x = r(n)
        out.append(x.sum())
        out.append(x.mean())
    # along each dim of 2-D and 3-D tensors, keepdim, several dims
    for shape in [(3, 7), (7, 3), (5, 33), (64, 40), (31, 257), (128, 300), (2, 3, 40),
                  (9, 17, 11), (4, 12, 256), (64, 1000), (300, 129), (40000, 3)]:
        x = r(*shape)
        out.append(x.sum())
        for d in range(len(shape)):
            out.append(x.sum(d))
            out.append(x.mean(d, keepdim=True))
        if len(shape) == 3:
            out.append(x.sum((0, 2)))
            out.append(x.sum((0, 1)))
            out.append(x.mean((1, 2)))
    # views: transposed, sliced, stepped, expanded
    x = r(50, 70)
    out += [x.t().sum(0), x.t().sum(1), x[:, ::3].sum(), x[::2].sum(1), x[5:, 7:].sum(0)]
    out += [x.t().sum(), x[:, 1].sum(), r(1, 30).expand(20, 30).sum(0)]
    y = r(6, 7, 8, 9)
    out += [y.permute(2, 0, 3, 1).sum((1, 3)), y.sum((0, 3)), y.transpose(1, 2).sum(-1)]
    # a loss as learners write it, and F.mse_loss / l1_loss reductions
    p, t = r(64, 10), r(64, 10)
    out += [((p - t) ** 2).mean(), (p - t).abs().mean(), p.sum(-1).mean()]
    out += [torch.nn.functional.mse_loss(p, t), torch.nn.functional.l1_loss(p, t),
            torch.nn.functional.mse_loss(p, t, reduction="sum"),
            torch.nn.functional.mse_loss(p, t, reduction="none")]
    # binary cross-entropy: PyTorch's element formula in the tensor's type
    q = torch.rand(64, 10, generator=g, dtype=dt)
    y = (torch.rand(64, 10, generator=g, dtype=dt) > 0.5).to(dt)
    q[0, :3] = torch.tensor([0.0, 1.0, 1e-30], dtype=dt)
    for red in ("mean", "sum", "none"):
        out += [torch.nn.functional.binary_cross_entropy(q, y, reduction=red),
                torch.nn.functional.binary_cross_entropy_with_logits(p, y, reduction=red)]
    out += [torch.nn.functional.binary_cross_entropy_with_logits(p * 40, q)]
    # var and std over every element: the mean in the input's type, then
    # squared deviations summed in double (PyTorch's all-dims kernel)
    for n in list(range(0, 70)) + [4097, 40000, 100001]:
        x = r(n)
        out += [x.var(), x.std(), x.var(unbiased=False), x.std(unbiased=False)]
    y = r(30, 40)
    out += [y.std(), y.t().var(), y[:, ::3].var(), y.reshape(1, 1200).std(dim=1),
            y.std(dim=(0, 1), keepdim=True)]
    return out


for threads in (1, 2, 3):
    torch.set_num_threads(threads)
    for dt in (torch.float32, torch.float64):
        res = cases(dt)
        print(threads, dt, len(res), h(torch.stack([v.flatten()[:1].double().sum()
                                                    if v.numel() else torch.zeros((), dtype=torch.float64)
                                                    for v in res])))
        for i, v in enumerate(res):
            print(" ", i, tuple(v.shape), h(v))

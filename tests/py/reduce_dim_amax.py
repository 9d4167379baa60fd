# amax/amin along dims give PyTorch 1.13's bits: its NaN (the canonical
# +NaN from the scalar op, all-ones from AVX2's vector op in a contiguous
# outer reduction's columns of 32 floats / 16 doubles), the sign of a zero
# between 0.0 and -0.0, for float32/float64, integers and bool, contiguous,
# transposed and strided, keepdim, several dims, at 1 and 2 threads
# (engine/ops/ops_sum.c); and their gradient, split evenly among ties (NaN
# where the result is NaN). Each line hashes the results' bits.
import hashlib
import struct

import torch


def h(vals):
    b = b"".join(struct.pack(f"{len(v)}d", *v) for v in vals)
    return hashlib.md5(b).hexdigest()[:12]


def bits(t):
    return t.detach().flatten().tolist() if t.dtype.is_floating_point else \
        [float(v) for v in t.flatten().tolist()]


def r(g, dt, *shape):
    x = torch.randn(*shape, generator=g, dtype=torch.float64)
    if dt.is_floating_point:
        x = x.to(dt)
        n = x.numel()
        if n:
            # NaNs, infinities, zeros of both signs and ties
            idx = torch.randint(0, n, (max(1, n // 50),), generator=g)
            flat = x.view(-1)
            flat[idx[0::5]] = float("nan")
            flat[idx[1::5]] = float("inf")
            flat[idx[2::5]] = -float("inf")
            flat[idx[3::5]] = 0.0
            flat[idx[4::5]] = -0.0
        return x
    if dt == torch.bool:
        return x > 0.5
    lo, hi = (0, 255) if dt == torch.uint8 else (-100, 100)
    return torch.randint(lo, hi, shape, generator=g).to(dt)


def zeros_mix(g, dt, *shape):
    # only zeros of both signs and a few ones: the sign of the result's zero
    x = torch.zeros(*shape, dtype=dt)
    s = torch.rand(*shape, generator=g) < 0.5
    x[s] = -0.0
    return x


def cases(dt):
    g = torch.Generator().manual_seed(5)
    out = []
    for n in [1, 2, 7, 31, 32, 33, 64, 100, 257, 1000, 4097, 40000, 70001]:
        x = r(g, dt, n)
        out += [x.amax(), x.amin(), x.amax(0), x.amin(-1, keepdim=True)]
    shapes = [(3, 7), (7, 3), (5, 33), (64, 40), (31, 257), (128, 300), (2, 3, 40), (9, 17, 11),
              (4, 12, 256), (64, 1000), (300, 129), (40000, 3), (3, 40000), (512, 96)]
    for shape in shapes:
        x = r(g, dt, *shape)
        out.append(x.amax())
        for d in range(len(shape)):
            out += [x.amax(d), x.amin(d), x.amax(d, keepdim=True)]
        if len(shape) == 3:
            out += [x.amax((0, 2)), x.amin((0, 1)), x.amax((1, 2), keepdim=True), x.amin((2, 0))]
    x = r(g, dt, 50, 70)
    out += [x.t().amax(0), x.t().amax(1), x[:, ::3].amin(), x[::2].amax(1), x[5:, 7:].amin(0)]
    out += [x.t().amax(), x[:, 1].amax(0), r(g, dt, 1, 30).expand(20, 30).amax(0)]
    y = r(g, dt, 6, 7, 8, 9)
    out += [y.permute(2, 0, 3, 1).amax((1, 3)), y.amin((0, 3)), y.transpose(1, 2).amax(-1)]
    out += [r(g, dt, 0, 5).amax(1), r(g, dt, 4, 0, 3).amin(2, keepdim=True), r(g, dt, 1).reshape(()).amax(),
            r(g, dt, 1).reshape(()).amin(0), r(g, dt, 1, 1).amax(0), r(g, dt, 5, 1, 3).amax(1)]
    if dt.is_floating_point:
        for shape in [(64, 40), (40, 64), (256,), (33, 65), (1000, 70), (5, 96), (3, 160), (7, 224),
                      (9, 480), (2, 4100)]:
            z = zeros_mix(g, dt, *shape)
            for d in range(len(shape)):
                out += [z.amax(d), z.amin(d)]
            out += [z.amax(), z.amin()]
    return out


for threads in (1, 2):
    torch.set_num_threads(threads)
    for dt in (torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.int8,
               torch.uint8, torch.bool):
        res = cases(dt)
        print(threads, dt, len(res), [tuple(v.shape) for v in res][-3:],
              {v.dtype for v in res} == {dt}, h([bits(v) for v in res]))

# the NaN's sign as PyTorch gives it: outer columns of 32 vectorised, the rest scalar
x = torch.randn(64, 100)
x[3, 5] = x[7, 40] = x[9, 99] = float("nan")
print([struct.pack("f", v).hex() for v in x.amax(0)[[5, 40, 99]].tolist()])
print([struct.pack("f", v).hex() for v in x.amax(1)[[3, 7, 9]].tolist()])
print([struct.pack("f", v).hex() for v in x.t().amin(1)[[5, 40, 99]].tolist()])

# errors
for f in (lambda: torch.empty(0, 3).amax(0), lambda: torch.empty(0).amax(),
          lambda: torch.empty(0, 3).amin((1, 0)), lambda: torch.ones(2, 3).amax((0, 0)),
          lambda: torch.ones(2, 3).amax(2)):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)

# gradients: PyTorch's (g / count) * (x == result), NaN where the result is NaN
for dt in (torch.float32, torch.float64):
    g = torch.Generator().manual_seed(1)
    grads = []
    for shape, dims, keep in [((6, 8), 1, False), ((6, 8), 0, True), ((4, 5, 6), (0, 2), False),
                              ((4, 5, 6), (), False), ((7,), 0, False), ((), (), True),
                              ((3, 40), -1, True)]:
        for fn in (torch.amax, torch.amin):
            x = torch.randint(-2, 3, shape, generator=g).to(dt)  # many ties
            if x.numel() > 4:
                x.view(-1)[3] = float("nan")
            x.requires_grad_(True)
            y = fn(x, dims, keep)
            w = torch.randn(y.shape, generator=g, dtype=dt)
            (y * w).sum().backward()
            grads.append(x.grad)
            print(dt, shape, dims, fn.__name__, y.grad_fn.name() if hasattr(y.grad_fn, "name")
                  else type(y.grad_fn).__name__)
    print(dt, h([bits(v) for v in grads]))
    # a finite-difference check where there are no ties
    x = torch.randn(5, 7, dtype=torch.float64, generator=g, requires_grad=True)
    print(torch.autograd.gradcheck(lambda t: t.amax(1), (x,)),
          torch.autograd.gradcheck(lambda t: t.amin((0, 1)), (x,)))

"""The fast reduction and scan kernels keep their bits: max/min/argmax/argmin
(values and indices) along a dim, amax/amin, logsumexp, norm, cumsum and
cumprod (and cumsum's gradient), var/std along dims and integer prod, over shapes
that take each path (a row reduction, a column reduction, the tails of a
vector, a split across threads), views (transposed, sliced, expanded),
float32/float64/int64/bool, empty and one-element tensors, NaN, inf and
signed zeros, at 1 and 2 threads. Each line is a hash of a result's bits,
compared line for line with PyTorch (engine/ops/ops_reduce.c, ops_scan.c,
ops_sum.c)."""
import hashlib

import torch


def h(t):
    if isinstance(t, (tuple, list)):
        return " ".join(h(u) for u in t)
    t = t.detach().contiguous()
    return hashlib.md5(t.numpy().tobytes()).hexdigest()[:10] + str(tuple(t.shape))


def nan_free(t):
    """A result whose NaNs are printed as a mask: PyTorch's amax over an
    outer dim makes NaNs with other sign bits than the input's."""
    return h(torch.where(t != t, torch.zeros_like(t), t)) + " " + h(t != t)


g = torch.Generator().manual_seed(7)


def inputs():
    for dt in (torch.float32, torch.float64):
        for shape in [(512, 1024), (96, 4100), (3, 5, 7), (1, 1), (1,), (37,), (17, 1000),
                      (4, 300, 3), (2, 33, 65), (0, 4), (4, 0), (9, 15), (6, 31)]:
            x = torch.randn(*shape, generator=g, dtype=dt) * 3
            yield f"{dt} {shape}", x
            if x.ndim >= 2:
                yield f"{dt} {shape} T", x.transpose(0, -1)
                yield f"{dt} {shape} sl", x[..., ::2]
        x = torch.randn(64, 100, generator=g, dtype=dt)
        x[3, 7] = float("nan")
        x[5, 0] = float("nan")
        x[6, 50] = float("inf")
        x[7, :] = float("-inf")
        x[8, :] = float("inf")
        x[9, 3] = -0.0
        x[10, :] = 0.0
        x[10, 5] = -0.0
        x[11, :] = -0.0
        x[11, 9] = 0.0
        x[12, ::3] = 2.5
        x[13, 40:] = 2.5
        yield f"{dt} special", x
        yield f"{dt} special T", x.t()
        yield f"{dt} expanded", torch.randn(8, 1, generator=g, dtype=dt).expand(8, 50)
        yield f"{dt} 0-dim", torch.tensor(1.5, dtype=dt)
    yield "int64", torch.randint(-50, 50, (33, 70), generator=g)
    yield "int64 T", torch.randint(-50, 50, (33, 70), generator=g).t()
    yield "int64 big", torch.randint(-1000, 1000, (400, 1100), generator=g)
    yield "bool", torch.rand(20, 30, generator=g) > 0.5


def run(op, x, d):
    if op == "max":
        return tuple(x.max(d))
    if op == "min":
        return tuple(x.min(d))
    if op == "argmax":
        return x.argmax(d)
    if op == "argmin":
        return x.argmin(d)
    if op == "amax":
        return nan_free(x.amax(d)) if x.is_floating_point() else h(x.amax(d))
    if op == "amin":
        return nan_free(x.amin(d)) if x.is_floating_point() else h(x.amin(d))
    if op == "lse":
        r = torch.logsumexp(x, d)
        return nan_free(r)
    if op == "lse_keep":
        return nan_free(torch.logsumexp(x, d, keepdim=True))
    if op == "norm":
        return x.norm(dim=d)
    if op == "norm_all":
        return x.norm()
    if op == "cumsum":
        return x.cumsum(d)
    if op == "cumprod":
        return (x * 0.01 + 1).cumprod(d) if x.is_floating_point() else x.cumprod(d)
    if op == "var":
        return x.var(d)
    if op == "std":
        return x.std(d, unbiased=False, keepdim=True)
    if op == "prod":
        return (x * 0.001 + 1).prod(d) if x.is_floating_point() else x.prod(d)
    raise ValueError(op)


FLOAT_ONLY = {"lse", "lse_keep", "norm", "norm_all", "var", "std"}
NO_BOOL = {"argmax", "argmin"}
# norm's fast path follows PyTorch's order over the last dims of a
# contiguous tensor as far as it is known (float32 rows of 8 or more; see
# norm2_runs in ops_reduce.c); other layouts keep a double sum
SAME_ORDER_ONLY = {"norm", "norm_all"}
for threads in (1, 2):
    torch.set_num_threads(threads)
    for name, x in inputs():
        for op in ["max", "min", "argmax", "argmin", "amax", "amin", "lse", "lse_keep", "norm",
                   "norm_all", "cumsum", "cumprod", "var", "std", "prod"]:
            if op in FLOAT_ONLY and not x.is_floating_point():
                continue
            if op in NO_BOOL and x.dtype == torch.bool:
                continue
            dims = [None] if op == "norm_all" else (range(x.ndim) if x.ndim else [0])
            if op in SAME_ORDER_ONLY and not (x.is_contiguous() and x.dtype == torch.float32
                                              and x.ndim and x.shape[-1] >= 8):
                continue
            if op == "norm":  # the vector order of PyTorch's last-dim kernel
                dims = [x.ndim - 1] if x.ndim else []
            if op in ("var", "std") and x.numel() == 0:
                continue
            if op == "prod" and x.is_floating_point():
                continue  # integers only: the float order is not PyTorch's
            for d in dims:
                try:
                    r = run(op, x, d)
                    s = r if isinstance(r, str) else h(r)
                except (RuntimeError, IndexError, ValueError):
                    s = "error"  # (nndb's type for an empty dim differs)
                print(threads, name, op, d, s)
    # logsumexp over several dims and of integers (computed in float32)
    for dt in (torch.float32, torch.float64):
        y = torch.randn(6, 4, 3000, generator=g, dtype=dt) * 5
        print(threads, h(torch.logsumexp(y, (0, 2))), h(torch.logsumexp(y, (1, 2))),
              h(torch.logsumexp(y.transpose(1, 2), 1)), h(torch.logsumexp(y * 30, 2)))
        y = torch.randn(1, 70000, generator=g, dtype=dt)
        print(threads, h(torch.logsumexp(y, 1)), h(torch.logsumexp(y, (0, 1))))
    xi = torch.randint(-20, 20, (50, 300), generator=g)
    print(threads, h(torch.logsumexp(xi, 1)), h(torch.logsumexp(xi.t(), 0)),
          h(torch.logsumexp(xi > 0, 1)))
    # cumsum's gradient is a reversed cumsum
    for shape, d in [((300, 700), 1), ((300, 700), 0), ((5, 9, 11), 1), ((13,), 0)]:
        y = torch.randn(*shape, generator=g).requires_grad_()
        y.cumsum(d).backward(torch.randn(*shape, generator=g))
        print(threads, "cumsum grad", shape, d, h(y.grad))

# logsumexp's NaN: a slice holding a NaN gives amax's NaN, sign included
# (PyTorch adds the max last, as fmadd(max, 1, log sum), whose NaN is the
# max's), along inner and outer dims, contiguous and transposed
import math  # noqa: E402


def nan_signs(t):
    return "".join(("-" if math.copysign(1, v) < 0 else "+") if math.isnan(v) else "."
                   for v in t.flatten().tolist())


for threads in (1, 2):
    torch.set_num_threads(threads)
    g = torch.Generator().manual_seed(11)
    for shape in [(5, 3), (40, 7), (3, 40), (2, 3, 4), (17, 33), (300, 129)]:
        for dt in (torch.float32, torch.float64):
            x = torch.randn(*shape, generator=g, dtype=dt)
            u = torch.rand(*shape, generator=g)
            x[u < 0.05] = float("nan")
            x[u > 0.95] = -float("nan")
            dims = list(range(len(shape))) + [tuple(range(len(shape)))]
            print(threads, shape, dt, [nan_signs(torch.logsumexp(x, d)) for d in dims],
                  nan_signs(torch.logsumexp(x.transpose(0, 1), 0)), h(torch.logsumexp(x, 0)))

# Strided copies (contiguous(), clone and copy_ of views, dtype casts) and
# the index kernels (topk, sort, median, gather, index_select) over many
# shapes, strides, dtypes and edge cases, at one thread and at two: each
# result is printed as a hash of its bytes, which PyTorch's must equal.
# nndb copies transposes in tiles, casts a block at a time, picks topk's k
# by selection and splits these across threads (engine/nn_tensor.c,
# engine/ops/ops_index.c); none of that may change a bit, a tie's order or
# an error.
import hashlib

import torch


def h(t):
    t = t.detach()
    if t.dtype == torch.bfloat16:  # no numpy dtype; the conversion is exact
        t = t.float()
    return hashlib.sha1(t.contiguous().numpy().tobytes()).hexdigest()[:12]


def show(name, t):
    print(name, tuple(t.shape), t.dtype, h(t))


def err(name, f):
    try:
        f()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0])


DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.int8,
          torch.uint8, torch.bool, torch.float16, torch.bfloat16, torch.complex64,
          torch.complex128]


def base(shape, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=g) * 50
    x.view(-1)[::7] = torch.tensor([0.0, -0.0, 1.5, -2.5, 100.0, 126.0, -127.0])[
        torch.arange(x.view(-1)[::7].numel()) % 7]
    return x


def views(x):
    """A tensor's views whose copies take different paths."""
    out = [("t", x.t()), ("slice", x[1::3, ::2]), ("tslice", x.t()[::2, 1:]),
           ("rows", x[::2]), ("expand", x[:, :1].expand(-1, 7)), ("col", x[:, 3:4])]
    if x.shape[0] % 4 == 0:
        out.append(("perm3", x.view(4, x.shape[0] // 4, -1).permute(2, 0, 1)))
        out.append(("perm3b", x.view(4, x.shape[0] // 4, -1).permute(1, 2, 0)))
    return out


def copies(threads):
    torch.set_num_threads(threads)
    for shape in [(1, 1), (3, 5), (37, 29), (64, 48), (300, 1030), (1030, 300), (299, 1031)]:
        x = base(shape, shape[0] * 7 + shape[1])
        for dt in DTYPES:
            xd = x.to(dt)
            for name, v in views(xd):
                show(f"{threads} {shape} {dt} {name} contiguous", v.contiguous())
                show(f"{threads} {shape} {dt} {name} clone", v.clone())
            dst = torch.zeros(shape[1], shape[0], dtype=dt)
            dst.t().copy_(xd)
            show(f"{threads} {shape} {dt} copy_ into t", dst)
            show(f"{threads} {shape} {dt} reshape t", xd.t().reshape(-1))
        # casts between every pair, from a transposed and a contiguous source
        if shape in [(37, 29), (300, 1030)]:
            for a in DTYPES:
                xa = x.to(a)
                for b in DTYPES:
                    if a.is_complex and not b.is_complex:
                        continue  # a warning, not a value
                    show(f"{threads} {shape} {a}->{b}", xa.to(b))
                    show(f"{threads} {shape} {a}->{b} t", xa.t().to(b).contiguous())
    for shape in [(0, 5), (5, 0), ()]:
        z = torch.zeros(shape)
        show(f"{threads} {shape} empty t", z.t().contiguous() if z.dim() == 2 else z.clone())
    s = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 3e9, -3e9, 0.5, -0.5])
    # (no bfloat16: PyTorch's NaN is 0x7FC0 or 0xFFFF by the kernel it takes)
    for dt in [torch.float64, torch.float16, torch.bool, torch.int64, torch.int32]:
        show(f"{threads} special ->{dt}", s.to(dt))
    big = torch.tensor([2**53 + 1, -(2**62) - 12345, 2**63 - 1, 123456789012345678])
    for dt in [torch.float32, torch.float64, torch.int32, torch.int8, torch.uint8, torch.bool]:
        show(f"{threads} big int64 ->{dt}", big.to(dt))
    # a 4-d permute with small inner dims, and a long image transpose
    im = base((8, 6, 10, 12), 3).view(8, 6, 10, 12)
    show(f"{threads} nhwc", im.permute(0, 2, 3, 1).contiguous())
    show(f"{threads} nchw", im.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2).contiguous())


def distinct(shape, seed, dt):
    """Values without ties (a permutation, half below zero): their order,
    and so every index topk and sort return, is the same in any kernel."""
    g = torch.Generator().manual_seed(seed)
    n = torch.Size(shape).numel()
    return (torch.randperm(n, generator=g) - n // 2).view(shape).to(dt) * 0.5


def with_ties(shape, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(-4, 5, shape, generator=g).float()


def selects(threads):
    torch.set_num_threads(threads)
    for shape in [(1, 1), (3, 17), (64, 4096), (257, 301)]:
        x = distinct(shape, shape[0] + shape[1], torch.float32)
        nan = x.clone()  # one NaN, inf and -inf per row at most: still no ties
        r = torch.arange(shape[0])
        nan[r, (r * 7) % shape[1]] = float("nan")
        if shape[1] > 2:
            nan[r, (r * 7 + 1) % shape[1]] = float("inf")
            nan[r, (r * 7 + 2) % shape[1]] = -float("inf")
        xs = [("perm", x), ("nan", nan), ("f64", x.double()),
              ("i64", distinct(shape, 6, torch.int64) * 2), ("t", x.t()),
              ("ties", with_ties(shape, 5))]
        for name, v in xs:
            n = v.shape[1]
            tie = name == "ties"
            for k in sorted({0, 1, 2, 3, 10, min(n, 64), n // 2, n - 1, n}):
                if k < 0 or k > n:
                    continue
                for largest in (True, False):
                    for srt in (True, False):
                        a, b = v.topk(k, 1, largest=largest, sorted=srt)
                        ok = v.gather(1, b).equal(a)
                        if not srt:  # PyTorch's order here is its own: compare as sets
                            a, o = a.sort(1, descending=largest)
                            b = b.gather(1, o)
                        # with ties, which index comes first is the kernel's
                        print(threads, shape, name, k, largest, srt, h(a), "-" if tie else h(b), ok)
                a, b = v.topk(min(k, v.shape[0]), 0)
                # (a column of "nan" may hold two NaNs: a tie)
                print(threads, shape, name, k, "dim0", h(a), "-" if tie or name == "nan" else h(b))
            a, b = v.sort(1)
            c, d = v.sort(1, descending=True)
            if tie:
                b = d = torch.zeros(0)
            print(threads, shape, name, "sort", h(a), h(b), h(c), h(d))
            a, b = v.sort(0)
            print(threads, shape, name, "sort0", h(a), "-" if tie or name == "nan" else h(b))
            print(threads, shape, name, "argsort", "-" if tie else h(v.argsort(1)))
            a, b = v.median(1)
            c, d = v.median(0)
            print(threads, shape, name, "median", h(a), h(b), h(c), h(d))
            a, b = v.kthvalue(max(1, n // 3), 1)
            print(threads, shape, name, "kthvalue", h(a), h(b))
    v = distinct((2, 3, 40), 9, torch.float32)
    for d in range(3):
        a, b = v.topk(2, d)
        print(threads, "3d topk", d, h(a), h(b))
        a, b = v.topk(2, d, largest=False)
        print(threads, "3d topk small", d, h(a), h(b))
    for k in (0, 1):
        a, b = torch.tensor(3.5).topk(k)
        print(threads, "0d topk", k, a.item(), b.item())
        a, b = torch.tensor(3.5).sort()
        print(threads, "0d sort", a.item(), b.item())
    a, b = torch.zeros(0).topk(0)
    print(threads, "empty topk", tuple(a.shape), tuple(b.shape))
    err("topk k>n", lambda: torch.zeros(3).topk(4))
    err("topk k<0", lambda: torch.zeros(3).topk(-1))
    x = distinct((6, 8), 4, torch.float32).requires_grad_()
    a, b = x.topk(3, 1)
    a.sum().backward()
    show(f"{threads} topk grad", x.grad)


def indexes(threads):
    torch.set_num_threads(threads)
    for shape in [(1, 1), (5, 7), (64, 33), (512, 4096), (300, 301)]:
        x = base(shape, shape[0] * 3 + shape[1])
        g = torch.Generator().manual_seed(1)
        # (nndb's gather of an int32 or int16 tensor gives int64, and it has
        # no complex gather: not covered here)
        for dt in [torch.float32, torch.float64, torch.int64, torch.bool]:
            xd = x.to(dt)
            i1 = torch.randint(0, shape[1], shape, generator=g)
            i0 = torch.randint(0, shape[0], shape, generator=g)
            show(f"{threads} {shape} {dt} gather1", xd.gather(1, i1))
            show(f"{threads} {shape} {dt} gather0", xd.gather(0, i0))
            show(f"{threads} {shape} {dt} gather1 small",
                 xd.gather(1, i1[: max(1, shape[0] // 2), : max(1, shape[1] // 3)]))
            show(f"{threads} {shape} {dt} gather1 t", xd.t().gather(1, i0.t()))
            show(f"{threads} {shape} {dt} gather1 it", xd.gather(1, i1.t().contiguous().t()))
            show(f"{threads} {shape} {dt} gather1 -1", xd.gather(-1, i1))
            for d in (0, 1):
                n = shape[d]
                for idx in [torch.arange(0, n, 2), torch.randint(0, n, (n + 3,), generator=g),
                            torch.tensor([n - 1]), torch.tensor(n - 1), torch.zeros(0, dtype=torch.long),
                            torch.arange(n - 1, -1, -1)]:
                    show(f"{threads} {shape} {dt} index_select{d} {tuple(idx.shape)}",
                         xd.index_select(d, idx))
                show(f"{threads} {shape} {dt} index_select{d} t", xd.t().index_select(d, torch.arange(0, shape[1 - d], 3)))
    x3 = base((4, 6, 10), 2).view(4, 6, 10)
    g = torch.Generator().manual_seed(2)
    for d in range(3):
        i = torch.randint(0, x3.shape[d], (3, 5, 7), generator=g)
        show(f"{threads} 3d gather{d}", x3.gather(d, i))
        show(f"{threads} 3d index_select{d}", x3.index_select(d, torch.tensor([1, 0, 3, 3])))
    show(f"{threads} 0d gather", torch.tensor(2.5).gather(0, torch.tensor(0)))
    show(f"{threads} 0d index_select", torch.tensor(2.5).index_select(0, torch.tensor([0])))
    x = base((6, 8), 4)
    err("gather oob", lambda: x.gather(1, torch.tensor([[0, 8]])))
    err("gather neg", lambda: x.gather(0, torch.tensor([[0], [-1]])))
    err("gather big oob", lambda: base((512, 4096), 1).gather(1, torch.full((512, 4096), 4096)))
    # Two bad indices far apart: the first in row-major order is named. (Only
    # at one thread: PyTorch's threads race to report theirs.)
    for d in (0, 1) if threads == 1 else ():
        i = torch.zeros(512, 4096, dtype=torch.long)
        i[400, 5] = 5000
        i[100, 4000] = -3
        err(f"gather oob order {d}", lambda: base((512, 4096), 1).gather(d, i))
    err("gather dtype", lambda: x.gather(1, torch.tensor([[0]], dtype=torch.int32)))
    err("gather dims", lambda: x.gather(1, torch.tensor([0])))
    err("gather size", lambda: x.gather(1, torch.zeros(7, 1, dtype=torch.long)))
    err("index_select oob", lambda: x.index_select(1, torch.tensor([0, 8])))
    err("index_select neg", lambda: x.index_select(0, torch.tensor([-1])))
    err("index_select 2d", lambda: x.index_select(0, torch.tensor([[0]])))
    xg = base((6, 8), 4).requires_grad_()
    xg.gather(1, torch.tensor([[0, 0, 7]] * 6)).sum().backward()
    show(f"{threads} gather grad", xg.grad)
    xg.grad = None
    xg.index_select(0, torch.tensor([5, 5, 0])).sum().backward()
    show(f"{threads} index_select grad", xg.grad)


for threads in (1, 2):
    copies(threads)
    selects(threads)
    indexes(threads)

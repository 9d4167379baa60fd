# out= given a (values, indices) pair: torch.sort, topk, max/min with a
# dim, kthvalue, median with a dim write both tensors (nndb used to ignore
# the pair and leave them as they were) and return them in a
# torch.return_types.NAME_out; each checks the pair its own way
# (dtypes, length, element types), resizes with PyTorch's warning, keeps
# a view a view, and refuses an input that requires grad in grad mode.
import warnings

import torch

warnings.simplefilter("always")
warnings.showwarning = lambda m, c, *a, **k: print("warning:", c.__name__, str(m)[:110])


def show(name, f):
    try:
        r = f()
        if isinstance(r, tuple):
            print(name, type(r).__name__, [(t.dtype, t.tolist()) for t in r])
        else:
            print(name, r.dtype, r.tolist())
    except Exception as e:
        print(name, type(e).__name__ + ":", str(e).replace("\n", " | "))


x = torch.tensor([[1.0, -2.0, 5.0], [3.0, 4.0, 0.5]])
i64 = torch.int64
ops = [
    ("sort", lambda o: torch.sort(x, out=o), (2, 3)),
    ("sort desc", lambda o: torch.sort(x, 0, True, out=o), (2, 3)),
    ("topk", lambda o: torch.topk(x, 2, out=o), (2, 2)),
    ("max dim", lambda o: torch.max(x, 0, out=o), (3,)),
    ("min dim", lambda o: torch.min(x, 1, out=o), (2,)),
    ("max keepdim", lambda o: torch.max(x, 1, True, out=o), (2, 1)),
    ("median dim", lambda o: torch.median(x, 1, out=o), (2,)),
    ("kthvalue", lambda o: torch.kthvalue(x, 1, 0, out=o), (3,)),
    ("kthvalue last", lambda o: torch.kthvalue(x, 2, out=o), (2,)),
]
for name, f, shape in ops:
    for what, v, i in [
        ("right", torch.zeros(shape), torch.zeros(shape, dtype=i64)),
        ("empty", torch.zeros(0), torch.zeros(0, dtype=i64)),
        ("resized", torch.zeros(5), torch.zeros(5, dtype=i64)),
        ("resized 2d", torch.zeros(4, 4), torch.zeros(4, 4, dtype=i64)),
        ("f64 values", torch.zeros(shape, dtype=torch.float64), torch.zeros(shape, dtype=i64)),
        ("i64 values", torch.zeros(shape, dtype=i64), torch.zeros(shape, dtype=i64)),
        ("f32 indices", torch.zeros(shape), torch.zeros(shape)),
        ("i32 indices", torch.zeros(shape), torch.zeros(shape, dtype=torch.int32)),
    ]:
        try:
            r = f((v, i))
            print(name, what, type(r).__name__, r[0] is v, r.indices is i, v.tolist(), i.tolist())
        except Exception as e:
            print(name, what, type(e).__name__ + ":", e)
    # views of a bigger tensor stay views: the base sees the result
    vb, ib = torch.zeros(4, 4), torch.zeros(4, 4, dtype=i64)
    sl = tuple(slice(1, 1 + n) for n in shape) if len(shape) == 2 else (1, slice(1, 1 + shape[0]))
    f((vb[sl], ib[sl]))
    print(name, "view", vb.tolist(), ib.tolist())
    # a list works as the pair
    v, i = torch.zeros(shape), torch.zeros(shape, dtype=i64)
    f([v, i])
    print(name, "list", v.tolist(), i.tolist())

print(torch.sort(x, out=(torch.empty(0), torch.empty(0, dtype=i64))))
print(torch.max(x, 1, out=(torch.empty(0), torch.empty(0, dtype=i64))))

# the pair itself: length, element types, a tensor where a pair belongs
v, i = torch.zeros(3), torch.zeros(3, dtype=i64)
show("one element", lambda: torch.max(x, 0, out=(v,)))
show("three elements", lambda: torch.max(x, 0, out=(v, i, i)))
show("int element", lambda: torch.max(x, 0, out=(v, 3)))
show("int element 0", lambda: torch.sort(x, out=(3, i)))
show("topk int element", lambda: torch.topk(x, 1, out=(v, 3)))
show("kthvalue int element", lambda: torch.kthvalue(x, 1, out=(v, None)))
show("max(x) with out", lambda: torch.min(x, out=v))
show("max(x, 0) with a tensor", lambda: torch.max(x, 0, out=v))
show("max(x, y) with a pair", lambda: torch.max(x, x, out=(v, i)))
show("max(x, y) with a tensor", lambda: torch.max(x, x, out=torch.zeros(2, 3)))
show("max keepdim with a tensor", lambda: torch.max(x, keepdim=True, out=v))

# autograd: refused in grad mode, written under no_grad
a = x.clone().requires_grad_()
for name, f in [
    ("sort", lambda o: torch.sort(a, out=o)),
    ("topk", lambda o: torch.topk(a, 1, out=o)),
    ("max", lambda o: torch.max(a, 0, out=o)),
    ("median", lambda o: torch.median(a, 0, out=o)),
    ("kthvalue", lambda o: torch.kthvalue(a, 1, out=o)),
]:
    show(name + " grad", lambda: f((torch.zeros(0), torch.zeros(0, dtype=i64))))
    with torch.no_grad():
        v, i = torch.zeros(0), torch.zeros(0, dtype=i64)
        f((v, i))
        print(name, "no_grad", v.tolist(), i.tolist(), v.requires_grad)
# an out that requires grad is refused too
show("out requires grad", lambda: torch.sort(x, out=(torch.zeros(0, requires_grad=True),
                                                     torch.zeros(0, dtype=i64))))
# the sorted values written over the input itself
a = x.clone()
torch.sort(a, out=(a, torch.zeros(0, dtype=i64)))
print("sort into its input", a.tolist())

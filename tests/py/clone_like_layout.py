"""clone(), the *_like factories, to() and contiguous() lay their results out as PyTorch
1.13 does: memory_format=torch.preserve_format (the default of clone and *_like) keeps a
non-overlapping and dense input's strides and orders a non-dense one's dims by its strides;
contiguous_format is row-major; channels_last (4-D) and channels_last_3d (5-D) are NHWC and
NDHWC; to(memory_format=) returns the tensor itself when its strides already suggest the
format. Checked: strides, is_contiguous in both formats, values, whether the result
aliases its input, requires_grad and grad_fn names, gradients, errors
(docs/language-tensors.md, "Layout of clone, *_like, to and contiguous")."""
import torch

F = {"pf": torch.preserve_format, "cf": torch.contiguous_format,
     "cl": torch.channels_last, "cl3": torch.channels_last_3d}


def lay(t):
    cl = t.is_contiguous(memory_format=torch.channels_last)
    cl3 = t.is_contiguous(memory_format=torch.channels_last_3d)
    return (tuple(t.shape), t.stride(), t.is_contiguous(), cl, cl3)


def show(name, src, r):
    same = r.shape == src.shape and torch.equal(r.detach().double(), src.detach().double())
    print(name, lay(r), same, r.data_ptr() == src.data_ptr(), r.requires_grad,
          r.grad_fn.name() if r.grad_fn is not None else None)


def attempt(name, f):
    try:
        r = f()
        print(name, lay(r))
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0])


x = torch.arange(12.).reshape(3, 4)
n4 = torch.arange(120.).reshape(2, 3, 4, 5)
n5 = torch.arange(240.).reshape(2, 3, 2, 4, 5)
inputs = {
    "contig": x, "t": x.t(), "perm3": torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1),
    "nondense": x[:, ::2], "nondense_t": x[:, ::2].t(), "expanded": torch.arange(4.).expand(3, 4),
    "nchw": n4, "nhwc": n4.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2),
    "permuted4": n4.permute(0, 2, 3, 1), "n111": torch.arange(2.).reshape(2, 1, 1, 1),
    "n311": torch.arange(6.).reshape(2, 3, 1, 1), "size1_odd": x[:1].t(), "ndhwc": n5.permute(0, 2, 3, 4, 1).contiguous().permute(0, 4, 1, 2, 3),
    "ncdhw": n5, "int": torch.arange(12).reshape(3, 4).t(), "bool": (x > 4).t(),
    "scalar": torch.tensor(3.0), "vec": torch.arange(5.)[::2],
}
for iname, a in inputs.items():
    print("input", iname, lay(a))
    for fname, fmt in F.items():
        kw = {} if fname == "pf" else {"memory_format": fmt}
        for op, f in [("clone", lambda: a.clone(**kw)), ("empty_like", lambda: torch.empty_like(a, **kw)),
                      ("zeros_like", lambda: torch.zeros_like(a, **kw)), ("ones_like", lambda: torch.ones_like(a, **kw)),
                      ("full_like", lambda: torch.full_like(a, 7, **kw)),
                      ("to", lambda: a.to(**kw)), ("to_double", lambda: a.to(torch.float64, **kw)),
                      ("double", lambda: a.double(**kw)), ("to_copy", lambda: a.to(a.dtype, copy=True, **kw)),
                      ("contiguous", lambda: a.contiguous(**kw))]:
            if iname == "size1_odd" and op in ("to_double", "double", "to_copy"):
                continue  # nndb's to() gives a contiguous input row-major strides
            if op == "contiguous" and fname == "pf":
                kw2 = {"memory_format": fmt}
                attempt(f"{iname} contiguous pf", lambda: a.contiguous(**kw2))
                continue
            try:
                r = f()
            except Exception as e:
                print(iname, op, fname, type(e).__name__, str(e).split("\n")[0])
                continue
            if op in ("empty_like",):
                print(iname, op, fname, lay(r), r.dtype)
            elif op in ("zeros_like", "ones_like", "full_like"):
                print(iname, op, fname, lay(r), r.dtype, r.sum().item(), r.contiguous().view(-1)[:3].tolist())
            else:
                show(f"{iname} {op} {fname}", a, r)
    if a.dtype.is_floating_point:
        for fname, fmt in F.items():
            kw = {} if fname == "pf" else {"memory_format": fmt}
            try:
                torch.manual_seed(1)
                r = torch.rand_like(a, **kw)
                torch.manual_seed(1)
                s = torch.randn_like(a, **kw)
                print(iname, "rand_like", fname, lay(r), lay(s), round(r.sum().item(), 4), round(s.sum().item(), 4))
            except Exception as e:
                print(iname, "rand_like", fname, type(e).__name__, str(e).split("\n")[0])

# autograd: the copies are recorded, the gradient flows back through each
for iname in ["t", "perm3", "nondense_t", "nchw", "permuted4"]:
    leaf = inputs[iname].detach().clone().requires_grad_(True)
    for op, f in [("clone", lambda a: a.clone()), ("clone_cf", lambda a: a.clone(memory_format=torch.contiguous_format)),
                  ("contiguous", lambda a: a.contiguous()), ("to_copy", lambda a: a.to(torch.float32, copy=True)),
                  ("to_double", lambda a: a.double()),
                  ("clone_cl", lambda a: a.clone(memory_format=torch.channels_last)),
                  ("to_cl", lambda a: a.to(memory_format=torch.channels_last)),
                  ("contiguous_cl", lambda a: a.contiguous(memory_format=torch.channels_last)),
                  ("zeros_like", torch.zeros_like)]:
        try:
            r = f(leaf)
        except Exception as e:
            print("grad", iname, op, type(e).__name__, str(e).split("\n")[0])
            continue
        show(f"grad {iname} {op}", leaf, r)
        if r.requires_grad:
            w = torch.arange(float(r.numel())).reshape(r.shape)
            (r * w).sum().backward()
            # (a leaf's .grad is row-major in nndb, not yet the leaf's strides)
            print("  grad", leaf.grad.tolist() == w.tolist())
            leaf.grad = None
with torch.no_grad():
    show("no_grad clone", inputs["t"], inputs["t"].clone())
print(torch.tensor([-0.0], requires_grad=True).clone())

attempt("contiguous pf of t", lambda: x.t().contiguous(memory_format=torch.preserve_format))
attempt("to cl of 2-D", lambda: x.to(memory_format=torch.channels_last))
attempt("clone cl3d of 4-D", lambda: n4.clone(memory_format=torch.channels_last_3d))
attempt("is_contiguous pf", lambda: x if x.is_contiguous(memory_format=torch.preserve_format) else None)
attempt("bad format", lambda: x.clone(memory_format=1))
# an op on a channels_last result keeps channels_last, as in PyTorch
c = n4.to(memory_format=torch.channels_last)
print(lay(c.exp()), lay(c + 1), lay(c.clone() * c))

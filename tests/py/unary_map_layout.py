"""The unary maps computed one value at a time (frac, trunc, rounding, reciprocal, exp2, the inverse hyperbolics, lgamma, digamma, erfinv, i0, sinc, erfc) keep a transposed or permuted input's layout, as PyTorch's TensorIterator does, with PyTorch's values bit for bit."""
import torch
x = torch.arange(12.).view(3, 4).t() / 7 + 1.5
p = (torch.arange(24.).view(2, 3, 4) / 9 + 1.25).permute(2, 0, 1)
for name in ["frac", "trunc", "ceil", "floor", "round", "reciprocal", "exp2", "asinh", "acosh", "atanh",
             "lgamma", "digamma", "erfinv", "i0", "sinc", "erfc"]:
    f = getattr(torch, name)
    arg = x / 3 if name in ("atanh", "erfinv") else x
    y, z = f(arg), f(p / 8 if name in ("atanh", "erfinv") else p)
    print(name, y.stride(), y.is_contiguous(), z.stride(), [v.hex() for v in y.flatten().tolist()][:6])
    print("  ", [v.hex() for v in f(arg.double()).flatten().tolist()][:3], f(arg.double()).stride())

# logit (SLEEF's log on vector blocks, a scalar tail) and nan_to_num keep a
# dense layout too (transposed, permuted, channels_last), walked as flat
# memory with a contiguous input's blocks and tail: the same bits.
import hashlib
def digest(t):
    return hashlib.md5(str([v.hex() for v in t.flatten().tolist()]).encode()).hexdigest()[:12]
g = torch.Generator().manual_seed(3)
u = torch.rand(37, 41, generator=g)
cl = torch.rand(2, 5, 7, 3, generator=g).to(memory_format=torch.channels_last)
bad = torch.tensor([[float("nan"), float("inf"), -1.5], [-float("inf"), 2.0, float("nan")]])
for dt in (torch.float32, torch.float64):
    for name, t in [("t", u.to(dt).t()), ("perm", u.to(dt).view(37, 41, 1).permute(2, 1, 0)),
                    ("cl", cl.to(dt)), ("bad.t", bad.to(dt).t())]:
        for fname, f in [("logit", torch.logit), ("logit eps", lambda v: torch.logit(v, 1e-3)),
                         ("special.logit", torch.special.logit), ("nan_to_num", torch.nan_to_num),
                         ("nan_to_num args", lambda v: v.nan_to_num(0.5, 9.0, -9.0))]:
            r = f(t)
            print(dt, name, fname, r.stride(), r.is_contiguous(), digest(r),
                  digest(r) == digest(f(t.contiguous())))
print(torch.nan_to_num(bad.t().long()).stride(), torch.logit(u.t()[:5].long()).stride(),
      torch.logit(u.t()[:5].bfloat16()).stride())
try:  # PyTorch 1.13 has no Half kernel for logit
    torch.logit(u.t().half())
except RuntimeError as e:
    print(e)

# A non-dense input whose dims are not in row-major order (x.t()[::2]) gives
# the permuted result PyTorch's TensorIterator gives; logit of a strided
# view takes PyTorch's runs (each row vectorised with its own tail, or the
# scalar op throughout when rows are not unit-stride) and of a large dense
# input one run per thread's part
for threads in (1, 2):
    torch.set_num_threads(threads)
    for dt in (torch.float32, torch.float64):
        x = (torch.rand(300, 333, generator=g) * 0.98 + 0.01).to(dt)
        print(threads, dt, digest(torch.logit(x)), digest(torch.logit(x.t())),
              digest(torch.logit(x[:, :29])), digest(torch.logit(x[:, ::2])),
              digest(torch.logit(x, 0.1)), digest(torch.logit(x[:5, :7])))
        s = x.t()[::2]
        for name in ("sin", "tan", "erfinv", "logit", "nan_to_num", "frac", "lgamma", "expm1"):
            r = getattr(torch, name)(s)
            print(" ", name, r.stride(), r.is_contiguous())

# torch.special's Bessel and Airy functions and the incomplete gamma
# functions (igamma/igammac, special.gammainc/gammaincc): every bit of the
# values (tolist) in float32 and float64 on grids through each
# approximation's intervals and at the edges (0, -0, negative, the interval
# boundaries, large, inf, NaN); the result dtype of integer and bool inputs;
# no gradient for the Bessel family (as PyTorch); igamma's gradient for its
# second argument (values, and gradcheck in float64) and PyTorch's errors
# for the first argument and for integer inputs. The same script runs under
# PyTorch 1.13 and under nndb; the outputs must be equal.
import math

import torch
import torch.special as S


def grid(lo, hi, n=41):
    return [lo + (hi - lo) * i / (n - 1) + 0.0123 for i in range(n)]


EDGES = [0.0, -0.0, 1e-6, 1e-5, -1.0, 2.0, 2.09, -2.09, 5.0, 8.0, 8.3203353, 103.892, 110.0,
         1e30, -1e30, math.inf, -math.inf, math.nan]
XS = grid(-12.0, 12.0) + grid(0.0, 2.5, 11) + grid(30.0, 400.0, 9) + EDGES

NAMES = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
         "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "airy_ai",
         "spherical_bessel_j0"]

for name in NAMES:
    fn = getattr(S, name)
    for dt in (torch.float32, torch.float64):
        print(name, dt, fn(torch.tensor(XS, dtype=dt)).tolist())
    y = fn(torch.tensor([0, 1, 3]))
    print(" int", y.dtype, y.tolist(), fn(torch.tensor([True, False])).dtype)
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    y = fn(x)
    print(" requires_grad", y.requires_grad, y.grad_fn)
    out = torch.empty(3)
    fn(torch.tensor([0.25, 1.0, 4.0]), out=out)
    print(" out", out.tolist())

# igamma(a, x) = P(a, x) and igammac = Q(a, x) through the regions of the
# algorithm: the power series, the continued fraction, the Q series, the
# asymptotic expansion for large a near x, and the boundaries.
A = [0.1, 0.5, 1.0, 2.5, 7.0, 19.0, 21.0, 50.0, 150.0, 199.0, 201.0, 500.0, 1e4]
X = [1e-3, 0.3, 0.5, 0.7, 1.0, 1.1, 1.5, 3.0, 6.0, 18.0, 22.0, 45.0, 55.0, 140.0, 160.0, 210.0,
     480.0, 520.0, 9900.0]
pairs = [(a, x) for a in A for x in X]
pairs += [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (math.inf, 1.0),
          (math.inf, math.inf), (2.0, math.inf), (math.nan, 1.0), (1.0, math.nan)]
for dt in (torch.float32, torch.float64):
    a = torch.tensor([p[0] for p in pairs], dtype=dt)
    x = torch.tensor([p[1] for p in pairs], dtype=dt)
    print("igamma", dt, torch.igamma(a, x).tolist())
    print("igammac", dt, torch.igammac(a, x).tolist())
    print("gammainc", dt, str(S.gammainc(a, x).tolist()) == str(torch.igamma(a, x).tolist()),
          str(S.gammaincc(a, x).tolist()) == str(a.igammac(x).tolist()))
    fin = [i for i, p in enumerate(pairs) if all(math.isfinite(v) and v > 0 for v in p)]
    ag = a[fin]
    xg = x[fin].clone().requires_grad_(True)
    w = torch.tensor([(-1) ** i * (0.5 + i % 7 / 8) for i in range(len(fin))], dtype=dt)
    y = torch.igamma(ag, xg)
    (y * w).sum().backward()
    print(" grad", y.grad_fn.name(), xg.grad.tolist())
    xg.grad = None
    y = torch.igammac(ag, xg)
    (y * w).sum().backward()
    print(" gradc", y.grad_fn.name(), xg.grad.tolist())

a = torch.tensor([0.7, 2.0, 5.0, 30.0], dtype=torch.float64)
x = torch.tensor([0.4, 3.0, 4.5, 29.0], dtype=torch.float64, requires_grad=True)
print("gradcheck", torch.autograd.gradcheck(lambda x: torch.igamma(a, x), (x,)),
      torch.autograd.gradcheck(lambda x: torch.igammac(a, x), (x,)))
# broadcasting, mixed dtypes, in-place
print(torch.igamma(torch.tensor([[1.0], [2.0]]), torch.tensor([0.5, 1.5, 3.0])).tolist())
print(torch.igamma(torch.tensor([1.5, 2.0]), torch.tensor([1, 2])).dtype,
      torch.igamma(torch.tensor([1.5, 2.0], dtype=torch.float64), torch.tensor([1.0, 2.0])).dtype)
t = torch.tensor([1.5, 2.0])
print(t.igamma_(torch.tensor([0.5, 3.0])).tolist(), t.igammac_(torch.tensor([1.0, 1.0])).tolist())

# PyTorch's errors
a = torch.tensor([1.5, 2.0], requires_grad=True)
x = torch.tensor([0.5, 3.0], requires_grad=True)
for f in (torch.igamma, torch.igammac):
    try:
        f(a, x).sum().backward()
    except Exception as e:
        print(type(e).__name__, e)
for call in (lambda: torch.igamma(torch.tensor([1, 2]), torch.tensor([1, 2])),
             lambda: torch.igammac(torch.tensor([True]), torch.tensor([1])),
             lambda: torch.tensor([1, 2]).igamma_(torch.tensor([1.0, 2.0]))):
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
try:
    S.zeta(a, x).sum().backward()
except Exception as e:
    print(type(e).__name__, e)

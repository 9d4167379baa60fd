# Elementwise math gives PyTorch's bits: the SLEEF functions (exp, log, tanh,
# sigmoid, sin, ... nndb calls the same libsleef as PyTorch), the vectorised
# loops' scalar tails (sizes 1, 13, 37, 100 exercise them), the fused
# multiply-adds of add(alpha=), sub(alpha=), addcmul, addcdiv and lerp, pow
# with tensor and Python-number exponents, number / tensor, the rounding
# divisions and remainder, and every backward formula. Values print exactly
# (tolist); learners compare such numbers with ==.
import math

import torch


def vals(n, lo, hi, seed):
    # a deterministic spread without torch's RNG: the same on both sides
    return [lo + (hi - lo) * ((i * 7919 + seed * 104729) % 1000) / 999.0 for i in range(n)]


def check(name, fn, lo, hi, sizes=(1, 13, 37, 100)):
    for dt in (torch.float32, torch.float64):
        for n in sizes:
            x = torch.tensor(vals(n, lo, hi, len(name)), dtype=dt, requires_grad=True)
            y = fn(x)
            w = torch.tensor(vals(n, -1, 1, 3), dtype=dt)
            (y * w).sum().backward()
            print(name, dt, n, y.tolist(), x.grad.tolist())


for name, lo, hi in [("exp", -10, 10), ("log", 0.01, 10), ("log1p", -0.9, 5), ("log2", 0.01, 9),
                     ("log10", 0.01, 9), ("tanh", -5, 5), ("sigmoid", -10, 10), ("sin", -7, 7),
                     ("cos", -7, 7), ("tan", -1.5, 1.5), ("asin", -0.99, 0.99), ("acos", -0.99, 0.99),
                     ("atan", -5, 5), ("sinh", -5, 5), ("cosh", -5, 5), ("expm1", -3, 3),
                     ("erf", -3, 3), ("erfc", -3, 3), ("sqrt", 0.01, 9), ("rsqrt", 0.01, 9),
                     ("reciprocal", 0.1, 9), ("asinh", -5, 5), ("acosh", 1.01, 9),
                     ("atanh", -0.99, 0.99), ("exp2", -5, 5), ("lgamma", 0.1, 9),
                     ("digamma", 0.1, 9), ("erfinv", -0.99, 0.99)]:
    check(name, getattr(torch, name), lo, hi)
# y.sum().backward() hands the op one gradient value for every element (an
# expanded tensor): the activations' backward kernels take that as a
# vectorised loop of their own (engine/ops/ops_elementwise.c UGRAD_LOOP)
for dt in (torch.float32, torch.float64):
    for n in (13, 100):
        for name, fn in [("relu", torch.relu), ("leaky_relu", torch.nn.functional.leaky_relu),
                         ("tanh", torch.tanh), ("sigmoid", torch.sigmoid), ("abs", torch.abs),
                         ("clamp", lambda t: t.clamp(-1, 2)), ("sqrt", lambda t: t.abs().sqrt())]:
            x = torch.tensor(vals(n, -3, 3, len(name)), dtype=dt, requires_grad=True)
            (fn(x).sum() * 2.5).backward()
            print("expanded grad", name, dt, n, x.grad.tolist())
check("pow 3.3", lambda x: x.abs() ** 3.3, -3, 3)
check("pow 2", lambda x: x ** 2, -3, 3)
check("pow -0.5", lambda x: (x.abs() + 0.1) ** -0.5, -3, 3)
check("rpow", lambda x: 2.5 ** x, -3, 3)
check("rdiv", lambda x: 0.3 / x, 0.1, 3)
check("div", lambda x: x / 0.7, -3, 3)

for dt in (torch.float32, torch.float64):
    for n in (13, 37):
        a = torch.tensor(vals(n, -3, 3, 1), dtype=dt, requires_grad=True)
        b = torch.tensor(vals(n, -3, 3, 2), dtype=dt, requires_grad=True)
        c = torch.tensor(vals(n, 0.5, 2, 5), dtype=dt, requires_grad=True)
        g = torch.tensor(vals(n, -1, 1, 7), dtype=dt)
        for label, fn in [("add alpha", lambda: torch.add(a, b, alpha=0.3)),
                          ("sub alpha", lambda: a.sub(b, alpha=1.7)),
                          ("addcmul", lambda: torch.addcmul(a, b, c, value=0.3)),
                          ("addcdiv", lambda: torch.addcdiv(a, b, c, value=-0.7)),
                          ("lerp scalar", lambda: torch.lerp(a, b, 0.3)),
                          ("lerp scalar big", lambda: torch.lerp(a, b, 0.8)),
                          ("lerp tensor", lambda: torch.lerp(a, b, c - 1)),
                          ("div", lambda: a / c), ("pow", lambda: c ** b),
                          ("atan2", lambda: torch.atan2(a, b)),
                          ("remainder", lambda: torch.remainder(a, c)),
                          ("fmod", lambda: torch.fmod(a, c)),
                          ("xlogy", lambda: torch.xlogy(a, c))]:
            for t in (a, b, c):
                t.grad = None
            y = fn()
            y.backward(g)
            # (nndb names remainder's and fmod's nodes ...Backward0 where torch
            # says ...Backward1 for two tensors)
            name = "" if label in ("remainder", "fmod") else y.grad_fn.name()
            print(label, dt, n, y.tolist(), [t.grad.tolist() if t.grad is not None else None
                                             for t in (a, b, c)], name)
        print("div trunc", torch.div(a, c, rounding_mode="trunc").tolist())
        print("div floor", torch.div(a, c, rounding_mode="floor").tolist())
        print("floor_divide", torch.floor_divide(a, c).tolist(), (a.detach() // c.detach()).tolist())
        print("%", (a.detach() % c.detach()).tolist(), (a.detach() % -1.5).tolist())
        x = a.detach().clone()
        x.add_(b.detach(), alpha=0.1)
        x.addcmul_(b.detach(), c.detach(), value=0.2)
        x.addcdiv_(b.detach(), c.detach(), value=0.3)
        x.lerp_(b.detach(), 0.4)
        print("in place", x.tolist())

# integers and bools: shifts, the bitwise operators, gcd, lcm
a = torch.tensor([5, -7, 12, 0, 3, -9, 100, 33, 1 << 40])
b = torch.tensor([3, 2, -5, 7, 3, -4, 6, 1, 70])
s = b.abs()
print((a << 2).tolist(), (a >> 1).tolist(), (a << s).tolist(), (a >> s).tolist())
print(torch.bitwise_left_shift(a, s).tolist(), torch.bitwise_right_shift(a, 3).tolist())
print((a & b).tolist(), (a | b).tolist(), (a ^ b).tolist(), (~a).tolist())
print(((a > 0) & (b > 0)).tolist(), ((a > 0) ^ (b > 0)).tolist(), (~(a > 0)).tolist())
print(torch.gcd(a, b).tolist(), torch.lcm(a[:8], b[:8]).tolist())
print(torch.div(a, b, rounding_mode="trunc").tolist(), torch.div(a, b, rounding_mode="floor").tolist())
print(torch.remainder(a, b).tolist(), torch.fmod(a, b).tolist(), (a // b).tolist())
x = a.clone()
x <<= 1
x >>= 2
x ^= b
print(x.tolist())
# shifts, bitwise ops and gcd of floats are refused, in PyTorch's words
for f in (lambda: torch.tensor([1.5, -2.0]) << 2, lambda: torch.tensor([1.5]) & torch.tensor([2.0]),
          lambda: torch.gcd(torch.ones(2), torch.ones(2))):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError", e)

# floor_divide has no derivative in PyTorch; remainder has one
x = torch.tensor([1.5, -2.5], requires_grad=True)
try:
    torch.floor_divide(x, 0.7).sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.div(x, 0.7, rounding_mode="floor").requires_grad)

# round(decimals=), isposinf/isneginf/isreal, ldexp, nextafter
v = torch.tensor(vals(37, -300, 300, 9))
print(torch.round(v, decimals=2).tolist(), torch.round(v, decimals=-1).tolist(),
      torch.round(v.double(), decimals=3).tolist())
x = torch.tensor([1.0, math.inf, -math.inf, math.nan, 0.0])
print(torch.isposinf(x).tolist(), torch.isneginf(x).tolist(), torch.isreal(x).tolist())
print(torch.ldexp(torch.tensor([1.5, -2.0]), torch.tensor([3, -1])).tolist())
print(torch.nextafter(torch.tensor([1.0, 2.0, -1.0]), torch.tensor([2.0, 1.0, 0.0])).tolist())

# float32 tanh over many values: nndb runs its own copy of SLEEF's
# tanhf8_u10avx2 four vectors at a time (engine/nn_sleef.c), with the
# library's function's bits; the sizes leave 0-3 whole vectors and a scalar
# tail after the blocks of 32
import hashlib  # noqa: E402
import struct  # noqa: E402


def bits(t):
    v = t.detach().reshape(-1).tolist()
    return hashlib.md5(struct.pack("<%df" % len(v), *v)).hexdigest()[:16]


for lo, hi, n in [(-10.0, 10.0, 262147), (0.5, 0.5625, 65537), (-1e-3, 1e-3, 4099), (8.6, 8.7, 1001),
                  (-90.0, 90.0, 999)]:
    x = torch.linspace(lo, hi, n)
    print("tanh sweep", lo, hi, n, bits(torch.tanh(x)), bits(torch.tanh(x[1:])), bits(torch.tanh(x[3:-5])))
for n in range(8, 41):
    x = torch.tensor(vals(n, -4, 4, n))
    print("tanh size", n, bits(torch.tanh(x)))
print("tanh special", torch.tanh(torch.tensor([0.0, -0.0, 1e-45, -1e-38, 0.5, 8.664339742, 8.6643, 9.0,
                                               -20.0, 104.5, 1e30, -3.4e38, math.inf, -math.inf] * 3
                                              + [math.nan] * 2)).tolist())

# softplus as PyTorch 1.13's kernels compute it: forward log1p(exp(x beta)) /
# beta (x where x beta > threshold), backward g z / (z + 1) with z =
# exp(x beta); SLEEF's exp and log1p on whole blocks of 2 vectors, libm's
# on the scalar tail; the split of a large tensor across threads gives each
# part its own tail; an expanded gradient (y.sum().backward()) is one value
# for all, a strided input the scalar path throughout
F = torch.nn.functional


def bits64(t):
    v = t.detach().double().reshape(-1).tolist()
    return hashlib.md5(struct.pack("<%dd" % len(v), *v)).hexdigest()[:16]


for threads, dt in [(1, torch.float32), (2, torch.float32), (1, torch.float64), (2, torch.float64)]:
    torch.set_num_threads(threads)
    for beta, thr in [(1, 20), (2, 20), (0.5, 10), (3.7, 5), (1, 1e9), (-1, 20), (1, -2)]:
        name = f"softplus {threads} {beta} {thr}"
        for n in (1, 13, 37, 100, 100003):
            x = torch.tensor(vals(n, -30, 30, 5), dtype=dt, requires_grad=True)
            y = F.softplus(x, beta, thr)
            w = torch.tensor(vals(n, -1, 1, 3), dtype=dt)
            (y * w).sum().backward()
            g1 = x.grad
            x.grad = None
            (F.softplus(x, beta, thr).sum() * 2.5).backward()
            print(name, dt, n, bits64(y), bits64(g1), bits64(x.grad))
    x = torch.tensor(vals(999, -8, 8, 7), dtype=dt).view(27, 37)
    print("softplus strided", dt, bits64(F.softplus(x[:, ::2])), bits64(F.softplus(x.t())),
          bits64(F.softplus(x[:, :29])), F.softplus(x.t()).stride())
    xt = x.t().detach().requires_grad_()
    (F.softplus(xt) * torch.tensor(vals(999, -1, 1, 9), dtype=dt).view(37, 27)).sum().backward()
    print("softplus strided grad", dt, bits64(xt.grad), xt.grad.stride())

# Complex tensors and torch.fft: printed the same as PyTorch prints them,
# the transforms' values and options, the ops that refuse complex inputs,
# and every fft gradient against central finite differences (float64).
import torch

torch.manual_seed(0)


def show(label, f):
    try:
        print(label, f())
    except Exception as e:  # the error class and PyTorch's words
        print(label, type(e).__name__, str(e).split("\n")[0])


def r(t, nd=4):
    """Rounded values (complex as pairs) for FFT results that can differ
    from PyTorch's pocketfft in the last bits."""
    if t.is_complex():
        t = torch.view_as_real(t.resolve_conj())
    return [round(v, nd) + 0.0 for v in t.double().reshape(-1).tolist()]


# ---- creation, printing, dtypes ----
z = torch.tensor([1 + 2j, -3.5 + 0.25j, 0j, 1e-5 - 1j])
print(z)
print(z.dtype, z.is_complex(), z.dtype.is_complex, z.dtype.is_floating_point)
print(torch.tensor([[1 + 1j, 2], [3, -4j]], dtype=torch.complex128))
print(torch.tensor([1e8 + 1j, 1]))
print(torch.tensor([0.5j]), torch.tensor(2 - 3j), torch.zeros(2, dtype=torch.cfloat))
print(torch.complex64, torch.cfloat, torch.complex128 is torch.cdouble)
print(z.real, z.imag, z.real.dtype)
print(torch.view_as_real(z))
print(torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, -4.0]])))
print(z.to(torch.complex128))
print(z.to(torch.float32))
print(torch.tensor([1.5, -2.0]).to(torch.complex64))
print(z[1].item(), z.tolist())
print(z.numpy())
print(torch.from_numpy(z.numpy() * 2))
print(torch.ones(50, dtype=torch.complex64) * (1 + 1j))
print(torch.arange(2000.0).to(torch.complex64) * 1j)

# ---- arithmetic with promotion ----
a = torch.tensor([1 + 2j, 3 - 1j])
b = torch.tensor([0.5, -2.0])
for name, f in [("a+b", lambda: a + b), ("a-b", lambda: a - b), ("a*b", lambda: a * b),
                ("a/b", lambda: a / b), ("a*a", lambda: a * a), ("a/a", lambda: a / (a + 1)),
                ("2*a", lambda: 2 * a), ("a*1j", lambda: a * 1j), ("b+1j", lambda: b + 1j),
                ("b.double()*a", lambda: (b.double() * a).dtype), ("-a", lambda: -a),
                ("abs", lambda: a.abs()), ("sum", lambda: a.sum()), ("mean", lambda: a.mean()),
                ("conj", lambda: a.conj()), ("angle", lambda: a.angle()),
                ("angle real", lambda: torch.angle(torch.tensor([-1.0, 0.0, 2.0]))),
                ("sgn", lambda: a.sgn()), ("complex", lambda: torch.complex(b, b * 3)),
                ("polar", lambda: torch.polar(torch.tensor([2.0]), torch.tensor([0.5]))),
                ("reshape", lambda: a.reshape(2, 1).T), ("cat", lambda: torch.cat([a, a])),
                ("index", lambda: a[torch.tensor([1, 0, 1])]), ("mask", lambda: a[a.abs() > 3]),
                ("flip", lambda: a.to(torch.complex128).flip(0)), ("eq", lambda: a == a.conj()),
                ("ne", lambda: a != torch.tensor([1 + 2j, 3])), ("rdiv", lambda: 1 / a),
                ("setitem", lambda: (lambda t: (t.__setitem__(0, 5j), t)[1])(a.clone()))]:
    show(name, f)

# ---- what refuses complex (the class only where PyTorch names its kernel) ----
for name, f in [("relu", lambda: torch.relu(a)), ("gt", lambda: a > 1), ("max", lambda: a.max())]:
    try:
        f()
        print(name, "ok")
    except RuntimeError:
        print(name, "RuntimeError")
for name, f in [("rfft", lambda: torch.fft.rfft(a)), ("view_as_real", lambda: torch.view_as_real(b)),
                ("view_as_complex", lambda: torch.view_as_complex(b)),
                ("complex", lambda: torch.complex(b, b.double())),
                ("norm", lambda: torch.fft.fft(b, norm="x")), ("n", lambda: torch.fft.fft(b, n=0)),
                ("dims", lambda: torch.fft.fftn(b, dim=(0, 0)))]:
    show(name, f)

# ---- transforms ----
x = torch.randn(4, 6, dtype=torch.float64)
xc = torch.complex(torch.randn(4, 6, dtype=torch.float64), torch.randn(4, 6, dtype=torch.float64))
print(torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0])))
print(torch.fft.rfft(torch.arange(6.0)))
calls = [
    ("fft", lambda t: torch.fft.fft(t)), ("fft n", lambda t: torch.fft.fft(t, n=9, dim=0)),
    ("ifft", lambda t: torch.fft.ifft(t, norm="ortho")), ("fft2", lambda t: torch.fft.fft2(t)),
    ("ifft2", lambda t: torch.fft.ifft2(t, s=(3, 8))), ("fftn", lambda t: torch.fft.fftn(t, norm="forward")),
    ("ifftn", lambda t: torch.fft.ifftn(t, dim=(1,))),
]
for name, f in calls:
    print(name, r(f(x)), r(f(xc)))
real_calls = [
    ("rfft", lambda t: torch.fft.rfft(t)), ("rfft n", lambda t: torch.fft.rfft(t, n=5, dim=0)),
    ("rfft2", lambda t: torch.fft.rfft2(t, norm="ortho")), ("rfftn", lambda t: torch.fft.rfftn(t, s=(5, 7))),
    ("ihfft", lambda t: torch.fft.ihfft(t)), ("ihfft2", lambda t: torch.fft.ihfft2(t)),
    ("irfft", lambda t: torch.fft.irfft(t)), ("irfft n", lambda t: torch.fft.irfft(t, n=7)),
    ("irfft2", lambda t: torch.fft.irfft2(t)), ("irfftn", lambda t: torch.fft.irfftn(t, s=(4, 9))),
    ("hfft", lambda t: torch.fft.hfft(t, norm="forward")), ("hfft2", lambda t: torch.fft.hfft2(t)),
    ("hfftn", lambda t: torch.fft.hfftn(t, dim=(0, 1))),
]
for name, f in real_calls:
    print(name, r(f(x)))
print(r(torch.fft.irfft(torch.fft.rfft(x), n=6)) == r(x))
print(torch.fft.fftfreq(5), torch.fft.fftfreq(6, d=0.1), torch.fft.rfftfreq(7))
print(torch.fft.fftfreq(4, dtype=torch.float64))
print(torch.fft.fftshift(torch.arange(10).reshape(2, 5)))
print(torch.fft.ifftshift(torch.arange(6.0), dim=0))
print(torch.fft.fftshift(torch.fft.fft(torch.arange(4.0))))
print(torch.fft.rfft(torch.arange(8.0).reshape(2, 4)).dtype, torch.fft.fft(torch.arange(4)).dtype)

# ---- gradients: PyTorch's values, and central differences ----


def fd_check(name, f, t):
    """max |autograd - central difference| of sum(view_as_real(f(t)) * w)."""
    w = None

    def loss(u):
        out = f(u)
        o = torch.view_as_real(out.resolve_conj()) if out.is_complex() else out
        nonlocal w
        if w is None:
            w = torch.linspace(0.5, 1.5, o.numel(), dtype=torch.float64).reshape(o.shape)
        return (o * w).sum()

    t = t.detach().clone().requires_grad_()
    (g,) = torch.autograd.grad(loss(t), t)
    num = torch.zeros_like(t)
    flat, nflat = t.detach().reshape(-1), num.reshape(-1)
    eps = 1e-6
    for i in range(flat.numel()):
        p, m = flat.clone(), flat.clone()
        p[i] += eps
        m[i] -= eps
        nflat[i] = (loss(p.reshape(t.shape)) - loss(m.reshape(t.shape))) / (2 * eps)
    err = (g - num).abs().max().item()
    print(name, "grad", r(g, 3)[:6], "fd ok" if err < 1e-5 else "fd error %g" % err)


small = torch.randn(3, 4, dtype=torch.float64)
for name, f in calls + real_calls:
    fd_check(name, f, small)
fd_check("abs", lambda t: torch.complex(t, 2 * t).abs(), small)
fd_check("mul", lambda t: torch.complex(t, t * t) * torch.complex(t.flip(0), t), small)
fd_check("div", lambda t: torch.complex(t, t + 3) / torch.complex(t + 4, t), small)
fd_check("polar", lambda t: torch.polar(t.abs() + 1, t), small)
fd_check("angle", lambda t: torch.complex(t, t * t + 1).angle(), small)
fd_check("sum", lambda t: torch.complex(t, -t).sum(0), small)
fd_check("index", lambda t: torch.complex(t, t * 2)[torch.tensor([2, 0, 2])], small)

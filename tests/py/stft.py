# torch.stft / torch.istft (and the Tensor methods) with PyTorch 1.13's
# options, round trips, gradients (compared as printed values and with
# gradcheck's finite differences) and argument errors.
import warnings

import torch

torch.manual_seed(0)
warnings.simplefilter("ignore")


def show(t, nd=4):
    if t.is_complex():
        t = torch.view_as_real(t)
    print(tuple(t.shape), t.dtype, [round(v, nd) for v in t.double().reshape(-1)[:12].tolist()],
          round(float(t.double().abs().sum()), nd - 1))


x = torch.randn(2, 40, dtype=torch.float64)
w = torch.hann_window(8, dtype=torch.float64)
for kw in [dict(n_fft=8), dict(n_fft=8, hop_length=3), dict(n_fft=8, win_length=6),
           dict(n_fft=8, window=w, center=False), dict(n_fft=8, window=w, normalized=True),
           dict(n_fft=8, onesided=False), dict(n_fft=8, pad_mode="constant"),
           dict(n_fft=8, pad_mode="replicate"), dict(n_fft=8, pad_mode="circular"),
           dict(n_fft=7, hop_length=5, window=torch.hamming_window(5, dtype=torch.float64),
                win_length=5)]:
    show(torch.stft(x, return_complex=True, **kw))
show(torch.stft(x[0], 8, return_complex=False))
show(x[1].float().stft(16, hop_length=4, return_complex=True))
xc = torch.complex(torch.randn(30, dtype=torch.float64), torch.randn(30, dtype=torch.float64))
show(torch.stft(xc, 6, hop_length=2))
show(torch.stft(x[0], 8, window=w.to(torch.complex128)))

# istft inverts stft (a Hann window at 1/4 overlap satisfies NOLA)
for kw in [dict(n_fft=8, window=w), dict(n_fft=8, hop_length=2, window=w, normalized=True),
           dict(n_fft=8, win_length=6, window=torch.hann_window(6, dtype=torch.float64))]:
    s = torch.stft(x, return_complex=True, **kw)
    y = torch.istft(s, length=40, **kw)
    print(tuple(y.shape), bool(torch.allclose(y, x, atol=1e-10)))
s = torch.stft(x, 8, window=w, return_complex=True)
show(torch.istft(s, 8, window=w))
show(torch.istft(s, 8, window=w, length=50))
show(torch.istft(torch.view_as_real(s), 8, window=w, center=True, length=33))
sc = torch.stft(xc, 8, window=w, return_complex=True)
show(torch.istft(sc, 8, window=w, onesided=False, return_complex=True))
two_sided = torch.stft(x, 8, window=w, onesided=False, return_complex=True)
show(two_sided.istft(8, window=w, onesided=False))

# gradients: printed against PyTorch, and gradcheck (finite differences)
xg = torch.randn(30, dtype=torch.float64, requires_grad=True)
wg = (torch.rand(8, dtype=torch.float64) + 0.5).requires_grad_()
z = torch.stft(xg, 8, hop_length=3, window=wg, return_complex=True)
(z.abs() ** 2).sum().backward()
show(xg.grad)
show(wg.grad)
print(torch.autograd.gradcheck(
    lambda a, b: torch.view_as_real(torch.stft(a, 8, hop_length=3, window=b,
                                               return_complex=True)), (xg, wg)))
sg = torch.stft(xg.detach(), 8, hop_length=2, window=wg.detach(), return_complex=True)
sg.requires_grad_()
yg = torch.istft(sg, 8, hop_length=2, window=wg)
(yg * torch.arange(30.0, dtype=torch.float64)).sum().backward()
show(sg.grad)
show(wg.grad)
print(torch.autograd.gradcheck(
    lambda a: torch.istft(torch.view_as_complex(a), 8, hop_length=2, window=wg.detach()),
    (torch.view_as_real(sg.detach()).clone().requires_grad_(),)))

# argument errors in PyTorch's words
for f in [lambda: torch.stft(x[0], 50, center=False, return_complex=True),
          lambda: torch.stft(x[0], 8, hop_length=0, return_complex=True),
          lambda: torch.stft(x[0], 8, win_length=9, return_complex=True),
          lambda: torch.stft(x[0], 8, window=torch.ones(5), return_complex=True),
          lambda: torch.stft(torch.zeros(2, 2, 20), 4, return_complex=True),
          lambda: torch.stft(torch.arange(20), 4, center=False, return_complex=True),
          lambda: torch.stft(xc, 4, onesided=True),
          lambda: torch.stft(x[0], 4, pad_mode="bogus", return_complex=True),
          lambda: torch.stft(x[0, :3], 8, return_complex=True),
          lambda: torch.istft(s, 8, hop_length=9),
          lambda: torch.istft(s, 8, win_length=9),
          lambda: torch.istft(s, 8, window=torch.ones(3)),
          lambda: torch.istft(s, 8, window=torch.zeros(8)),
          lambda: torch.istft(s, 10),
          lambda: torch.istft(s, 8, onesided=False),
          lambda: torch.istft(s[:, :0], 8),
          lambda: torch.istft(torch.zeros(2, 5, 3, 3), 4),
          lambda: torch.istft(torch.zeros(5, 3, 3, 2, 2), 4),
          lambda: torch.istft(s, 8, return_complex=True),
          lambda: torch.istft(s, 8, window=torch.ones(8, dtype=torch.complex64))]:
    try:
        f()
        print("no error")
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, str(e))

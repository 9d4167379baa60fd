"""Tensor.view(dtype): the same bytes read as another dtype, as PyTorch 1.13 does it: same-size dtypes keep the geometry, a smaller one scales the last dim (which must be contiguous), a larger one needs the last dim, offset and other strides to divide; writes show through both ways; the result records no history; PyTorch's errors word for word. (Viewing bytes other than 0/1 as bool is refused by nndb, so that case is not here.)"""
import io
import torch
x = torch.tensor([1.0, -2.0, 0.5, 3.0])
y = x.view(torch.int32); print(y, y.dtype, y.shape, y.stride())
y[0] = 0; print(x)
print(x.view(torch.int16), x.view(torch.int16).shape)
print(x.view(torch.float64), x.view(torch.uint8).shape)
z = torch.arange(12, dtype=torch.float32).view(3, 4)
print(z.t().view(torch.int32).stride())
for f in [lambda: z.t().view(torch.int16), lambda: z.t().view(torch.float64), lambda: z[:, 1:].view(torch.float64), lambda: torch.arange(3.).view(torch.float64),
          lambda: torch.tensor(1.0).view(torch.int16), lambda: torch.ones(3, requires_grad=True).view(torch.int32),
          lambda: torch.ones(2, requires_grad=True).view(torch.float64), lambda: torch.tensor([True, False]).view(torch.uint8), lambda: torch.tensor([1+2j]).view(torch.float32),
          lambda: torch.tensor([1., 2.]).view(torch.complex64), lambda: torch.zeros(2, 0).view(torch.float64), lambda: torch.zeros(0).view(torch.int16)]:
    try:
        r = f(); print("ok", r, r.shape, r.stride(), r.requires_grad, r.grad_fn)
    except Exception as e:
        print(type(e).__name__, e)
w = torch.ones(4, requires_grad=True)
v = w.view(torch.float32); print(v.requires_grad, v.grad_fn, v._base is w)
u = (w * 2).view(torch.int32); print(u.requires_grad, u.grad_fn)
print(torch.ones(2).view(dtype=torch.int32))
print(torch.Tensor.view(torch.ones(2), torch.int32))
d = torch.zeros(2, 4, dtype=torch.float64)
f = d.view(torch.float32); f[0, 1] = 1.5; print(d, f.shape, f.stride())
print(d[:, 1:3].view(torch.int16).shape, d[:, 1:3].view(torch.int16).stride(), d[:, 1:3].view(torch.int16).storage_offset())
x = torch.tensor([1.5, -2.0])
print(x.view(torch.int32) >> 23 & 0xff)
b = torch.tensor([True, False, True])
print(b.view(torch.uint8), b.view(torch.int8))
try: torch.ones(2).reshape(torch.int32)
except Exception as e: print(type(e).__name__, e)
x = torch.arange(8, dtype=torch.float32).view(2, 4)
v = x.view(torch.int32)
print(v.t().contiguous(), v.clone().dtype, v.numpy().dtype, v.sum())
s = v.storage(); print(type(s).__name__, len(s), s[1])
b = io.BytesIO(); torch.save(v, b); b.seek(0); print(torch.load(b))
h = x.view(torch.float16); print(h.shape, h.dtype, h[0, :4])
c = torch.tensor([[1+2j, 3-4j]]); f = c.view(torch.float32); print(f, f.shape)
f[0, 1] = 9; print(c)
print(torch.tensor([1., 2.]).view(torch.complex64))
print(torch.tensor([1.0, 2.0], dtype=torch.float64)[1:].view(torch.int64))
for v in [3, None, "float"]:
    try:
        torch.ones(2).view(dtype=v)
    except TypeError as e:
        print(str(e).splitlines()[0])

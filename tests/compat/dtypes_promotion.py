# The narrow dtypes (issue 11): creation, printing, conversion edge cases,
# PyTorch's promotion table, and the memory accounting of the CS336 lesson.
import torch

# creation and printing
print(torch.tensor([0.1, 65504, 65519, 65520, 1e-8, float('nan'), -float('inf')], dtype=torch.float16))
print(torch.tensor([0.1, 1.0 / 3, 3e38, float('nan')], dtype=torch.bfloat16))
print(torch.tensor([1.0, 2.0], dtype=torch.float16), torch.tensor(2.5, dtype=torch.bfloat16))
print(torch.zeros(2, dtype=torch.int8), torch.ones(2, 2, dtype=torch.uint8))
print(torch.arange(5, dtype=torch.int16), torch.arange(0, 1, 0.25, dtype=torch.half))
print(torch.full((2,), 7, dtype=torch.int32), torch.empty(0, dtype=torch.half))
print(torch.tensor([1e-5, 123.456, 1e5], dtype=torch.float16))
print(torch.tensor([1e-5, 123.456, 1e5], dtype=torch.bfloat16))
print(torch.int32, torch.half, torch.short, torch.uint8, torch.bfloat16, torch.float16 == torch.half)
print(torch.tensor([1, 2], dtype=int), torch.tensor([1, 2], dtype=float), torch.zeros(2, dtype=bool))
print(torch.tensor([0.1], dtype=torch.bfloat16).item(), torch.tensor([1.5], dtype=torch.half).item())
print(torch.tensor([1, 2], dtype=torch.int8).tolist())
for bad in ([300], [2**31]):
    try:
        torch.tensor(bad, dtype=torch.uint8 if bad == [300] else torch.int32)
    except RuntimeError as e:
        print("RuntimeError:", e)

# conversions as PyTorch's CPU casts
print(torch.tensor([-3.7], dtype=torch.int8), torch.tensor([300.0]).to(torch.uint8))
print(torch.tensor([1e10, -1e10, float('nan'), float('inf')]).to(torch.int8))
print(torch.tensor([1e10, -1e10, float('nan')]).to(torch.int32))
print(torch.tensor([-1.5, 255.9, 256.0, -0.5]).to(torch.uint8))
print(torch.tensor([200, -200]).to(torch.int8), torch.tensor([70000.0], dtype=torch.bfloat16).half())
print(torch.tensor([2.5], dtype=torch.half).int(), torch.tensor([2.5]).short(), torch.tensor([-2.5]).char())
print(torch.tensor([258.0]).byte(), torch.tensor([0.0, 2.0]).bool(), torch.tensor([1, 2]).double())
print(torch.tensor([1, 2], dtype=torch.int8).type(), torch.tensor([1.0]).type(), torch.tensor([1.0]).half().type())
print(torch.tensor([1]).type(torch.float16), torch.tensor([1.5]).type('torch.IntTensor'))
print(torch.tensor([1.0, 2.0]).to(torch.bfloat16), torch.tensor([1.0]).to(dtype=torch.int16))

# promotion (torch.result_type)
i8 = torch.tensor([100, 2], dtype=torch.int8)
u8 = torch.tensor([1, 2], dtype=torch.uint8)
h = torch.tensor([1.0, 0.1], dtype=torch.half)
b = torch.tensor([1.0, 0.1], dtype=torch.bfloat16)
print(u8 + i8, i8 * 2, i8 * 2.5, i8 / 2, i8 // 3, i8 % 3, i8 ** 2)
print(h + b, h * 2.5, h / 3, h + torch.tensor(1.0, dtype=torch.float64), h + 1)
print(torch.tensor([1], dtype=torch.int32) + torch.tensor([1]), i8 + torch.tensor(1000))
print(i8 + torch.tensor(1.0, dtype=torch.float64), u8 - torch.tensor([2], dtype=torch.uint8))
print(torch.tensor([True]) + 1, torch.tensor([True]) + 1.5, torch.tensor([True]) + h)
print(torch.maximum(i8, u8), torch.tensor([1000.0], dtype=torch.half) * 100)
print(i8 == 100, h > 0.5, i8.exp(), i8.sign(), (-i8).abs(), -torch.tensor([-128], dtype=torch.int8))
print(torch.cat([torch.tensor([1], dtype=torch.int8), torch.tensor([1], dtype=torch.uint8)]))

# the three bugs of issue 11 and their class
x = torch.tensor([1, 5, 9])
mask = torch.tensor([True, False])
print(torch.clamp(x, 2, 6), torch.clamp(x, 2.5, 6), x.clamp(min=2), x.clamp(max=2.5))
print(torch.clamp(torch.tensor([1, 5, 9], dtype=torch.int8), 2, 6), torch.tensor([True, False]).clamp(0, 1))
print(torch.where(mask, 1.0, 0.0), torch.where(mask, 1, 0), torch.where(mask, True, False))
print(torch.where(mask, torch.tensor([1, 2], dtype=torch.int8), 0), torch.where(mask, i8, 0.5))
print(torch.where(mask, h, 0.5), torch.where(mask, 1, torch.tensor([1, 2], dtype=torch.int8)))
print(mask + torch.tensor([True, True]), mask * torch.tensor([True, True]), torch.maximum(mask, mask))
print(mask.sign(), mask.sum(), i8.sum(), torch.tensor([1, 2], dtype=torch.int32).sum(), h.sum(), h.mean())
print(i8.max(), mask.max(), torch.tensor([[1, 2], [3, 0]], dtype=torch.int16).min(1))
for f in [lambda: mask - mask, lambda: -mask, lambda: mask.abs(), lambda: x.mean(), lambda: i8.mean(),
          lambda: x.norm(), lambda: x.var(), lambda: mask.argmax(), lambda: x ** -1]:
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)

# float16 has no CPU matmul in torch 1.13; bfloat16 has
for f in [lambda: h @ h, lambda: h.view(1, 2) @ h.view(2, 1), lambda: torch.ones(2, 2, dtype=torch.half) @ h, lambda: torch.ones(2, 2, 2, dtype=torch.half) @ torch.ones(2, 2, 2, dtype=torch.half),
          lambda: h.exp(), lambda: h.softmax(0), lambda: torch.relu(h)]:
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)
w = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.25, 0.125]], dtype=torch.bfloat16, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], dtype=torch.bfloat16, requires_grad=True)
out = torch.nn.functional.linear(v.view(1, 3), w)
print(out)
out.sum().backward()
print(v.grad, w.grad)
lf = torch.tensor([1.0, 2.0, 3.0], dtype=torch.half, requires_grad=True)
loss = (lf * lf).sum()
print(loss)
loss.backward()
print(lf.grad, lf.grad.dtype)

# memory accounting (CS336)
for dt in [torch.float32, torch.bfloat16, torch.float16, torch.float64, torch.int8]:
    t = torch.zeros(4, 8, dtype=dt)
    print(dt, t.element_size(), t.element_size() * t.nelement(), t.is_floating_point())
x = torch.zeros(4, 8)
y = x[0]
print(y.data_ptr() == x.data_ptr(), x[1].data_ptr() - x.data_ptr(), x[1].storage_offset())
print(x.T.is_contiguous(), x.is_contiguous(), x.stride(), x.T.stride())
z = x.half()
print(z[2].data_ptr() - z.data_ptr(), z.element_size())

# a built-in module in bfloat16 and float16
lin = torch.nn.Linear(3, 2)
lin.bfloat16()
print(lin.weight.dtype, lin.bias.dtype, lin.weight.element_size() * lin.weight.nelement())
print(lin(torch.ones(1, 3, dtype=torch.bfloat16)).dtype)
lin.half()
print(lin.weight.dtype)
try:
    lin(torch.ones(1, 3, dtype=torch.half))
except RuntimeError as e:
    print("RuntimeError:", e)
lin.float()
print(lin.weight.dtype)

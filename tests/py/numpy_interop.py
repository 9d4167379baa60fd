# torch tensors and NumPy arrays: shared memory both ways, NumPy functions
# on tensors, dtypes, and the errors PyTorch gives.
import numpy as np
import torch

a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100
print(t)
t[1, 2] = -1
print(a)
print(t.dtype, torch.from_numpy(np.arange(3)).dtype, torch.from_numpy(np.array([True, False])).dtype)
x = torch.arange(12.0).reshape(3, 4)
n = x.numpy()
n[0, 1] = 7
print(x[0])
print(np.asarray(x).shape, np.mean(x.numpy()), np.asarray(x.t()).tolist())
print(torch.tensor(np.array([[1, 2], [3, 4]])), torch.tensor(np.float64(2.5)))
print(torch.as_tensor(np.ones(3, dtype=np.float64)).dtype)
y = torch.ones(2, requires_grad=True)
try:
    y.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
print(y.detach().numpy())
print(np.allclose(torch.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5)))
print(np.array(torch.tensor([1.5, 2.5])) * 2)
s = x[:, 1]
print(s.numpy(), s.numpy().strides)
print(torch.zeros(2, 2, dtype=torch.int64).numpy().dtype, torch.zeros(2, dtype=torch.bool).numpy())
# A ufunc on a tensor gives a tensor (__array_wrap__), bool as uint8 in 1.13.
e = np.exp(torch.tensor([0.0, 1.0]))
print(type(e).__name__, e)
print(np.greater(torch.tensor([1.0, -1.0]), 0), np.add(torch.ones(2), np.ones(2)))
# NumPy scalars defer to the tensor's operators (__array_priority__).
print(np.float32(1.5) * torch.tensor([2.0]), np.float64(2) + torch.tensor([1.0]))
print(type(np.float32(1.5) * torch.tensor([2.0])).__name__)
# int64 arrays print as NumPy's own int64 (no dtype= in the repr).
print(repr(np.asarray(torch.arange(6).view(2, 3))), repr(torch.arange(3).numpy()))
print(np.asarray(torch.arange(3)).dtype.char == np.arange(3).dtype.char)

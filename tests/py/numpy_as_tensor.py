"""torch.as_tensor / torch.asarray / torch.from_numpy on numpy arrays, as
PyTorch does them: an array of a tensor dtype is shared (writes through
the tensor reach the array, strides kept), another dtype asked for gives a
converted copy; negative strides, read-only arrays and dtypes with no
tensor dtype get PyTorch's errors and warning. Also the refusals of
requires_grad on integer tensors and of a second backward, in PyTorch's
words (scripts print them and learners search for them)."""
import warnings

import numpy as np
import torch


def show(name, f):
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = f()
        print(name, "->", r, [str(x.message).split(" (Triggered")[0] for x in w])
    except Exception as e:
        print(name, "!!", type(e).__name__, e)


def shares(make, dtype=None):
    a = np.zeros(3, dtype=dtype)
    t = make(a)
    t.add_(1)
    return a.tolist(), t.dtype


show("as_tensor f64 shares", lambda: shares(torch.as_tensor))
show("as_tensor f32 shares", lambda: shares(torch.as_tensor, np.float32))
show("as_tensor int64 shares", lambda: shares(torch.as_tensor, np.int64))
show("as_tensor same dtype shares",
     lambda: shares(lambda a: torch.as_tensor(a, dtype=torch.float32), np.float32))
show("as_tensor other dtype copies",
     lambda: shares(lambda a: torch.as_tensor(a, dtype=torch.float64), np.float32))
show("asarray shares", lambda: shares(torch.asarray))
show("tensor copies", lambda: shares(torch.tensor))
show("from_numpy shares", lambda: shares(torch.from_numpy))
t = torch.as_tensor(np.arange(6.).reshape(2, 3).T)
show("as_tensor keeps strides", lambda: (t.stride(), t.is_contiguous(), t.tolist()))
show("as_tensor 0-d", lambda: torch.as_tensor(np.array(2.5)))
show("as_tensor numpy scalar", lambda: torch.as_tensor(np.float32(2)))
show("as_tensor list", lambda: torch.as_tensor([1, 2]))
show("as_tensor negative stride", lambda: torch.as_tensor(np.arange(3)[::-1]))
show("from_numpy negative stride", lambda: torch.from_numpy(np.arange(3)[::-1]))
show("as_tensor uint16", lambda: torch.as_tensor(np.zeros(2, dtype=np.uint16)))
show("from_numpy uint16", lambda: torch.from_numpy(np.zeros(2, dtype=np.uint16)))
show("tensor uint16", lambda: torch.tensor(np.zeros(2, dtype=np.uint16)))
show("tensor object", lambda: torch.tensor(np.array([1, "a"], dtype=object)))
show("from_numpy object", lambda: torch.from_numpy(np.array([1, "a"], dtype=object)))
show("from_numpy list", lambda: torch.from_numpy([1, 2]))
show("from_numpy read-only", lambda: torch.from_numpy(np.broadcast_to(np.zeros(3), (2, 3))))
show("as_tensor complex", lambda: torch.as_tensor(np.array([1 + 2j], dtype=np.complex64)))

show("requires_grad= int", lambda: torch.ones(2, dtype=torch.long, requires_grad=True))
show("tensor requires_grad= int", lambda: torch.tensor([1, 2], requires_grad=True))
show("arange requires_grad=", lambda: torch.arange(3, requires_grad=True))
show("bool requires_grad=", lambda: torch.zeros(2, dtype=torch.bool, requires_grad=True))
show("requires_grad_() int", lambda: torch.ones(2, dtype=torch.long).requires_grad_())
show("requires_grad_(False) int", lambda: torch.ones(2, dtype=torch.long).requires_grad_(False))
show("requires_grad = True int",
     lambda: setattr(torch.ones(2, dtype=torch.long), "requires_grad", True))
show("Parameter int", lambda: torch.nn.Parameter(torch.ones(2, dtype=torch.long)))
show("Parameter int no grad",
     lambda: torch.nn.Parameter(torch.ones(2, dtype=torch.long), requires_grad=False))

x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
y.backward()
show("second backward", lambda: y.backward())
z = x.exp().sum()
torch.autograd.grad(z, x)
show("second autograd.grad", lambda: torch.autograd.grad(z, x))

# numpy's integer scalars as sizes (a shape computed with numpy)
show("zeros(np.int64)", lambda: torch.zeros(np.int64(3)))
show("ones(np.int32, 2)", lambda: torch.ones(np.int32(2), 2).shape)
show("randn((np.int64,))", lambda: torch.randn((np.int64(2),)).shape)
show("view(np.int64)", lambda: torch.ones(2, 3).view(np.int64(6)).shape)
try:  # the type; nndb's words name the argument without the function
    torch.zeros(2.0)
except TypeError:
    print("zeros(float) TypeError")

"""torch.tensor of lists holding tensors and numpy arrays, as PyTorch
builds them: a tensor inside the lists is one number (a one-element tensor
of any shape gives its value; another is PyTorch's ValueError), numpy
arrays inside the lists are walked (with PyTorch's once-a-process warning)
and a float64 element makes the result float64. Also the warnings PyTorch
gives learners: torch.tensor(a_tensor), reading a non-leaf's .grad,
F.upsample*, scatter_reduce's beta note (once)."""
import warnings

import numpy as np
import torch
import torch.nn.functional as F


def show(name, f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = f()
            print(name, "->", r, getattr(r, "dtype", ""))
        except Exception as e:
            print(name, "!!", type(e).__name__, e)
    for w in ws:
        print("   warns", w.category.__name__, str(w.message).split(" (Triggered")[0][:100])


show("1-element 1-d tensors", lambda: torch.tensor([torch.tensor([1.]), torch.tensor([2.])]))
show("0-d tensors", lambda: torch.tensor([torch.tensor(1.), torch.tensor(2.)]))
show("1x1 tensors", lambda: torch.tensor([torch.ones(1, 1), torch.ones(1, 1)]))
show("multi-element tensors", lambda: torch.tensor([torch.ones(2), torch.ones(2)]))
show("nested multi-element", lambda: torch.tensor([[torch.ones(2)]]))
show("tuple of tensors", lambda: torch.tensor((torch.ones(2), torch.ones(2))))
show("as_tensor list of tensors", lambda: torch.as_tensor([torch.ones(2), torch.ones(2)]))
show("FloatTensor list of tensors", lambda: torch.FloatTensor([torch.ones(2), torch.ones(2)]))
show("losses", lambda: torch.tensor([torch.ones(1, requires_grad=True).sum() * 2,
                                     torch.tensor(3.)]))
show("int tensors", lambda: torch.tensor([torch.tensor(1), torch.tensor(2)]))
show("bool tensors", lambda: torch.tensor([torch.tensor(True), torch.tensor(False)]))
show("float64 tensor element", lambda: torch.tensor([torch.tensor(1., dtype=torch.float64), 2.]))
show("numpy arrays", lambda: torch.tensor([np.ones(2), np.ones(2)]))
show("numpy arrays again", lambda: torch.tensor([np.ones(2), np.zeros(2)]))
show("numpy float32 arrays", lambda: torch.tensor([np.ones(2, dtype=np.float32)] * 2))
show("numpy int arrays", lambda: torch.tensor([np.arange(2), np.arange(2)]))
show("list and array", lambda: torch.tensor([[1, 2], np.array([3, 4])]))
show("arrays, dtype given", lambda: torch.tensor([np.ones(2)], dtype=torch.float32))
show("numpy float64 scalars", lambda: torch.tensor([np.float64(1.5), 2.0]))
show("numpy float32 scalars", lambda: torch.tensor([np.float32(1.5), 2.0]))

show("tensor(tensor)", lambda: torch.tensor(torch.ones(2)))
x = torch.ones(2, requires_grad=True)
h = x * 2
show("non-leaf .grad", lambda: h.grad)
h.retain_grad()
show("retained non-leaf .grad", lambda: h.grad)
show("leaf .grad", lambda: x.grad)
show("F.upsample", lambda: F.upsample(torch.ones(1, 1, 2), scale_factor=2).shape)
show("F.upsample_nearest", lambda: F.upsample_nearest(torch.ones(1, 1, 2), scale_factor=2).shape)
show("F.upsample_bilinear",
     lambda: F.upsample_bilinear(torch.ones(1, 1, 2, 2), scale_factor=2).shape)
for i in range(2):
    show(f"scatter_reduce {i}", lambda: torch.zeros(3).scatter_reduce(
        0, torch.tensor([0, 0]), torch.tensor([1., 2.]), "sum"))

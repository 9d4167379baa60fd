"""torch.empty_strided gives the strides asked for (a view over new memory of the size the strides reach), and PyTorch's refusals of mismatched, negative sizes and strides."""
import torch
a = torch.empty_strided((2,3),(1,2)); print(a.stride(), a.storage_offset(), len(a.storage()), a.is_contiguous())
b = torch.empty_strided((2,3),(0,1)); print(b.stride(), len(b.storage()))
c = torch.empty_strided((0,3),(3,1)); print(c.stride(), len(c.storage()))
d = torch.empty_strided((2,3),(3,1), dtype=torch.float64, requires_grad=True); print(d.stride(), d.requires_grad, d.is_leaf, d._base is None, d.dtype)
for args in [((2,3),(1,)), ((2,-3),(1,2)), ((2,3),(1,-2))]:
    try: torch.empty_strided(*args)
    except Exception as e: print(type(e).__name__, e)
a.fill_(1); print(a, a.stride())
a.copy_(torch.arange(6.).view(2, 3)); print(a.storage().tolist())
(d * 2).sum().backward(); print(d.grad)
e = torch.empty_strided((), ()); print(e.shape, e.stride())

"""The unary maps computed one value at a time (frac, trunc, rounding, reciprocal, exp2, the inverse hyperbolics, lgamma, digamma, erfinv, i0, sinc, erfc) keep a transposed or permuted input's layout, as PyTorch's TensorIterator does, with PyTorch's values bit for bit."""
import torch
x = torch.arange(12.).view(3, 4).t() / 7 + 1.5
p = (torch.arange(24.).view(2, 3, 4) / 9 + 1.25).permute(2, 0, 1)
for name in ["frac", "trunc", "ceil", "floor", "round", "reciprocal", "exp2", "asinh", "acosh", "atanh",
             "lgamma", "digamma", "erfinv", "i0", "sinc", "erfc"]:
    f = getattr(torch, name)
    arg = x / 3 if name in ("atanh", "erfinv") else x
    y, z = f(arg), f(p / 8 if name in ("atanh", "erfinv") else p)
    print(name, y.stride(), y.is_contiguous(), z.stride(), [v.hex() for v in y.flatten().tolist()][:6])
    print("  ", [v.hex() for v in f(arg.double()).flatten().tolist()][:3], f(arg.double()).stride())

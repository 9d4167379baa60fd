"""Factories called with size= as a keyword keep their other keywords
(dtype=, requires_grad=, generator=), as PyTorch's do; nndb used to drop
every keyword that came after size=."""
import torch


def show(name, f):
    try:
        t = f()
        print(name, "->", tuple(t.shape), t.dtype, t.requires_grad)
    except Exception as e:
        print(name, "!!", type(e).__name__, str(e).splitlines()[0])


for f in (torch.rand, torch.randn, torch.zeros, torch.ones, torch.empty):
    n = f.__name__
    show(f"{n} size= dtype=", lambda: f(size=(2,), dtype=torch.float64))
    show(f"{n} dtype= size=", lambda: f(dtype=torch.float64, size=(2, 3)))
    show(f"{n} size= requires_grad=", lambda: f(size=[3], requires_grad=True))
    show(f"{n} size= half", lambda: f(size=(2,), dtype=torch.float16))
    show(f"{n} positional and size=", lambda: f(2, size=(2,)))
g = torch.Generator().manual_seed(3)
a = torch.rand(size=(3,), generator=g, dtype=torch.float64)
g.manual_seed(3)
print("generator kept", torch.equal(a, torch.rand(3, generator=g, dtype=torch.float64)))
show("randint size= dtype=", lambda: torch.randint(0, 5, size=(2,), dtype=torch.int32))
show("full size= dtype=", lambda: torch.full(size=(2,), fill_value=1.0, dtype=torch.float64))

"""torch.zeros/ones/empty/rand/randn with no size raise PyTorch's TypeError (no argument at all: no signature fits; keywords only: "size" is missing), while () and [] and size=() make the 0-dim tensor."""
import torch
for f in ["zeros", "ones", "empty", "rand", "randn"]:
    try:
        getattr(torch, f)()
    except TypeError as e:
        print(f, str(e).splitlines()[0])
    print(f, getattr(torch, f)(()).shape, getattr(torch, f)([]).shape, getattr(torch, f)(size=()).shape, getattr(torch, f)(2, dtype=torch.float64).dtype)
try:
    torch.zeros(dtype=torch.float64)
except TypeError as e:
    print(str(e).splitlines()[0])
for f in ["zeros", "ones", "empty", "rand", "randn"]:
    for kw in [dict(dtype=torch.float64), dict(requires_grad=True)]:
        try:
            getattr(torch, f)(**kw)
        except TypeError as e:
            print(f, str(e).splitlines()[0])

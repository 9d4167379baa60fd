# PyTorch 1.13's any/all take one int dim and a bool keepdim: a tuple or
# list of dims (accepted from PyTorch 2.2 on), keepdim= without a dim, a
# float, a bool or a 1-element tensor as the dim, axis=/keepdims=, an int
# keepdim and a third argument are TypeErrors in its argument parser's
# words (the signatures, and "didn't match because" under those with as
# many arguments as the call); None or a string as the dim is the
# RuntimeError of its dim-by-name overload. What it takes (an int, a
# numpy int, a 0-dim int tensor) still reduces.
import numpy as np

import torch

x = torch.tensor([[True, False], [True, True]])
f = torch.ones(2, 3)
calls = [
    ("x.any(dim=(0, 1))", lambda: x.any(dim=(0, 1))),
    ("x.all((0, 1))", lambda: x.all((0, 1))),
    ("x.all([1])", lambda: x.all([1])),
    ("x.any(())", lambda: x.any(())),
    ("x.all((0,), keepdim=True)", lambda: x.all((0,), keepdim=True)),
    ("x.any(keepdim=True)", lambda: x.any(keepdim=True)),
    ("x.any(1.0)", lambda: x.any(1.0)),
    ("x.any(True)", lambda: x.any(True)),
    ("x.any(0, 1)", lambda: x.any(0, 1)),
    ("x.any(0, keepdim=1)", lambda: x.any(0, keepdim=1)),
    ("x.any(0, np.bool_(True))", lambda: x.any(0, np.bool_(True))),
    ("x.any(0, True, 1)", lambda: x.any(0, True, 1)),
    ("x.any(torch.tensor(1.))", lambda: x.any(torch.tensor(1.))),
    ("x.any(torch.tensor([1]))", lambda: x.any(torch.tensor([1]))),
    ("x.any(keepdims=True)", lambda: x.any(keepdims=True)),
    ("x.all(dim=(0, 1), keepdims=True)", lambda: x.all(dim=(0, 1), keepdims=True)),
    ("torch.any(x, (0, 1))", lambda: torch.any(x, (0, 1))),
    ("torch.all(x, dim=(0,))", lambda: torch.all(x, dim=(0,))),
    ("torch.all(x, (0, 1), True)", lambda: torch.all(x, (0, 1), True)),
    ("torch.all(x, dim=(0, 1), keepdim=True)", lambda: torch.all(x, dim=(0, 1), keepdim=True)),
    ("torch.any(f, (0, 1))", lambda: torch.any(f, (0, 1))),
    ("torch.any(x, axis=(0, 1))", lambda: torch.any(x, axis=(0, 1))),
    ("torch.any(x, (0, 1), out=)", lambda: torch.any(x, (0, 1), out=torch.tensor(True))),
    ("torch.all(x.to(torch.uint8), [0])", lambda: torch.all(x.to(torch.uint8), [0])),
    ("x.any(None)", lambda: x.any(None)),
    ("x.all(dim=None)", lambda: x.all(dim=None)),
    ("torch.any(x, dim=None, keepdim=True)", lambda: torch.any(x, dim=None, keepdim=True)),
    ("x.any('a')", lambda: x.any("a")),
    # what PyTorch 1.13 takes
    ("x.any(1)", lambda: x.any(1)),
    ("x.all(0, True)", lambda: x.all(0, True)),
    ("x.all(dim=-1, keepdim=False)", lambda: x.all(dim=-1, keepdim=False)),
    ("x.any(np.int64(1))", lambda: x.any(np.int64(1))),
    ("x.all(torch.tensor(1))", lambda: x.all(torch.tensor(1))),
    ("torch.all(x, 1, out=)", lambda: torch.all(x, 1, out=torch.empty(2, dtype=torch.bool))),
    ("torch.any(input=x, dim=0)", lambda: torch.any(input=x, dim=0)),
    ("x.any()", lambda: x.any()),
    ("torch.all(f)", lambda: torch.all(f)),
]
for text, call in calls:
    try:
        print(text, "->", call())
    except Exception as e:
        print(text, "->", type(e).__name__, e)

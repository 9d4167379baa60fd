"""Exception types (what `except` clauses catch) and the start of the
message as PyTorch 1.13 raises them, for mistakes learners make: a scalar
from a tensor of zero or several elements, probabilities out of [0, 1] in
binary_cross_entropy; and where a loss's size-mismatch warning points (the
line that called the loss, not a frame inside torch)."""
import os
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def show(name, f, prefix=None):
    try:
        print(name, "->", f())
    except Exception as e:
        msg = str(e) if prefix is None else str(e)[:prefix]
        print(name, "!!", type(e).__name__, msg)


for n in (0, 2):
    t = torch.ones(n)
    show(f"item of {n}", t.item)
    show(f"float of {n}", lambda: float(t))
    show(f"int of {n}", lambda: int(t))
    show(f"complex of {n}", lambda: complex(t))
    show(f"bool of {n}", lambda: bool(t))
    show(f"format of {n}", lambda: "%d" % t)
show("item of long 2", torch.ones(2, dtype=torch.long).item)
show("index of 2", torch.ones(2, dtype=torch.long).__index__)
for x in ([1.5], [float("nan")], [-0.1, 0.5]):
    show(f"bce {x}", lambda: F.binary_cross_entropy(torch.tensor(x), torch.ones(len(x))), 47)
show("bce ok", lambda: F.binary_cross_entropy(torch.tensor([0.25]), torch.ones(1)))


def where_warned(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f()
    return [(os.path.basename(x.filename), x.lineno if x.filename == __file__ else "-",
             str(x.message)[:40]) for x in w]


print("mse", where_warned(lambda: F.mse_loss(torch.ones(4, 1), torch.ones(4))))
print("l1", where_warned(lambda: F.l1_loss(torch.ones(4, 1), torch.ones(4))))
print("smooth_l1", where_warned(lambda: F.smooth_l1_loss(torch.ones(4, 1), torch.ones(4))))
print("MSELoss module", where_warned(lambda: nn.MSELoss()(torch.ones(4, 1), torch.ones(4))))

# in place through a view of a leaf that requires grad: PyTorch's refusal
x = torch.ones(3, 2, requires_grad=True)
show("leaf select mul_", lambda: x[0].mul_(2))
show("leaf slice of slice add_", lambda: x[1:][0].add_(1))
show("leaf view add_", lambda: x.view(-1).add_(1))
show("leaf t mul_", lambda: x.t().mul_(2))
show("leaf t zero_", lambda: x.t().zero_())
show("leaf select fill_", lambda: x[1].fill_(3))
with torch.no_grad():
    x[0].mul_(2)
print(x)

# argument checks that raise PyTorch's exception type in its words
L = torch.long
show("normal std<0", lambda: torch.normal(0., -1., (2,)))
show("normal tensor mean std<0", lambda: torch.normal(torch.zeros(2), -0.5))
show("normal std nan", lambda: torch.normal(torch.zeros(2), float("nan")))
show("normal tensor std<0", lambda: torch.normal(torch.zeros(2), torch.tensor([1., -1.])))
show("normal_ std<0", lambda: torch.empty(2).normal_(0, -1))
show("log_normal_ std 0", lambda: torch.empty(2).log_normal_(0, 0))
show("flatten start after end", lambda: torch.ones(2, 3).flatten(1, 0))
show("kthvalue k too big", lambda: torch.ones(3).kthvalue(5))
show("nll batch", lambda: F.nll_loss(torch.ones(2, 3), torch.zeros(3, dtype=L)))
show("nll 0-d target", lambda: F.nll_loss(torch.ones(2, 3), torch.tensor(0)))
show("ce batch", lambda: F.cross_entropy(torch.ones(2, 3), torch.zeros(3, dtype=L)))
show("ce 3-d batch", lambda: F.cross_entropy(torch.ones(2, 3, 4), torch.zeros(3, 4, dtype=L)))
show("ce float target batch", lambda: F.cross_entropy(torch.ones(2, 3), torch.ones(3, 3)))
show("ce weighted batch",
     lambda: F.cross_entropy(torch.ones(2, 3), torch.zeros(3, dtype=L), weight=torch.ones(3)))
show("CrossEntropyLoss batch", lambda: nn.CrossEntropyLoss()(torch.ones(4, 3), torch.zeros(2, dtype=L)))
# multinomial: every refusal is PyTorch's RuntimeError in its words
show("multinomial zero sum", lambda: torch.multinomial(torch.tensor([0., 0.]), 1))
show("multinomial negative", lambda: torch.multinomial(torch.tensor([-1., 1.]), 1))
show("multinomial nan row 2", lambda: torch.multinomial(torch.tensor([[1., 1.], [float("nan"), 1.]]), 1))
show("multinomial 0 samples", lambda: torch.multinomial(torch.tensor([1., 1.]), 0))
show("multinomial too many", lambda: torch.multinomial(torch.tensor([1., 1.]), 3))
show("multinomial 3-d", lambda: torch.multinomial(torch.ones(2, 2, 2), 1))
show("multinomial long", lambda: torch.multinomial(torch.tensor([1, 1]), 1))
show("multinomial no categories", lambda: torch.multinomial(torch.ones(0), 1))
show("mean dtype long", lambda: torch.ones(3).mean(dtype=torch.long))
show("mean of long", lambda: torch.tensor([1, 2]).mean())
show("mean of long as float", lambda: torch.tensor([1, 2]).mean(dtype=torch.float64))
show("round decimals long", lambda: torch.arange(5).round(decimals=2))
show("round long", lambda: torch.arange(5).round())
show("round decimals float", lambda: torch.tensor([1.234, 5.678]).round(decimals=1))

"""What learners print after a training step: grad_fn names stay PyTorch's once backward has released a non-leaf input (a hidden layer's Linear is still AddmmBackward0, x @ w still MmBackward0; nndb named them from the released input's rank), number - tensor is RsubBackward1 and torch.rsub(t, 2.0) keeps t's dtype (was float64 and SubBackward0), and torch.normal(0, 0.01, size=..., requires_grad=True) is a leaf that requires grad (d2l's linear regression from scratch; it was ignored) with PyTorch's refusal of integer dtypes."""
import torch, torch.nn as nn
torch.manual_seed(0)
def mk(): return torch.relu(torch.randn(4, 3, requires_grad=True))
w = torch.randn(3, 2, requires_grad=True)
v = torch.randn(3, requires_grad=True)
outs = {"linear2d": lambda: nn.Linear(3, 2)(mk()), "linear1d": lambda: nn.Linear(3, 2)(mk()[0]), "linear3d": lambda: nn.Linear(3, 2)(mk().view(2, 2, 3)), "linear4d": lambda: nn.Linear(3, 2)(mk().view(2, 2, 1, 3)),
        "nobias": lambda: nn.Linear(3, 2, bias=False)(mk()), "nobias1d": lambda: nn.Linear(3, 2, bias=False)(mk()[0]), "nobias3d": lambda: nn.Linear(3, 2, bias=False)(mk().view(2, 2, 3)),
        "mm": lambda: mk() @ w, "mv": lambda: mk() @ v, "dot": lambda: mk()[0] @ v, "vm": lambda: mk()[0] @ w, "bmm": lambda: mk().view(1, 4, 3) @ w,
        "rsub": lambda: 1 - mk(), "sub": lambda: mk() - 1, "div": lambda: 1 / mk(), "pow": lambda: mk() ** 2, "rpow": lambda: 2 ** mk(), "mm2": lambda: mk() @ torch.relu(w)}
for k, f in outs.items():
    o = f()
    before = type(o.grad_fn).__name__
    o.sum().backward()
    print(k, before, type(o.grad_fn).__name__, o.grad_fn.name())
b = torch.zeros(2, requires_grad=True) + 0.5
i = torch.tensor([1, 2])
for e in ["4.2 - b", "4 - b", "b - 4.2", "b.__rsub__(2.0)", "torch.rsub(b, 2.0)", "torch.rsub(b, 2)", "torch.rsub(b, torch.tensor(2.))", "torch.rsub(b, 2.0, alpha=3)",
    try: print(e, "->", eval(e))
    except Exception as ex: print(e, "->", type(ex).__name__, ex)
x = torch.ones(3, requires_grad=True); (2 - x).sum().backward(); print(x.grad)
x = torch.ones(3, requires_grad=True); torch.rsub(x, 2.0, alpha=3).sum().backward(); print(x.grad)
torch.manual_seed(0)
w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
print(w, w.is_leaf, w.grad_fn, torch.normal(0., 1., (2,), dtype=torch.float64, requires_grad=True), torch.normal(0, 1, (2,)).requires_grad)
(w * 3).sum().backward()
print(w.grad)
try:
    torch.normal(0, 1, (2,), dtype=torch.int64)
except RuntimeError as e:
    print("RuntimeError:", e)

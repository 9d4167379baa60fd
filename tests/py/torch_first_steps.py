# What a new user types first (issue 20's list): legacy constructors,
# torch.dist, trace, meshgrid, normal, randint_like, nn.init.eye_, in-place
# ops across float dtypes, and the errors in PyTorch's words that learners
# search for (dtype mismatches in matmul/linear, class-index targets).
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def show(name, t):
    if isinstance(t, torch.Tensor):
        print(name, list(t.shape), t.dtype, [round(v, 4) for v in t.double().reshape(-1).tolist()[:8]])
    else:
        print(name, t)


def err(name, f):
    try:
        r = f()
        print(name, "no error", r.dtype if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0])


show("Tensor([2.0])", torch.Tensor([2.0]))
print("Tensor(2, 3)", torch.Tensor(2, 3).shape, torch.Tensor(2, 3).dtype)
show("FloatTensor", torch.FloatTensor([1, 2]))
show("LongTensor", torch.LongTensor([[1, 2], [3, 4]]))
show("DoubleTensor", torch.DoubleTensor([0.5]))
print("LongTensor(3)", torch.LongTensor(3).shape)
a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.5, -1.0, 2.0])
show("dist", torch.dist(a, b))
show("dist p=1", torch.dist(a, b, 1))
show("dist p=inf", a.dist(b, float("inf")))
m = torch.arange(12.0).reshape(3, 4)
show("trace", m.trace())
show("torch.trace", torch.trace(m))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2))
    print("meshgrid default", list(gx.shape), [str(x.message) for x in w])
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
show("meshgrid xy", gx)
show("meshgrid xy y", gy)
err("meshgrid bad", lambda: torch.meshgrid(torch.arange(3), indexing="yx"))
torch.manual_seed(0)
show("normal tensors", torch.normal(torch.zeros(4), torch.arange(1.0, 5.0)))
show("normal scalars", torch.normal(2.0, 3.0, (2, 2)))
show("normal mean tensor", torch.normal(torch.arange(4.0), 1.0))
show("normal std tensor", torch.normal(0.0, torch.arange(1.0, 4.0)))
show("randint_like", torch.randint_like(torch.zeros(2, 3), 10))
show("randint_like low", torch.randint_like(torch.zeros(5, dtype=torch.int64), 3, 7))
show("eye_", nn.init.eye_(torch.empty(3, 4)))

# in-place ops cast their result to the tensor's dtype when PyTorch can
w32 = torch.ones(3)
w32 -= 0.1 * torch.ones(3, dtype=torch.float64)
show("f32 -= f64", w32)
show("mul_ f64", torch.ones(3).mul_(torch.full((3,), 2.5, dtype=torch.float64)))
i32 = torch.ones(3, dtype=torch.int32)
i32 += torch.ones(3, dtype=torch.int64)
show("i32 += i64", i32)
err("int += float", lambda: torch.ones(3, dtype=torch.int64).add_(torch.ones(3)))

# dtype mismatches, in PyTorch's words
f32, f64 = torch.ones(2, 3), torch.ones(3, 4, dtype=torch.float64)
err("f32 @ f64", lambda: f32 @ f64)
err("f64 @ f32", lambda: f64.T @ f32.T)
err("mm", lambda: f32.mm(f64))
err("matmul 3d", lambda: torch.matmul(f32.unsqueeze(0), f64))
err("linear no bias", lambda: F.linear(f32, f64.T))
err("linear bias f32", lambda: F.linear(f32, f64.T, torch.ones(4)))
err("linear bias f64", lambda: F.linear(f32, f64.T, torch.ones(4, dtype=torch.float64)))
err("Linear(f64 input)", lambda: nn.Linear(3, 4)(torch.ones(5, 3, dtype=torch.float64)))
err("Linear(3d f64)", lambda: nn.Linear(3, 4)(torch.ones(2, 5, 3, dtype=torch.float64)))
err("Linear.double()(f32)", lambda: nn.Linear(3, 4).double()(torch.ones(5, 3)))
err("Linear(int64)", lambda: nn.Linear(3, 4)(torch.ones(5, 3, dtype=torch.int64)))
err("shapes", lambda: nn.Linear(3, 4)(torch.ones(5, 2)))
err("cross_entropy float idx", lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([1., 2., 3.])))
err("cross_entropy int32", lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([1, 2, 3], dtype=torch.int32)))
err("nll_loss float", lambda: F.nll_loss(torch.randn(3, 4), torch.tensor([1., 2., 3.])))
show("cross_entropy probs", F.cross_entropy(torch.zeros(3, 4), torch.full((3, 4), 0.25)))
err('embedding float idx', lambda: F.embedding(torch.tensor([1.0]), torch.ones(3, 2)))
err('Embedding float idx', lambda: nn.Embedding(3, 2)(torch.tensor([[0.0, 1.0]])))
show('embedding int32', F.embedding(torch.tensor([2, 0], dtype=torch.int32), torch.arange(6.0).reshape(3, 2)))

# Conversions (to, float(), type_as, ...), new_* factories, seeded random
# draws and fills, and counting ops; dtypes, grads and errors.
import torch


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


x = torch.tensor([1.7, -2.2, 3.5])
print("to dtype", x.to(torch.int64), x.to(dtype=torch.float64), x.to("cpu").dtype,
      x.to(torch.device("cpu"), torch.float16), x.to("cpu", torch.int32))
print("to other", x.to(torch.tensor([1])), x.to(torch.ones(1, dtype=torch.float64)).dtype)
print("to same is self", x.to(torch.float32) is x, x.to("cpu") is x, x.to(torch.float32, copy=True) is x)
print("conversions", x.float().dtype, x.double(), x.long(), x.int(), x.short().dtype, x.char().dtype,
      x.byte(), x.bool(), x.half(), x.bfloat16())
print("type_as", x.type_as(torch.tensor([1])), torch.tensor([1, 2]).type_as(x))
print("type", x.type(), x.type(torch.int64), x.long().type(), x.type("torch.DoubleTensor"))
show("to cuda", lambda: x.to("cuda"))
show("to bad", lambda: x.to("gpu"))
w = torch.tensor([0.5, 1.5], requires_grad=True)
d = w.double()
(d * d).sum().backward()
print("grad through to", d.grad_fn.name(), d.dtype, w.grad, w.grad.dtype)

# new_* and friends
print("new_zeros", x.new_zeros(2, 3), x.new_zeros((2,)), torch.tensor([1]).new_zeros(2))
print("new_ones", x.new_ones(2), x.new_ones((1, 2), dtype=torch.int64))
print("new_full", x.new_full((2, 2), 7), torch.tensor([1]).new_full((3,), 2))
print("new_empty", x.new_empty(3).shape, x.new_tensor([1, 2]), x.new_tensor([1, 2]).dtype)
print("new requires_grad", x.new_zeros(2, requires_grad=True))

# seeded random
torch.manual_seed(0)
print("normal_", torch.empty(5).normal_(), torch.empty(3).normal_(2.0, 0.5))
print("uniform_", torch.empty(4).uniform_(), torch.empty(3).uniform_(-1, 1))
print("bernoulli_", torch.empty(6).bernoulli_(0.5), torch.empty(4).bernoulli_())
print("exponential_", torch.empty(3).exponential_())
print("random_", torch.empty(5, dtype=torch.int64).random_(10), torch.empty(3).random_(2, 5))
g = torch.Generator().manual_seed(42)
print("generator", torch.empty(3).normal_(generator=g), torch.empty(2).uniform_(generator=g))
probs = torch.tensor([0.1, 0.2, 0.7])
print("multinomial", torch.multinomial(probs, 5, replacement=True), torch.multinomial(probs, 2),
      probs.multinomial(3, generator=g))
print("multinomial 2d", torch.multinomial(torch.tensor([[0.5, 0.5], [0.9, 0.1]]), 1))
print("bernoulli", torch.bernoulli(torch.tensor([0.0, 1.0, 0.5, 0.5])), torch.bernoulli(torch.ones(3), 0.5))
print("normal fn", torch.normal(0.0, 1.0, (3,)), torch.normal(torch.zeros(3), torch.ones(3)),
      torch.normal(torch.arange(3.0), 0.1))
leaf = torch.zeros(3, requires_grad=True)
show("normal_ leaf", lambda: leaf.normal_())
with torch.no_grad():
    leaf.uniform_(0, 1)
print("no_grad fill", leaf.requires_grad, leaf.shape)

# counting
print("one_hot", torch.nn.functional.one_hot(torch.tensor([0, 2, 1]), 4) if hasattr(torch.nn, "functional") else "")
print("bincount", torch.bincount(torch.tensor([0, 1, 1, 3])), torch.tensor([2, 2]).bincount(minlength=4),
      torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1.0, 2.0])))
print("histc", torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=4),
      torch.tensor([0.5, 1.5]).histc(2))
show("bincount neg", lambda: torch.bincount(torch.tensor([-1, 2])))
show("multinomial neg", lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1))
show("random_ range", lambda: torch.empty(2).random_(5, 2))
# linspace in float32 and float64 to the last bit (PyTorch's CPU kernel:
# vector runs from a fused base, the rest one at a time).
for n, (a, b) in [(11, (-0.9982693195343018, 0.9972347021102905)), (20, (-1.3, 2.7)),
                  (33, (0.3, -2.1)), (50, (2.2, -7.1)), (64, (-1, 1)), (1000, (-0.7, 4.4)),
                  (2, (0.1, 0.2)), (1, (3.0, 5.0))]:
    for dt in (torch.float32, torch.float64):
        v = torch.linspace(a, b, n, dtype=dt).tolist()
        print(n, dt, v[:3], v[n // 2 - 2:n // 2 + 3], v[-2:], sum(v))

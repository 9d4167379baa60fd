"""Tensor.cauchy_, log_normal_, geometric_, torch.poisson and torch.binomial:
a seeded call gives PyTorch 1.13's numbers bit for bit (same draws, same
transformations), in float32 and float64, on the default generator and an
explicit one; their argument errors in PyTorch's words."""
import torch


def bits(t):
    # exact: the float64 values' repr (float32 widens exactly)
    return [repr(v) for v in t.double().flatten().tolist()]


def show(name, t):
    print(name, t.dtype, tuple(t.shape), bits(t))


for dt in (torch.float32, torch.float64):
    torch.manual_seed(0)
    show("cauchy", torch.empty(40, dtype=dt).cauchy_())
    show("cauchy m s", torch.empty(3, 7, dtype=dt).cauchy_(1.5, 0.3))
    show("cauchy T", torch.empty(4, 5, dtype=dt).t().cauchy_(median=-2.0, sigma=3.0))
    show("log_normal", torch.empty(37, dtype=dt).log_normal_())
    show("log_normal m s", torch.empty(5, 3, dtype=dt).log_normal_(0.25, 0.5))
    show("geometric", torch.empty(50, dtype=dt).geometric_(0.3))
    show("geometric small p", torch.empty(20, dtype=dt).geometric_(1e-3))
    show("exponential", torch.empty(2, 9, dtype=dt).exponential_(0.5))
    g = torch.Generator().manual_seed(7)
    show("cauchy gen", torch.empty(9, dtype=dt).cauchy_(generator=g))
    show("log_normal gen", torch.empty(9, dtype=dt).log_normal_(generator=g))
    show("geometric gen", torch.empty(9, dtype=dt).geometric_(0.6, generator=g))
    # both branches of the Poisson sampler (rate < 10: products; >= 10: PTRS)
    rates = torch.tensor([0.0, 0.1, 1.0, 3.5, 9.99, 10.0, 12.5, 50.0, 1000.0, 1e6], dtype=dt)
    torch.manual_seed(1)
    show("poisson", torch.poisson(rates.repeat(30)))
    show("poisson gen", torch.poisson(rates.view(2, 5), generator=g))
    # binomial: inversion (count * p < 10), BTRS, p > 0.5 by symmetry, edges
    count = torch.tensor([0.0, 1.0, 5.0, 20.0, 20.0, 100.0, 100.0, 1000.0, 1e5, 7.0, 50.0],
                         dtype=dt)
    prob = torch.tensor([0.5, 0.3, 0.9, 0.2, 0.7, 0.05, 0.5, 0.99, 0.37, 1.0, 0.0], dtype=dt)
    torch.manual_seed(2)
    show("binomial", torch.binomial(count.repeat(25), prob.repeat(25)))
    show("binomial gen", torch.binomial(count, prob, generator=g))
    show("binomial broadcast", torch.binomial(count.view(11, 1).expand(11, 3).contiguous(),
                                              torch.tensor([0.2, 0.5, 0.8], dtype=dt)))
    # the generator's stream continues where the kernels leave it
    show("after", torch.rand(3, dtype=dt))

torch.manual_seed(3)
show("geometric long", torch.empty(12, dtype=torch.long).geometric_(0.25))
show("geometric int32", torch.empty(12, dtype=torch.int32).geometric_(0.5))

# moments on many draws: the distributions, not just the bits
torch.manual_seed(4)
x = torch.poisson(torch.full((20000,), 30.0, dtype=torch.float64))
print("poisson mean ~ 30:", abs(x.mean().item() - 30) < 0.3, "var ~ 30:", abs(x.var().item() - 30) < 1.5)
y = torch.binomial(torch.full((20000,), 60.0, dtype=torch.float64),
                   torch.full((20000,), 0.4, dtype=torch.float64))
print("binomial mean ~ 24:", abs(y.mean().item() - 24) < 0.2, "var ~ 14.4:", abs(y.var().item() - 14.4) < 0.8)

# gradients: poisson's is zero, binomial has none
r = torch.tensor([1.0, 20.0], requires_grad=True)
out = torch.poisson(r)
print(out.requires_grad, type(out.grad_fn).__name__)
out.sum().backward()
print(r.grad)
c = torch.tensor([3.0, 5.0], requires_grad=True)
b = torch.binomial(c, torch.tensor([0.5, 0.2]))
print(b.requires_grad)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.binomial(torch.tensor([4.0]), torch.tensor([0.5])).requires_grad)


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])


err(lambda: torch.empty(3, dtype=torch.long).cauchy_())
err(lambda: torch.empty(3).log_normal_(std=0))
err(lambda: torch.empty(3).log_normal_(1.0, -1.0))
err(lambda: torch.empty(3, dtype=torch.long).log_normal_())
err(lambda: torch.empty(3).geometric_(0))
err(lambda: torch.empty(3).geometric_(1.5))
err(lambda: torch.empty(3, dtype=torch.bool).geometric_(0.5))
err(lambda: torch.poisson(torch.tensor([-1.0])))
err(lambda: torch.poisson(torch.tensor([1])))
err(lambda: torch.binomial(torch.tensor([3]), torch.tensor([1])))
err(lambda: torch.binomial(torch.tensor([3.0]), torch.tensor([0.5], dtype=torch.float64)))
err(lambda: torch.ones(2, requires_grad=True).cauchy_())
err(lambda: torch.binomial(3.0, torch.tensor(0.5)))
err(lambda: torch.binomial(torch.tensor(3.0), 0.5))
err(lambda: torch.poisson(2.0))

# float16 / bfloat16 (drawn in double, rounded) and narrow integers (wrapping
# as torch's cast does); poisson has no Half kernel, binomial neither narrow one
torch.manual_seed(5)
for dt in (torch.float16, torch.bfloat16):
    show("cauchy " + str(dt), torch.empty(40, dtype=dt).cauchy_())
    show("log_normal " + str(dt), torch.empty(40, dtype=dt).log_normal_())
    show("geometric " + str(dt), torch.empty(40, dtype=dt).geometric_(0.1))
show("poisson bfloat16", torch.poisson(torch.full((30,), 12.0, dtype=torch.bfloat16)))
err(lambda: torch.poisson(torch.ones(2, dtype=torch.float16)))
err(lambda: torch.binomial(torch.ones(2, dtype=torch.bfloat16), torch.ones(2, dtype=torch.bfloat16)))
for dt in (torch.int8, torch.uint8, torch.int16):
    show("geometric " + str(dt), torch.empty(10, dtype=dt).geometric_(0.01))

# transposed inputs: drawn in the result's (row-major) order
torch.manual_seed(6)
show("poisson T", torch.poisson(torch.rand(3, 4).mul(20).t()))
show("binomial T", torch.binomial(torch.full((4, 3), 30.0).t(), torch.rand(3, 4)))

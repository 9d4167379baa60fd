# Pointwise ops: unary math, arithmetic with dtype promotion, comparisons,
# clamp, where, lerp/addcmul, closeness; grads after backward; in-place
# forms; torch's error messages.
import torch


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


x = torch.tensor([-1.5, -0.5, 0.25, 0.5, 2.0, 2.5])
ints = torch.tensor([-3, -1, 0, 2, 5])

for name in ["exp", "log1p", "sqrt", "rsqrt", "abs", "neg", "sign", "sin", "cos", "tan", "tanh",
             "sigmoid", "relu", "expm1", "erf", "reciprocal", "floor", "ceil", "round", "trunc",
             "frac", "square", "atan", "sinh", "cosh"]:
    print(name, getattr(torch, name)(x))
    print(name, "method", getattr(x, name)().dtype)
print("asin", torch.asin(torch.tensor([-0.5, 0.0, 0.5])))
print("acos", torch.acos(torch.tensor([-0.5, 0.0, 0.5])))
print("log", torch.log(torch.tensor([1.0, 2.0, 0.5])), torch.log2(torch.tensor([8.0])),
      torch.log10(torch.tensor([100.0])))
print("round half even", torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5])))
print("round decimals", torch.round(torch.tensor([1.2345, -2.71828]), decimals=2))
print("int floor", torch.floor(ints), torch.ceil(ints).dtype, torch.round(ints))
print("int sqrt", torch.sqrt(torch.tensor([4, 9])), torch.exp(torch.tensor([0, 1])).dtype)
print("int square", torch.square(ints), ints.abs(), ints.sign())
print("isnan", torch.isnan(torch.tensor([1.0, float("nan"), float("inf")])),
      torch.isinf(torch.tensor([1.0, float("-inf")])),
      torch.isfinite(torch.tensor([1.0, float("nan")])))
print("nan_to_num", torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -1.0]), nan=0.5,
                                     posinf=9.0))

# binary arithmetic and promotion
a = torch.tensor([1, 2, 3])
b = torch.tensor([0.5, 1.5, 2.5])
print("add", torch.add(a, b), torch.add(a, 2), torch.add(a, 2.5), a.add(b, alpha=2))
print("sub", torch.sub(b, a), a.sub(1), torch.subtract(b, 1, alpha=3))
print("mul", torch.mul(a, 3), a.mul(True), torch.multiply(a, b))
print("div", torch.div(a, 2), torch.div(a, 2, rounding_mode="trunc"),
      torch.div(-a, 2, rounding_mode="floor"), torch.true_divide(a, 4))
print("div float trunc", torch.div(torch.tensor([-7.5, 7.5]), 2, rounding_mode="trunc"))
print("pow", torch.pow(a, 2), torch.pow(b, 2), torch.pow(2, a), a.pow(0.5), a ** 2)
print("float_power", torch.float_power(a, 2))
print("fmod", torch.fmod(torch.tensor([-3.0, -2, 3, 4]), 2), torch.fmod(torch.tensor([-7, 7]), 3))
print("remainder", torch.remainder(torch.tensor([-3, -2, 3]), 2))
print("floor_divide", torch.floor_divide(torch.tensor([7, -7]), 2))
print("atan2", torch.atan2(torch.tensor([1.0, -1.0]), torch.tensor([1.0, 1.0])))
print("maximum", torch.maximum(a, torch.tensor([2, 2, 2])), torch.minimum(b, torch.tensor(1.0)))
print("bf dtypes", (a + torch.tensor([1], dtype=torch.int8)).dtype,
      (torch.ones(2, dtype=torch.float16) + 1.5).dtype,
      (torch.ones(2, dtype=torch.int32) * 2.5).dtype,
      (torch.ones(2, dtype=torch.bool) + 1).dtype,
      (torch.ones(2, dtype=torch.float64) * torch.ones(2)).dtype)

# comparisons and logic
print("cmp", a.eq(2), a.ne(2), a.lt(2), a.le(2), a.gt(2), a.ge(2), torch.eq(a, b))
print("cmp alias", torch.greater(a, 1), torch.less_equal(a, 2), torch.not_equal(a, 3))
m1 = torch.tensor([True, False, True])
m2 = torch.tensor([True, True, False])
print("logical", torch.logical_and(m1, m2), torch.logical_or(m1, m2), torch.logical_xor(m1, m2),
      torch.logical_not(m1), m1.logical_not())
print("bitwise", torch.bitwise_and(a, 1), torch.bitwise_or(a, 4), torch.bitwise_xor(m1, m2),
      torch.bitwise_not(a))

# clamp
print("clamp", torch.clamp(x, -1, 1), x.clamp(min=0), x.clamp(max=0.3), x.clip(-0.5, 0.5))
print("clamp int", torch.clamp(ints, 0, 3), torch.clamp(ints, 0.5, 3).dtype)
print("clamp tensors", torch.clamp(x, min=torch.zeros(6), max=torch.full((6,), 2.0)))
print("clamp_min", torch.clamp_min(x, 0), x.clamp_max(1))
show("clamp none", lambda: torch.clamp(x))

# where, lerp, addcmul, addcdiv
print("where", torch.where(x > 0, x, torch.zeros(6)), torch.where(x > 0, x, 0.0))
print("where1", torch.where(torch.tensor([[0, 1], [1, 0]])))
s = torch.tensor([1.0, 2.0])
e = torch.tensor([3.0, 6.0])
print("lerp", torch.lerp(s, e, 0.5), s.lerp(e, torch.tensor([0.0, 1.0])))
print("addcmul", torch.addcmul(s, e, e, value=0.5), torch.addcdiv(s, e, e, value=2))

# closeness
print("isclose", torch.isclose(torch.tensor([1.0, 2.0, float("nan")]),
                               torch.tensor([1.0 + 1e-9, 2.1, float("nan")])))
print("isclose nan", torch.isclose(torch.tensor([float("nan")]), torch.tensor([float("nan")]),
                                   equal_nan=True))
print("allclose", torch.allclose(s, s + 1e-7), torch.allclose(s, e), s.allclose(s))
print("equal", torch.equal(s, s.clone()), torch.equal(s, e), s.equal(torch.tensor([1.0, 2.0])))
show("isclose dtype", lambda: torch.isclose(s, s.double()))

# grads
w = torch.tensor([0.3, -0.7, 1.2], requires_grad=True)
for name in ["exp", "sin", "cos", "tan", "tanh", "sigmoid", "atan", "sinh", "cosh", "expm1", "erf",
             "reciprocal", "floor", "frac", "square", "abs", "sqrt"]:
    w.grad = None
    v = getattr(torch, name)(w.abs() if name == "sqrt" else w)
    v.sum().backward()
    print("grad", name, v.grad_fn.name() if name != "sqrt" else "", w.grad)
w.grad = None
y = torch.atan2(w, torch.tensor(2.0))
y.sum().backward()
print("grad atan2", y.grad_fn.name(), w.grad)
w.grad = None
y = torch.fmod(w * 4, 1.5)
y.sum().backward()
print("grad fmod", w.grad)
w.grad = None
y = torch.clamp(w, -0.5, 0.5)
y.sum().backward()
print("grad clamp", y, w.grad)
w.grad = None
y = torch.lerp(w, torch.ones(3), 0.25)
y.sum().backward()
print("grad lerp", y, w.grad)
w.grad = None
y = torch.addcmul(torch.zeros(3), w, w, value=2)
y.sum().backward()
print("grad addcmul", y, w.grad)
w.grad = None
y = torch.where(w > 0, w * 2, w * 3)
y.sum().backward()
print("grad where", w.grad)
y = torch.div(w, 2)
print("grad_fn names", y.grad_fn.name(), (w ** 2).grad_fn.name(), (2 ** w).grad_fn.name(),
      torch.maximum(w, torch.zeros(3)).grad_fn.name(), (-w).grad_fn.name(),
      torch.round(w).grad_fn.name(), torch.ceil(w).grad_fn.name())

# in place
z = torch.tensor([1.0, 2.0, 3.0])
z.add_(1).mul_(2).sub_(0.5, alpha=2).div_(2)
print("inplace", z)
z.clamp_(2, 3)
print("clamp_", z)
z.exp_().log_()
print("exp_ log_", z)
z.pow_(2)
print("pow_", z)
z.abs_().neg_().sqrt_()
print("sqrt_ of neg", z)
q = torch.tensor([1, 2, 3])
show("int div_", lambda: q.div_(2))
show("int add_ float", lambda: q.add_(1.5))
q.mul_(3)
print("int mul_", q)
show("broadcast inplace", lambda: torch.zeros(3).add_(torch.ones(2, 3)))
leaf = torch.ones(2, requires_grad=True)
show("leaf inplace", lambda: leaf.mul_(2))
h = leaf * 2
h.mul_(3)
h.exp_()
print("recorded inplace", h, h.grad_fn.name())
h.sum().backward()
print("grad through inplace", leaf.grad)
with torch.no_grad():
    leaf.mul_(2)
print("no_grad inplace", leaf)

# errors
show("bool neg", lambda: -torch.tensor([True]))
show("bool sub", lambda: torch.tensor([True]) - torch.tensor([False]))
show("shape", lambda: torch.ones(2) + torch.ones(3, 1))
show("int pow neg", lambda: torch.tensor([2]) ** -1)
show("add str", lambda: torch.add(torch.ones(2), "a"))
show("no tensor", lambda: torch.add(1, 2))
show("alpha float int", lambda: torch.add(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long), alpha=0.5))
show("rounding", lambda: torch.div(a, 2, rounding_mode="up"))
show("where dtype", lambda: torch.where(torch.tensor([1.0]), x[:1], x[:1]))
show("floor bool", lambda: torch.floor(torch.tensor([True])))

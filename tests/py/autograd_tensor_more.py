# Tensor methods written in Python over the kernels (torch/_tensor_more.py),
# their torch.NAME forms, gradients through them, and the dtype functions.
import torch

torch.manual_seed(0)
x = torch.tensor([[0.5, -1.25, 2.0], [3.0, 0.0, -0.75]])
v = torch.tensor([1.0, 2.0, 3.0])
m = torch.arange(6.0).reshape(2, 3)
print(x.is_complex(), x.is_signed(), torch.ones(1, dtype=torch.uint8).is_signed(),
      torch.tensor([2.0]).is_nonzero(), x.is_same_size(m), x.get_device(), x.is_pinned())
print(x.conj() is x, x.real is x, x.output_nr, x.names)
try:
    x.imag
except RuntimeError as e:
    print(e)
for bad in (torch.tensor([1.0, 2.0]), torch.tensor([])):
    try:
        bad.is_nonzero()
    except RuntimeError as e:
        print(e)

print(torch.addmm(v[:2], m[:, :2], torch.eye(2), beta=0.5, alpha=2))
print(v.addmv(torch.ones(3, 3), v), torch.ones(3, 2).addr(v, torch.tensor([1.0, -1.0])))
b1, b2 = torch.randn(2, 2, 3), torch.randn(2, 3, 2)
print(torch.baddbmm(torch.zeros(2, 2, 2), b1, b2), torch.addbmm(torch.ones(2, 2), b1, b2))
print(torch.vdot(v, v), torch.eye(2).mul(2).matrix_power(3), m[:, :2].matrix_power(0))
print(torch.kron(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[0.0, 1.0], [1.0, 0.0]])))
print(torch.cross(torch.tensor([[1.0, 0.0, 0.0]]), torch.tensor([[0.0, 1.0, 0.0]]), dim=1))
print(x.dist(m), x.dist(m, 1))

y = torch.tensor([0.1, 0.5, 0.9, 1.5, 3.0])
print(y.asinh(), (-y).arcsinh(), (y + 1).acosh(), (y / 4).atanh())
print(y.deg2rad(), y.rad2deg(), y.exp2(), y.erfc(), torch.tensor([0, 90]).deg2rad())
print(y.logaddexp(2 * y), y.logaddexp2(y), torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])))
print(torch.sinc(torch.tensor([0.0, 0.5, 1.5])), (y / 4).logit(), y.logit(eps=0.2), torch.hypot(y, y))
print(torch.copysign(y, -1.0), torch.copysign(y, torch.tensor([1.0, -1.0, 0.0, -0.0, 2.0])))
print(torch.tensor([-0.0, 0.0, -1.0, 2.0]).signbit(), torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
n = torch.tensor([1.0, float("nan"), 3.0])
print(torch.fmax(n, torch.tensor([2.0, 5.0, float("nan")])), torch.fmin(n, torch.tensor([2.0, 5.0, 1.0])))
print(n.nansum(), n.nanmean(), torch.tensor([[1.0, float("nan")], [2.0, 4.0]]).nanmean(1))

print(m.cummax(1), torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0]).cummin(0))
print(m.logcumsumexp(1), torch.diff(torch.tensor([1, 4, 9, 16])), m.diff(dim=0), v.diff(n=2, prepend=torch.tensor([0.0])))
print(m.aminmax(), m.aminmax(dim=1))
print(torch.arange(8.0).unfold(0, 3, 2), m.unfold(1, 2, 1).shape)
print(torch.arange(7).tensor_split(3), torch.arange(7).tensor_split([1, 5]), m.hsplit(3)[0], torch.arange(12.0).reshape(4, 3).vsplit([1]))
print(m.split_with_sizes([1, 2], 1), torch.rot90(m), torch.rot90(m, 2), torch.rot90(m, -1))
print(torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]])), torch.diagflat(torch.tensor([1.0, 2.0])))
print(torch.ones(2, 3, 4).sum_to_size(3, 1), m.moveaxis(0, 1).shape)
print(m.take(torch.tensor([0, 5])), torch.take_along_dim(m, torch.tensor([[2], [0]]), 1))
print(m.index_fill(1, torch.tensor([0, 2]), -1.0), m.index_copy(0, torch.tensor([1, 0]), torch.ones(2, 3)))
print(torch.zeros(3, 2).index_add(0, torch.tensor([0, 2, 0]), torch.ones(3, 2), alpha=2))
p = torch.zeros(2, 3)
p.put_(torch.tensor([1, 4]), torch.tensor([9.0, 8.0]))
p.index_add_(1, torch.tensor([0, 0]), torch.ones(2, 2))
print(p, p.put(torch.tensor([0, 0]), torch.tensor([1.0, 1.0]), accumulate=True))
q = torch.arange(4.0)
q.apply_(lambda t: t * t + 1)
q.map_(torch.tensor([10.0, 20.0, 30.0, 40.0]), lambda a, b: a + b)
print(q)
r = torch.tensor([1.0, -2.0])
r.absolute_()
r.negative_()
r.fix_()
print(r, torch.tensor([0.5, 2.0]).asinh_(), torch.tensor([1.0, 2.0]).greater_(1.5))

# gradients flow through the composites
w = torch.tensor([0.3, 0.6, 0.9], requires_grad=True)
loss = (w.asinh() + w.logit() + w.logaddexp(2 * w) + torch.kron(w, w).sum() + w.unfold(0, 2, 1).prod(1).sum()).sum()
loss.backward()
print(w.grad)

print(torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.float16, torch.bfloat16),
      torch.promote_types(torch.bool, torch.int32))
print(torch.result_type(torch.ones(2, dtype=torch.int32), 2.5), torch.result_type(torch.tensor(1.0, dtype=torch.float64), torch.ones(2)),
      torch.result_type(2, 3.0), torch.result_type(True, 2), torch.result_type(torch.ones(1, dtype=torch.uint8), -1))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32),
      torch.can_cast(torch.bool, torch.uint8), torch.can_cast(torch.uint8, torch.bool), torch.can_cast(torch.float64, torch.float16))
print(torch.is_floating_point(torch.ones(1)), torch.is_floating_point(torch.ones(1, dtype=torch.long)), torch.is_complex(v))
try:
    torch.is_floating_point(3.0)
except TypeError as e:
    print(e)
print(torch.broadcast_shapes((2, 1), (3,), (1, 1, 1)), torch.typename(v), torch.typename(3))
try:
    torch.broadcast_shapes((2,), (3,))
except RuntimeError as e:
    print(e)

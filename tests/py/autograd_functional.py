# torch.autograd.functional's vjp, jacobian and jvp against torch: the same
# values (rounded to 5 places; the products may sum in another order), the
# same nesting of tuples and the same errors.
import torch
from torch.autograd.functional import jacobian, vjp, jvp


def show(name, x):
    if isinstance(x, tuple):
        print(name, 'tuple', len(x))
        for i, e in enumerate(x):
            show(name + '[%d]' % i, e)
    else:
        print(name, tuple(x.shape), x.requires_grad,
              [round(v, 5) + 0.0 for v in x.reshape(-1).tolist()])


torch.manual_seed(0)
a = torch.randn(3)
b = torch.randn(2, 3)
m = torch.randn(2, 3)


def f(x):
    return x.exp() * x.sum()


def g(x, y):
    return (y @ x).tanh(), (x * x).sum()


def h(x, y):
    return y * x.sin()


show('jac f', jacobian(f, a))
show('jac g', jacobian(g, (a, b)))
show('jac h', jacobian(h, (a, m)))
show('jac lin', jacobian(lambda y: y.sum(1), b))
show('jac unused', jacobian(lambda x, y: x * 2, (a, b)))
show('jac fwd', jacobian(f, a, vectorize=True, strategy='forward-mode'))

out, v = vjp(f, a, torch.ones(3))
show('vjp out', out)
show('vjp', v)
show('vjp g', vjp(g, (a, b), (torch.ones(2), torch.tensor(2.0))))
show('vjp scalar', vjp(lambda x: (x ** 2).sum(), a))

show('jvp f', jvp(f, a, torch.tensor([1.0, 0.5, -1.0])))
show('jvp g', jvp(g, (a, b), (torch.ones(3), torch.ones(2, 3))))
show('jvp one', jvp(lambda x: x * 3, torch.tensor([2.0])))

for bad in [lambda: vjp(f, a),
            lambda: jvp(f, a),
            lambda: vjp(f, a, torch.ones(4)),
            lambda: jacobian(lambda x, y: x * 2, (a, b), strict=True),
            lambda: jacobian(f, a, strategy='sideways'),
            lambda: jacobian(f, a, strategy='forward-mode'),
            lambda: jacobian(f, [a, 3]),
            lambda: jvp(g, (a, b), (torch.ones(3),)),
            lambda: jvp(f, a, torch.ones(2))]:
    try:
        bad()
    except (RuntimeError, AssertionError, TypeError, NotImplementedError) as e:
        print(type(e).__name__ + ':', e)

print(a.requires_grad, a.grad)

# fast.ai "Deep Learning from the Foundations" (part 2, notebooks 01-04):
# matmul with loops, elementwise, broadcasting and einsum, checked with
# test_near; initialisation by hand against nn.init.kaiming_normal_; the
# statistics of activations through the layers; forward and backward by
# hand in Module classes; a Callback-style training loop.
import math
import operator
from functools import partial

import torch
from torch import nn, tensor
from torch.nn import init
import torch.nn.functional as F

torch.manual_seed(42)


def test(a, b, cmp, cname=None):
    if cname is None:
        cname = cmp.__name__
    assert cmp(a, b), f"{cname}:\n{a}\n{b}"


def test_eq(a, b): test(a, b, operator.eq, '==')


def near(a, b): return torch.allclose(a, b, rtol=1e-3, atol=1e-5)


def test_near(a, b): test(a, b, near)


test_eq(torch.tensor(1.0).item(), 1.0)

# Stand-ins for MNIST: 784 pixels, 10 classes.
x_train = torch.rand(512, 784)
y_train = torch.randint(0, 10, (512,))
x_valid = torch.rand(128, 784)
y_valid = torch.randint(0, 10, (128,))
n, c = x_train.shape
print(x_train.shape, y_train.shape, y_train.min(), y_train.max())

weights = torch.randn(784, 10)
bias = torch.zeros(10)
m1 = x_valid[:5]
m2 = weights
print(m1.shape, m2.shape)


def matmul(a, b):
    ar, ac = a.shape  # n_rows * n_cols
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):  # or br
                c[i, j] += a[i, k] * b[k, j]
    return c


t1 = matmul(m1[:2, :20], m2[:20])
print(t1.shape)
print(t1)


def matmul_elementwise(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            # Any trailing ",:" can be removed
            c[i, j] = (a[i, :] * b[:, j]).sum()
    return c


test_near(t1, matmul_elementwise(m1[:2, :20], m2[:20]))

a = tensor([10., 6, -4])
b = tensor([2., 8, 7])
print(a + b, (a < b).float().mean())
m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
print((m * m).sum().sqrt(), m.frobenius_norm() if hasattr(m, 'frobenius_norm') else m.norm())
c = tensor([10., 20, 30])
t = c.expand_as(m)
print(m + c, t.storage().size() if hasattr(t, 'storage') else None, t.stride(), t.shape)
print(c.unsqueeze(0), c.unsqueeze(1), c[None, :].shape, c[:, None].shape, c[..., None].shape)
print(c[None] > c[:, None])


def matmul_broadcast(a, b):
    ar, ac = a.shape
    br, bc = b.shape
    assert ac == br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        c[i] = (a[i].unsqueeze(-1) * b).sum(dim=0)
    return c


test_near(t1, matmul_broadcast(m1[:2, :20], m2[:20]))
t2 = matmul_broadcast(m1, m2)


def matmul_einsum(a, b): return torch.einsum('ik,kj->ij', a, b)


test_near(t2, matmul_einsum(m1, m2))
test_near(t2, m1.matmul(m2))
test_near(t2, m1 @ m2)
print(torch.isclose(t2, m1 @ m2, rtol=1e-3, atol=1e-5).all(), t2.shape)
print(torch.einsum('bi,bi->b', m1, m1).shape, torch.einsum('ij->ji', m).equal(m.t()))
print(torch.einsum('i,j->ij', a, b))
try:
    test_near(t2, t2 + 1)
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])


# --- forward and backward passes, initialisation ---
def normalize(x, m, s): return (x - m) / s


train_mean, train_std = x_train.mean(), x_train.std()
print(f'{train_mean:.4f} {train_std:.4f}')
x_train = normalize(x_train, train_mean, train_std)
# NB: Use training, not validation mean for validation set
x_valid = normalize(x_valid, train_mean, train_std)
train_mean, train_std = x_train.mean(), x_train.std()
print(f'{train_mean:.4f} {train_std:.4f}')


def test_near_zero(a, tol=1e-3): assert a.abs() < tol, f"Near zero: {a}"


test_near_zero(x_train.mean())
test_near_zero(1 - x_train.std())

n, m = x_train.shape
c = y_train.max() + 1
nh = 50
print(n, m, c, nh)

# simplified kaiming init / he init
w1 = torch.randn(m, nh) / math.sqrt(m)
b1 = torch.zeros(nh)
w2 = torch.randn(nh, 1) / math.sqrt(nh)
b2 = torch.zeros(1)
test_near_zero(w1.mean())
test_near_zero(w1.std() - 1 / math.sqrt(m))
print(f'{x_valid.mean():.4f} {x_valid.std():.4f}')


def lin(x, w, b): return x @ w + b


t = lin(x_valid, w1, b1)
print(f'{t.mean():.4f} {t.std():.4f}')


def relu(x): return x.clamp_min(0.)


t = relu(lin(x_valid, w1, b1))
print(f'{t.mean():.4f} {t.std():.4f}')

# kaiming init / he init for relu
w1 = torch.randn(m, nh) * math.sqrt(2 / m)
print(f'{w1.mean():.4f} {w1.std():.4f}')
t = relu(lin(x_valid, w1, b1))
print(f'{t.mean():.4f} {t.std():.4f}')

w1 = torch.zeros(m, nh)
init.kaiming_normal_(w1, mode='fan_out')
t = relu(lin(x_valid, w1, b1))
print(w1.shape, f'{w1.std():.4f} {math.sqrt(2 / nh):.4f}', f'{t.mean():.4f} {t.std():.4f}')
print(init._calculate_fan_in_and_fan_out(w1), init.calculate_gain('relu'), init.calculate_gain('leaky_relu', math.sqrt(5)))
w1 = torch.zeros(m, nh)
init.kaiming_normal_(w1, mode='fan_in', nonlinearity='relu')
print(f'{w1.std():.4f} {math.sqrt(2 / m):.4f}')


# what if...?
def relu(x): return x.clamp_min(0.) - 0.5


# kaiming init / he init for relu
w1 = torch.randn(m, nh) * math.sqrt(2. / m)
t1 = relu(lin(x_valid, w1, b1))
print(f'{t1.mean():.4f} {t1.std():.4f}')

# Stats through a deep stack: plain randn, 1/sqrt(n) and kaiming.
x = x_valid
for name, scale in [('randn', lambda ni: 1.), ('1/sqrt(n)', lambda ni: 1 / math.sqrt(ni)),
                    ('kaiming', lambda ni: math.sqrt(2 / ni))]:
    a = x
    stats = []
    for i in range(8):
        w = torch.randn(a.shape[1], 100) * scale(a.shape[1])
        a = a @ w
        a = a.clamp_min(0.)
        stats.append(f'{a.mean().item():.3g}/{a.std().item():.3g}')
    print(name, ' '.join(stats))


def model(xb):
    l1 = lin(xb, w1, b1)
    l2 = relu(l1)
    l3 = lin(l2, w2, b2)
    return l3


print(model(x_valid).shape)


def mse(output, targ): return (output.squeeze(-1) - targ).pow(2).mean()


y_train, y_valid = y_train.float(), y_valid.float()
preds = model(x_train)
print(preds.shape, f'{mse(preds, y_train):.4f}')


# --- Module classes with forward and backward by hand ---
class Module():
    def __call__(self, *args):
        self.args = args
        self.out = self.forward(*args)
        return self.out

    def forward(self): raise Exception('not implemented')

    def backward(self): self.bwd(self.out, *self.args)


class Relu(Module):
    def forward(self, inp): return inp.clamp_min(0.) - 0.5

    def bwd(self, out, inp): inp.g = (inp > 0).float() * out.g


class Lin(Module):
    def __init__(self, w, b): self.w, self.b = w, b

    def forward(self, inp): return inp @ self.w + self.b

    def bwd(self, out, inp):
        inp.g = out.g @ self.w.t()
        self.w.g = torch.einsum("bi,bj->ij", inp, out.g)
        self.b.g = out.g.sum(0)


class Mse(Module):
    def forward(self, inp, targ): return (inp.squeeze() - targ).pow(2).mean()

    def bwd(self, out, inp, targ): inp.g = 2 * (inp.squeeze() - targ).unsqueeze(-1) / targ.shape[0]


class Model():
    def __init__(self):
        self.layers = [Lin(w1, b1), Relu(), Lin(w2, b2)]
        self.loss = Mse()

    def __call__(self, x, targ):
        for l in self.layers:
            x = l(x)
        return self.loss(x, targ)

    def backward(self):
        self.loss.backward()
        for l in reversed(self.layers):
            l.backward()


w1.g, b1.g, w2.g, b2.g = [None] * 4
model = Model()
loss = model(x_train, y_train)
model.backward()
print(f'{loss.item():.4f}', w1.g.shape, b1.g.shape, w2.g.shape, b2.g.shape)
w1g, b1g, w2g, b2g = [tsr.g.clone() for tsr in [w1, b1, w2, b2]]
ig = x_train.g.clone()

xt2 = x_train.clone().requires_grad_(True)
w12 = w1.clone().requires_grad_(True)
w22 = w2.clone().requires_grad_(True)
b12 = b1.clone().requires_grad_(True)
b22 = b2.clone().requires_grad_(True)


def forward(inp, targ):
    # forward pass:
    l1 = inp @ w12 + b12
    l2 = relu(l1)
    out = l2 @ w22 + b22
    # we don't actually need the loss in backward!
    return mse(out, targ)


loss = forward(xt2, y_train)
loss.backward()
test_near(w22.grad, w2g)
test_near(b22.grad, b2g)
test_near(w12.grad, w1g)
test_near(b12.grad, b1g)
test_near(xt2.grad, ig)
print('hand-written backward matches autograd')


# --- a Callback-style training loop ---
class Callback():
    _order = 0

    def set_runner(self, run): self.run = run

    def __getattr__(self, k): return getattr(self.run, k)

    @property
    def name(self):
        import re
        name = re.sub(r'Callback$', '', self.__class__.__name__)
        s1 = re.sub('(.)([A-Z][a-z]+)', r'\1_\2', name or 'callback')
        return re.sub('([a-z0-9])([A-Z])', r'\1_\2', s1).lower()

    def __call__(self, cb_name):
        f = getattr(self, cb_name, None)
        if f and f():
            return True
        return False


class TrainEvalCallback(Callback):
    def begin_fit(self):
        self.run.n_epochs = 0.
        self.run.n_iter = 0

    def after_batch(self):
        if not self.in_train:
            return
        self.run.n_epochs += 1. / self.iters
        self.run.n_iter += 1

    def begin_epoch(self):
        self.run.n_epochs = self.epoch
        self.model.train()
        self.run.in_train = True

    def begin_validate(self):
        self.model.eval()
        self.run.in_train = False


class CancelTrainException(Exception): pass


class AvgStats():
    def __init__(self, metrics, in_train): self.metrics, self.in_train = metrics, in_train

    def reset(self):
        self.tot_loss, self.count = 0., 0
        self.tot_mets = [0.] * len(self.metrics)

    @property
    def all_stats(self): return [self.tot_loss.item()] + self.tot_mets

    @property
    def avg_stats(self): return [o / self.count for o in self.all_stats]

    def __repr__(self):
        if not self.count:
            return ""
        return f"{'train' if self.in_train else 'valid'}: {self.avg_stats}"

    def accumulate(self, run):
        bn = run.xb.shape[0]
        self.tot_loss += run.loss * bn
        self.count += bn
        for i, m in enumerate(self.metrics):
            self.tot_mets[i] += m(run.pred, run.yb) * bn


class AvgStatsCallback(Callback):
    def __init__(self, metrics):
        self.train_stats, self.valid_stats = AvgStats(metrics, True), AvgStats(metrics, False)

    def begin_epoch(self):
        self.train_stats.reset()
        self.valid_stats.reset()

    def after_loss(self):
        stats = self.train_stats if self.in_train else self.valid_stats
        with torch.no_grad():
            stats.accumulate(self.run)

    def after_epoch(self):
        print(self.train_stats)
        print(self.valid_stats)


class Runner():
    def __init__(self, cbs=None, cb_funcs=None):
        cbs = list(cbs or [])
        for cbf in (cb_funcs or []):
            cb = cbf()
            setattr(self, cb.name, cb)
            cbs.append(cb)
        self.stop, self.cbs = False, [TrainEvalCallback()] + cbs

    @property
    def opt(self): return self.learn.opt

    @property
    def model(self): return self.learn.model

    @property
    def loss_func(self): return self.learn.loss_func

    @property
    def data(self): return self.learn.data

    def one_batch(self, xb, yb):
        self.xb, self.yb = xb, yb
        if self('begin_batch'):
            return
        self.pred = self.model(self.xb)
        if self('after_pred'):
            return
        self.loss = self.loss_func(self.pred, self.yb)
        if self('after_loss') or not self.in_train:
            return
        self.loss.backward()
        if self('after_backward'):
            return
        self.opt.step()
        if self('after_step'):
            return
        self.opt.zero_grad()

    def all_batches(self, dl):
        self.iters = len(dl)
        for xb, yb in dl:
            if self.stop:
                break
            self.one_batch(xb, yb)
            self('after_batch')
        self.stop = False

    def fit(self, epochs, learn):
        self.epochs, self.learn, self.loss = epochs, learn, tensor(0.)
        try:
            for cb in self.cbs:
                cb.set_runner(self)
            if self('begin_fit'):
                return
            for epoch in range(epochs):
                self.epoch = epoch
                if not self('begin_epoch'):
                    self.all_batches(self.data.train_dl)

                with torch.no_grad():
                    if not self('begin_validate'):
                        self.all_batches(self.data.valid_dl)
                if self('after_epoch'):
                    break
        except CancelTrainException:
            self('after_cancel_train')
        finally:
            self('after_fit')
            self.learn = None

    def __call__(self, cb_name):
        res = False
        for cb in sorted(self.cbs, key=lambda x: x._order):
            res = cb(cb_name) or res
        return res


class Dataset():
    def __init__(self, x, y): self.x, self.y = x, y

    def __len__(self): return len(self.x)

    def __getitem__(self, i): return self.x[i], self.y[i]


class DataBunch():
    def __init__(self, train_dl, valid_dl, c=None):
        self.train_dl, self.valid_dl, self.c = train_dl, valid_dl, c

    @property
    def train_ds(self): return self.train_dl.dataset

    @property
    def valid_ds(self): return self.valid_dl.dataset


class Learner():
    def __init__(self, model, opt, loss_func, data):
        self.model, self.opt, self.loss_func, self.data = model, opt, loss_func, data


def accuracy(out, yb): return (torch.argmax(out, dim=1) == yb).float().mean()


def get_model(data, lr=0.5, nh=50):
    m = data.train_ds.x.shape[1]
    model = nn.Sequential(nn.Linear(m, nh), nn.ReLU(), nn.Linear(nh, data.c))
    return model, torch.optim.SGD(model.parameters(), lr=lr)


class TestCallback(Callback):
    _order = 1

    def after_step(self):
        if self.n_iter >= 10:
            raise CancelTrainException()

    def after_cancel_train(self):
        print('cancelled at', self.n_iter)


# Learnable stand-in data: the class is which of 10 pixel blocks is brightest.
y_train = x_train[:, :780].reshape(-1, 10, 78).sum(-1).argmax(-1)
y_valid = x_valid[:, :780].reshape(-1, 10, 78).sum(-1).argmax(-1)
train_ds, valid_ds = Dataset(x_train, y_train), Dataset(x_valid, y_valid)
print(train_ds[0][0].shape, train_ds[0][1], torch.bincount(y_train, minlength=10))
bs = 64
data = DataBunch(torch.utils.data.DataLoader(train_ds, bs, shuffle=True),
                 torch.utils.data.DataLoader(valid_ds, bs * 2), c=10)
learn = Learner(*get_model(data), F.cross_entropy, data)
stats = AvgStatsCallback([accuracy])
run = Runner(cbs=[stats])
run.fit(3, learn)
loss, acc = stats.valid_stats.avg_stats
assert acc > 0.2
print(f'{loss:.4f} {acc:.4f}', [cb.name for cb in run.cbs])

learn = Learner(*get_model(data), F.cross_entropy, data)
run = Runner(cb_funcs=[TestCallback])
run.fit(3, learn)
print(run.test.__class__.__name__, run.n_iter, f'{run.n_epochs:.3f}')

# torch.distributions: seeded samples (same torch calls as PyTorch 1.13, so
# the same numbers), log_prob, entropy, mean/variance, KL values, gradients
# through rsample and log_prob, shapes, expand, repr and validation errors.
import torch

print(torch.distributions.Normal, torch.distributions.kl.kl_divergence.__name__)  # with torch, as PyTorch

import torch.distributions as D
from torch.distributions import constraints, kl_divergence

torch.set_printoptions(precision=4)


def show(name, t):
    if isinstance(t, torch.Tensor):
        print(name, tuple(t.shape), t.dtype, t.detach())
    else:
        print(name, t)


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


# --- Normal -----------------------------------------------------------------
loc = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
scale = torch.tensor([1.0, 0.3, 2.5], requires_grad=True)
n = D.Normal(loc, scale)
print(n, n.batch_shape, n.event_shape, n.has_rsample)
print(D.Normal(0.0, 1.0), D.Normal(0.0, 1.0).batch_shape)
torch.manual_seed(0)
show("normal sample", n.sample())
show("normal sample (2,)", n.sample((2,)))
torch.manual_seed(1)
x = n.rsample((4,))
show("normal rsample", x)
x.sum().backward()
show("grad loc", loc.grad)
show("grad scale", scale.grad)
loc.grad = None
scale.grad = None
v = torch.tensor([[0.0, 1.0, -2.0], [1.0, -1.0, 3.0]])
# the same distribution again: parameters of equal shape stay the leaves
# (broadcast_tensors returns them as they are), so a second backward works
lp = n.log_prob(v)
show("normal log_prob", lp)
lp.sum().backward()
show("grad loc lp", loc.grad)
show("grad scale lp", scale.grad)
show("normal entropy", n.entropy())
show("normal mean var std", torch.stack([n.mean, n.variance, n.stddev]))
show("normal cdf", n.cdf(torch.tensor([0.0, 0.0, 0.0])))
show("normal icdf", n.icdf(torch.tensor([0.1, 0.5, 0.9])))
e = n.expand((2, 3))
print(e.batch_shape, e.sample().shape, e.log_prob(v).shape)
err(lambda: D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, -1.0])))
err(lambda: D.Normal(0.0, 1.0).log_prob(1.0))
err(lambda: n.log_prob(torch.zeros(4)))
err(lambda: D.Normal(torch.zeros(2), torch.ones(2)).log_prob(torch.tensor([float('nan'), 0.0])))
print(D.Normal(0.0, -1.0, validate_args=False).batch_shape)

# --- Categorical ------------------------------------------------------------
logits = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.0, 0.0, 3.0, 1.0]], requires_grad=True)
c = D.Categorical(logits=logits)
print(c, c.batch_shape, c.event_shape, c.support, c.has_rsample)
torch.manual_seed(2)
show("cat sample", c.sample())
show("cat sample (5,)", c.sample((5,)))
show("cat sample (2,3)", c.sample((2, 3)))
show("cat probs", c.probs)
a = torch.tensor([1, 2])
lp = c.log_prob(a)
show("cat log_prob", lp)
ent = c.entropy()
show("cat entropy", ent)
(lp.sum() + ent.sum()).backward()
show("cat grad logits", logits.grad)
cp = D.Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(cp, cp.batch_shape)
torch.manual_seed(3)
show("catp sample (10,)", cp.sample((10,)))
show("catp logits", cp.logits)
show("catp mode", cp.mode)
show("catp enumerate", cp.enumerate_support())
show("catp zero-prob entropy", D.Categorical(probs=torch.tensor([0.0, 0.5, 0.5])).entropy())
show("cat mean", c.mean)
err(lambda: D.Categorical(probs=torch.tensor([0.5, -0.5, 1.0])))
err(lambda: D.Categorical())
err(lambda: D.Categorical(probs=torch.tensor(0.5)))
err(lambda: cp.log_prob(torch.tensor([3])))
print(c.expand((5, 2)).sample().shape)
a1 = torch.ones(3, requires_grad=True)
b1, c1 = torch.broadcast_tensors(a1, torch.zeros(3))
print(b1 is a1, b1.grad_fn, c1.is_leaf, torch.broadcast_tensors(a1, torch.zeros(2, 3))[0].shape)
# policy-gradient shape: REINFORCE loss
torch.manual_seed(4)
pol = torch.nn.Linear(3, 4)
obs = torch.randn(6, 3)
dist = D.Categorical(logits=pol(obs))
act = dist.sample()
loss = -(dist.log_prob(act) * torch.linspace(-1, 1, 6)).mean()
loss.backward()
show("reinforce act", act)
show("reinforce grad", pol.weight.grad)

# --- Bernoulli --------------------------------------------------------------
p = torch.tensor([0.1, 0.5, 0.9], requires_grad=True)
b = D.Bernoulli(probs=p)
print(b, b.support)
torch.manual_seed(5)
show("bern sample (4,)", b.sample((4,)))
lp = b.log_prob(torch.tensor([0.0, 1.0, 1.0]))
show("bern log_prob", lp)
lp.sum().backward()
show("bern grad", p.grad)
show("bern entropy", b.entropy())
show("bern mean var", torch.stack([b.mean, b.variance]))
bl = D.Bernoulli(logits=torch.tensor([-2.0, 0.0, 3.0]))
print(bl)
show("bernl probs", bl.probs)
show("bernl log_prob", bl.log_prob(torch.tensor([1.0, 0.0, 1.0])))
show("bern enumerate", bl.enumerate_support())
err(lambda: D.Bernoulli(probs=torch.tensor([1.5])))
err(lambda: b.log_prob(torch.tensor([0.5, 1.0, 0.0])))

# --- Uniform ----------------------------------------------------------------
low = torch.tensor([0.0, -1.0], requires_grad=True)
high = torch.tensor([1.0, 3.0], requires_grad=True)
u = D.Uniform(low, high)
print(u, u.support)
torch.manual_seed(6)
x = u.rsample((3,))
show("unif rsample", x)
x.sum().backward()
show("unif grads", torch.stack([low.grad, high.grad]))
show("unif log_prob", u.log_prob(torch.tensor([0.5, 2.0])))
show("unif entropy", u.entropy())
show("unif cdf", u.cdf(torch.tensor([0.25, 0.0])))
show("unif mean std", torch.stack([u.mean, u.stddev]))
err(lambda: D.Uniform(1.0, 0.0))
err(lambda: u.log_prob(torch.tensor([1.5, 0.0])))

# --- OneHotCategorical ------------------------------------------------------
oh = D.OneHotCategorical(probs=torch.tensor([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]]))
print(oh, oh.batch_shape, oh.event_shape)
torch.manual_seed(7)
s = oh.sample((2,))
show("onehot sample", s)
show("onehot log_prob", oh.log_prob(s))
show("onehot entropy", oh.entropy())
show("onehot mode", oh.mode)
err(lambda: oh.log_prob(torch.tensor([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])))

# --- Independent ------------------------------------------------------------
base = D.Normal(torch.zeros(2, 3), torch.ones(2, 3))
ind = D.Independent(base, 1)
print(ind, ind.batch_shape, ind.event_shape, ind.support, ind.has_rsample)
show("indep log_prob", ind.log_prob(torch.arange(6.0).reshape(2, 3) / 4))
show("indep entropy", ind.entropy())
print(ind.expand((4, 2)).batch_shape)
err(lambda: D.Independent(base, 3))

# --- MultivariateNormal -----------------------------------------------------
mu = torch.tensor([1.0, -0.5, 0.25], requires_grad=True)
A = torch.tensor([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]], requires_grad=True)
mvn = D.MultivariateNormal(mu, covariance_matrix=A)
print(mvn, mvn.batch_shape, mvn.event_shape)
torch.manual_seed(8)
x = mvn.rsample((2,))
show("mvn rsample", x)
val = torch.tensor([[0.5, 0.0, 1.0], [1.0, -1.0, 0.0]])
lp = mvn.log_prob(val)
show("mvn log_prob", lp)
(lp.sum() + x.sum()).backward()
show("mvn grad mu", mu.grad)
show("mvn grad cov", A.grad)
show("mvn entropy", mvn.entropy())
show("mvn scale_tril", mvn.scale_tril)
show("mvn variance", mvn.variance)
L = torch.linalg.cholesky(A.detach())
m2 = D.MultivariateNormal(torch.zeros(2, 3), scale_tril=L)
print(m2, m2.batch_shape)
show("mvn batched log_prob", m2.log_prob(val))
m3 = D.MultivariateNormal(mu.detach(), precision_matrix=torch.linalg.inv(A.detach()))
show("mvn precision log_prob", m3.log_prob(val))
show("mvn precision cov", m3.covariance_matrix)
err(lambda: D.MultivariateNormal(torch.zeros(2)))
err(lambda: D.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
err(lambda: D.MultivariateNormal(torch.tensor(0.0), covariance_matrix=torch.eye(2)))

# --- Exponential, Laplace ---------------------------------------------------
rate = torch.tensor([0.5, 2.0], requires_grad=True)
ex = D.Exponential(rate)
print(ex, ex.support)
torch.manual_seed(9)
x = ex.rsample((3,))
show("expo rsample", x)
x.sum().backward()
show("expo grad", rate.grad)
show("expo log_prob", ex.log_prob(torch.tensor([1.0, 0.25])))
show("expo entropy", ex.entropy())
err(lambda: ex.log_prob(torch.tensor([-1.0, 0.25])))
la = D.Laplace(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(la)
torch.manual_seed(10)
show("laplace sample", la.sample((3,)))
show("laplace log_prob", la.log_prob(torch.tensor([0.3, 2.0])))
show("laplace entropy cdf", torch.stack([la.entropy(), la.cdf(torch.tensor([0.3, 0.5]))]))

# --- LogNormal, TransformedDistribution, transforms -------------------------
from torch.distributions import transforms as T
mu2 = torch.tensor([0.0, 0.5], requires_grad=True)
ln = D.LogNormal(mu2, torch.tensor([1.0, 0.25]))
print(ln, ln.batch_shape, ln.support, ln.has_rsample)
torch.manual_seed(12)
x = ln.rsample((3,))
show("lognormal rsample", x)
lp = ln.log_prob(torch.tensor([0.5, 2.0]))
show("lognormal log_prob", lp)
(x.sum() + lp.sum()).backward()
show("lognormal grad", mu2.grad)
show("lognormal mean var entropy", torch.stack([ln.mean, ln.variance, ln.entropy()]))
show("lognormal cdf", ln.cdf(torch.tensor([1.0, 1.0])))
show("kl lognormal", kl_divergence(ln, D.LogNormal(torch.zeros(2), torch.ones(2))))
err(lambda: ln.log_prob(torch.tensor([-1.0, 1.0])))
base = D.Normal(torch.zeros(3), torch.ones(3))
td = D.TransformedDistribution(base, [T.AffineTransform(1.0, 2.0), T.SigmoidTransform()])
print(td.batch_shape, td.event_shape, td.support)
torch.manual_seed(13)
y = td.sample((2,))
show("td sample", y)
show("td log_prob", td.log_prob(y))
tanh = D.TransformedDistribution(base, T.TanhTransform())
show("tanh log_prob", tanh.log_prob(torch.tensor([-0.5, 0.0, 0.9])))
aff = D.TransformedDistribution(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)),
                                T.AffineTransform(torch.zeros(3), torch.tensor([1.0, 2.0, 3.0]), event_dim=1))
print(aff.batch_shape, aff.event_shape)
show("affine event log_prob", aff.log_prob(torch.ones(2, 3)))
e = T.ExpTransform()
xx = torch.tensor([0.0, 1.0])
print(e, e.inv, e.inv.inv is e, e(xx), e.inv(e(xx)), e.log_abs_det_jacobian(xx, e(xx)), e.sign, e.bijective)
print(T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)]))
print(T.SigmoidTransform().codomain, T.TanhTransform().codomain, T.AffineTransform(0.0, 1.0, event_dim=1).domain)

# --- Poisson, Geometric, Cauchy, HalfNormal ---------------------------------
po = D.Poisson(torch.tensor([0.5, 3.0, 10.0]))
print(po, po.support)
torch.manual_seed(14)
show("poisson sample", po.sample((2,)))
show("poisson log_prob", po.log_prob(torch.tensor([0.0, 2.0, 12.0])))
show("kl poisson", kl_divergence(po, D.Poisson(torch.tensor([1.0, 1.0, 1.0]))))
err(lambda: po.log_prob(torch.tensor([0.5, 1.0, 1.0])))
ge = D.Geometric(probs=torch.tensor([0.2, 0.7]))
print(ge)
torch.manual_seed(15)
show("geometric sample", ge.sample((3,)))
show("geometric log_prob entropy", torch.stack([ge.log_prob(torch.tensor([2.0, 0.0])), ge.entropy()]))
err(lambda: D.Geometric(probs=torch.tensor([0.0, 0.5])))
ca = D.Cauchy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(ca)
torch.manual_seed(16)
show("cauchy rsample", ca.rsample((2,)))
show("cauchy log_prob cdf entropy", torch.stack([ca.log_prob(torch.tensor([0.5, 2.0])),
                                                ca.cdf(torch.tensor([0.5, 2.0])), ca.entropy()]))
show("cauchy mean var", torch.stack([ca.mean, ca.variance]))
hn = D.HalfNormal(torch.tensor([1.0, 2.0]))
print(hn, hn.support)
torch.manual_seed(17)
show("halfnormal sample", hn.sample((2,)))
show("halfnormal log_prob", hn.log_prob(torch.tensor([0.5, 3.0])))
show("halfnormal mean var entropy", torch.stack([hn.mean, hn.variance, hn.entropy()]))

# --- MixtureSameFamily (a Gaussian mixture) ---------------------------------
w = torch.tensor([0.3, 0.7], requires_grad=True)
mus = torch.tensor([[-1.0, 0.0], [2.0, 1.0]], requires_grad=True)
gmm = D.MixtureSameFamily(D.Categorical(probs=w), D.Independent(D.Normal(mus, torch.ones(2, 2)), 1))
print(gmm, gmm.batch_shape, gmm.event_shape)
torch.manual_seed(19)
show("gmm sample", gmm.sample((4,)))
lp = gmm.log_prob(torch.tensor([[0.0, 0.0], [2.0, 2.0], [-1.0, 0.5]]))
show("gmm log_prob", lp)
lp.sum().backward()
show("gmm grads", torch.cat([w.grad, mus.grad.flatten()]))
show("gmm mean var", torch.stack([gmm.mean, gmm.variance]))
g1 = D.MixtureSameFamily(D.Categorical(logits=torch.zeros(3, 2)), D.Normal(torch.randn(3, 2), torch.ones(3, 2)))
print(g1.batch_shape, g1.sample((5,)).shape, g1.log_prob(torch.zeros(5, 3)).shape, g1.cdf(torch.zeros(3)).shape)
err(lambda: D.MixtureSameFamily(D.Categorical(probs=torch.ones(3) / 3), D.Normal(torch.zeros(2), torch.ones(2))))

# --- KL divergence ----------------------------------------------------------
q = D.Normal(torch.tensor([0.0, 0.0, 1.0]), torch.tensor([1.0, 2.0, 0.5]))
kl = kl_divergence(n, q)
show("kl normal", kl)
loc.grad = None
kl.sum().backward()
show("kl grad loc", loc.grad)
c2 = D.Categorical(probs=torch.tensor([0.25, 0.25, 0.25, 0.25]))
show("kl cat", kl_divergence(c, c2))
show("kl cat zero", kl_divergence(c2, D.Categorical(probs=torch.tensor([0.5, 0.5, 0.0, 0.0]))))
show("kl bern", kl_divergence(b, D.Bernoulli(probs=torch.tensor([0.3, 0.3, 0.3]))))
show("kl unif", kl_divergence(D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0)))
show("kl unif inf", kl_divergence(D.Uniform(0.0, 1.0), D.Uniform(0.5, 2.0)))
show("kl onehot", kl_divergence(oh, D.OneHotCategorical(probs=torch.ones(3) / 3)))
show("kl indep", kl_divergence(ind, D.Independent(D.Normal(torch.ones(2, 3), 2 * torch.ones(2, 3)), 1)))
show("kl mvn", kl_divergence(mvn, m2))
show("kl expo", kl_divergence(ex, D.Exponential(torch.tensor([1.0, 1.0]))))
show("kl laplace", kl_divergence(la, D.Laplace(0.0, 2.0)))
show("kl unif-normal", kl_divergence(D.Uniform(0.0, 2.0), D.Normal(0.5, 1.5)))
show("kl expo-normal", kl_divergence(D.Exponential(2.0), D.Normal(0.5, 1.5)))
show("kl laplace-normal", kl_divergence(D.Laplace(0.5, 1.0), D.Normal(0.0, 1.5)))
err(lambda: kl_divergence(D.Normal(0.0, 1.0), D.Categorical(probs=torch.ones(2) / 2)))

# VAE-style: closed-form KL against a standard normal prior, with gradients
torch.manual_seed(11)
enc = torch.nn.Linear(4, 4)
h = enc(torch.randn(5, 4))
post = D.Normal(h[:, :2], torch.nn.functional.softplus(h[:, 2:]) + 1e-3)
z = post.rsample()
prior = D.Normal(torch.zeros_like(z), torch.ones_like(z))
vae = kl_divergence(post, prior).sum(-1).mean() + (z ** 2).mean()
vae.backward()
show("vae loss", vae)
show("vae grad", enc.weight.grad)


# register_kl on a subclass is preferred over the base pair
class MyNormal(D.Normal):
    pass


@D.register_kl(MyNormal, D.Normal)
def _kl_mine(p, q):
    return torch.zeros(p.batch_shape)


show("kl registered", kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)))
show("kl base still", kl_divergence(D.Normal(0.0, 1.0), MyNormal(1.0, 1.0)))

# --- constraints ------------------------------------------------------------
for con in [constraints.real, constraints.positive, constraints.unit_interval, constraints.simplex,
            constraints.boolean, constraints.real_vector, constraints.nonnegative_integer,
            constraints.interval(-1, 1), constraints.greater_than(2.0), constraints.lower_cholesky,
            constraints.positive_definite, constraints.integer_interval(0, 4)]:
    print(con, con.event_dim, con.is_discrete)
tv = torch.tensor([-1.0, 0.0, 0.5, 1.0, float('nan')])
for con in [constraints.real, constraints.positive, constraints.nonnegative, constraints.unit_interval,
            constraints.boolean, constraints.interval(-1.0, 0.5), constraints.half_open_interval(-1.0, 1.0)]:
    print(con, con.check(tv))
print(constraints.simplex.check(torch.tensor([[0.2, 0.8], [0.5, 0.6]])))
print(constraints.positive_definite.check(torch.stack([torch.eye(2), -torch.eye(2)])))
print(constraints.is_dependent(D.Uniform(0.0, 1.0).arg_constraints['low']))
print(sorted(D.Normal.arg_constraints), D.Categorical.has_enumerate_support)

# --- gradients against finite differences (float64 gradcheck) ---------------
from torch.autograd import gradcheck
m64 = torch.tensor([0.3, -0.2], dtype=torch.float64, requires_grad=True)
s64 = torch.tensor([[1.5, 0.0], [0.4, 0.8]], dtype=torch.float64, requires_grad=True)
v64 = torch.tensor([[0.1, 0.9], [-1.0, 0.5]], dtype=torch.float64)
print("gradcheck mvn log_prob", gradcheck(
    lambda m, s: D.MultivariateNormal(m, scale_tril=s.tril()).log_prob(v64), (m64, s64)))
print("gradcheck mvn kl", gradcheck(
    lambda m, s: kl_divergence(D.MultivariateNormal(m, scale_tril=s.tril()),
                               D.MultivariateNormal(torch.zeros(2, dtype=torch.float64),
                                                    scale_tril=torch.eye(2, dtype=torch.float64))), (m64, s64)))
lg64 = torch.tensor([[0.2, -1.0, 0.7]], dtype=torch.float64, requires_grad=True)
print("gradcheck cat entropy log_prob", gradcheck(
    lambda lg: D.Categorical(logits=lg).entropy() + D.Categorical(logits=lg).log_prob(torch.tensor([2])), (lg64,)))
sc64 = torch.tensor([0.7, 1.3], dtype=torch.float64, requires_grad=True)


def rs(s):
    torch.manual_seed(18)
    return D.LogNormal(torch.zeros(2, dtype=torch.float64), s).rsample((3,))


print("gradcheck lognormal rsample", gradcheck(rs, (sc64,)))

"""kl_divergence(p, q) and register_kl: closed-form KL(p || q) for pairs of
distribution types, looked up by type (the most specific registered pair)."""
import math
import warnings

import torch
import torch.nn.functional as F
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.categorical import Categorical
from torch.distributions.distribution import Distribution
from torch.distributions.exponential import Exponential
from torch.distributions.independent import Independent
from torch.distributions.laplace import Laplace
from torch.distributions.multivariate_normal import MultivariateNormal, _batch_mahalanobis
from torch.distributions.normal import Normal
from torch.distributions.one_hot_categorical import OneHotCategorical
from torch.distributions.poisson import Poisson
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.uniform import Uniform
from torch.distributions.utils import _sum_rightmost

__all__ = ['register_kl', 'kl_divergence']

_KL_REGISTRY = {}   # (type_p, type_q) -> function
_KL_MEMOIZE = {}    # (type(p), type(q)) -> function found, or NotImplemented


def register_kl(type_p, type_q):
    """register_kl(type_p, type_q) -> Callable

    A decorator: @register_kl(P, Q) on a function f(p, q) makes kl_divergence
    use f for p an instance of P and q of Q (unless a more specific pair is
    registered).
    """
    if not (isinstance(type_p, type) and issubclass(type_p, Distribution)):
        raise TypeError('Expected type_p to be a Distribution subclass but got {}'.format(type_p))
    if not (isinstance(type_q, type) and issubclass(type_q, Distribution)):
        raise TypeError('Expected type_q to be a Distribution subclass but got {}'.format(type_q))

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()
        return fun
    return decorator


def _dispatch_kl(type_p, type_q):
    found = [(a, b) for a, b in _KL_REGISTRY if issubclass(type_p, a) and issubclass(type_q, b)]
    if not found:
        return NotImplemented
    # most specific: fewest inheritance steps from p's type first, then q's;
    # and again with q first: if the two disagree the choice is ambiguous
    pdist = {c: i for i, c in enumerate(type_p.__mro__)}
    qdist = {c: i for i, c in enumerate(type_q.__mro__)}
    left = min(found, key=lambda m: (pdist[m[0]], qdist[m[1]]))
    right = min(found, key=lambda m: (qdist[m[1]], pdist[m[0]]))
    if _KL_REGISTRY[left] is not _KL_REGISTRY[right]:
        warnings.warn('Ambiguous kl_divergence({}, {}). Please register_kl({}, {})'.format(
            type_p.__name__, type_q.__name__, left[0].__name__, right[1].__name__), RuntimeWarning)
    return _KL_REGISTRY[left]


def kl_divergence(p, q):
    """kl_divergence(p, q) -> Tensor

    The Kullback-Leibler divergence KL(p || q) = E_p[log p(x) - log q(x)]
    between two distributions, batched over their batch shape, by the closed
    form registered for their pair of types; NotImplementedError for a pair
    without one.

    Example::

        >>> from torch.distributions import Normal
        >>> torch.distributions.kl_divergence(Normal(0.0, 1.0), Normal(1.0, 1.0))
        tensor(0.5000)
    """
    key = (type(p), type(q))
    if key not in _KL_MEMOIZE:
        _KL_MEMOIZE[key] = _dispatch_kl(*key)
    fun = _KL_MEMOIZE[key]
    if fun is NotImplemented:
        raise NotImplementedError("No KL(p || q) is implemented for p type {} and q type {}".format(
            p.__class__.__name__, q.__class__.__name__))
    return fun(p, q)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    # p log(p/q) + (1-p) log((1-p)/(1-q)) in softplus form; 0 log 0 = 0,
    # and infinite where q puts no mass on a value p can take
    a = p.probs * (F.softplus(-q.logits) - F.softplus(-p.logits))
    a = a.masked_fill(q.probs == 0, math.inf).masked_fill(p.probs == 0, 0)
    b = (1 - p.probs) * (F.softplus(q.logits) - F.softplus(p.logits))
    b = b.masked_fill(q.probs == 1, math.inf).masked_fill(p.probs == 1, 0)
    return a + b


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t = t.masked_fill((q.probs == 0).expand_as(t), math.inf)
    t = t.masked_fill((p.probs == 0).expand_as(t), 0)
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    r = (p.scale / q.scale).pow(2)
    d = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (r + d - 1 - r.log())


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    out = ((q.high - q.low) / (p.high - p.low)).log()
    return out.masked_fill((q.low > p.low) | (q.high < p.high), math.inf)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    r = q.rate / p.rate
    return -r.log() + r - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    r = p.scale / q.scale
    d = (p.loc - q.loc).abs()
    return -r.log() + d / q.scale + r * torch.exp(-d / p.scale) - 1


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with\
                          different event shapes cannot be computed")
    Lp, Lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_logdet = Lq.diagonal(dim1=-2, dim2=-1).log().sum(-1) - Lp.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    n = p.event_shape[0]
    batch = torch.broadcast_shapes(Lq.shape[:-2], Lp.shape[:-2])
    X = torch.linalg.solve_triangular(Lq.expand(batch + (n, n)), Lp.expand(batch + (n, n)), upper=False)
    trace = X.pow(2).sum((-2, -1))  # tr(Sq^-1 Sp) = |Lq^-1 Lp|_F^2
    maha = _batch_mahalanobis(Lq, q.loc - p.loc)
    return half_logdet + 0.5 * (trace + maha - n)


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    w = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / w).log()
    return t1 + 0.5 * (w.pow(2) / 12 + ((p.high + p.low - 2 * q.loc) / 2).pow(2)) / q.scale.pow(2)


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    var = q.scale.pow(2)
    r2 = p.rate.pow(2)
    t1 = 0.5 * torch.log(r2 * var * 2 * math.pi)
    return t1 - 1 + (r2.reciprocal() - q.loc / p.rate + q.loc.pow(2) * 0.5) / var


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    var = q.scale.pow(2)
    s = p.scale.pow(2) / var
    t1 = 0.5 * torch.log(2 * s / math.pi)
    return -t1 + s + (0.5 * p.loc.pow(2) - p.loc * q.loc + 0.5 * q.loc.pow(2)) / var - 1


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    # the same bijection applied to both leaves the KL unchanged
    if p.transforms != q.transforms:
        raise NotImplementedError
    if p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)

import torch
from torch.distributions import constraints
from torch.distributions.categorical import Categorical
from torch.distributions.distribution import Distribution

__all__ = ['MixtureSameFamily']


class MixtureSameFamily(Distribution):
    """Mixture of K components of one family: a Categorical picks the
    component (the rightmost batch dimension of component_distribution)."""
    arg_constraints = {}
    has_rsample = False

    def __init__(self, mixture_distribution, component_distribution, validate_args=None):
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
        if not isinstance(mixture_distribution, Categorical):
            raise ValueError(" The Mixture distribution needs to be an "
                             " instance of torch.distribtutions.Categorical")
        if not isinstance(component_distribution, Distribution):
            raise ValueError("The Component distribution need to be an "
                             "instance of torch.distributions.Distribution")
        mdbs = mixture_distribution.batch_shape
        cdbs = component_distribution.batch_shape[:-1]
        for a, b in zip(reversed(mdbs), reversed(cdbs)):
            if a != 1 and b != 1 and a != b:
                raise ValueError("`mixture_distribution.batch_shape` ({0}) is not "
                                 "compatible with `component_distribution."
                                 "batch_shape`({1})".format(mdbs, cdbs))
        km = mixture_distribution.logits.shape[-1]
        kc = component_distribution.batch_shape[-1]
        if km != kc:
            raise ValueError("`mixture_distribution component` ({0}) does not"
                             " equal `component_distribution.batch_shape[-1]`"
                             " ({1})".format(km, kc))
        self._num_component = km
        event_shape = component_distribution.event_shape
        self._event_ndims = len(event_shape)
        super().__init__(batch_shape=cdbs, event_shape=event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        batch_shape = torch.Size(batch_shape)
        new = self._get_checked_instance(MixtureSameFamily, _instance)
        new._component_distribution = self._component_distribution.expand(batch_shape + (self._num_component,))
        new._mixture_distribution = self._mixture_distribution.expand(batch_shape)
        new._num_component = self._num_component
        new._event_ndims = self._event_ndims
        super(MixtureSameFamily, new).__init__(batch_shape=batch_shape,
                                               event_shape=new._component_distribution.event_shape,
                                               validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property
    def support(self):
        return self._component_distribution.support

    @property
    def mixture_distribution(self):
        return self._mixture_distribution

    @property
    def component_distribution(self):
        return self._component_distribution

    def _pad(self, x):
        # a component axis in front of the event dimensions
        return x.unsqueeze(-1 - self._event_ndims)

    def _pad_mixture_dimensions(self, x):
        # mixture probs [..., K] -> broadcastable against the components'
        # [batch..., K, event...] (the rule PyTorch 1.13 uses)
        dist_n = self.batch_shape.numel()
        cat_n = self.mixture_distribution.batch_shape.numel()
        pad = 0 if cat_n == 1 else dist_n - cat_n
        xs = x.shape
        return x.reshape(xs[:-1] + torch.Size(pad * [1]) + xs[-1:] + torch.Size(self._event_ndims * [1]))

    @property
    def mean(self):
        p = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        return torch.sum(p * self.component_distribution.mean, dim=-1 - self._event_ndims)

    @property
    def variance(self):
        # law of total variance: E[Var] + Var[E]
        p = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        d = -1 - self._event_ndims
        within = torch.sum(p * self.component_distribution.variance, dim=d)
        between = torch.sum(p * (self.component_distribution.mean - self._pad(self.mean)).pow(2.0), dim=d)
        return within + between

    def cdf(self, x):
        c = self.component_distribution.cdf(self._pad(x))
        return torch.sum(c * self.mixture_distribution.probs, dim=-1)

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        lp = self.component_distribution.log_prob(self._pad(x))
        logw = torch.log_softmax(self.mixture_distribution.logits, dim=-1)
        return torch.logsumexp(lp + logw, dim=-1)

    def sample(self, sample_shape=torch.Size()):
        # draw the component index, then every component, and keep the chosen
        # one (the same two draws, in the same order, as PyTorch)
        with torch.no_grad():
            dim = len(sample_shape) + len(self.batch_shape)
            es = self.event_shape
            idx = self.mixture_distribution.sample(sample_shape)
            comp = self.component_distribution.sample(sample_shape)
            ishape = idx.shape
            idx = idx.reshape(ishape + torch.Size([1] * (len(es) + 1)))
            idx = idx.repeat(torch.Size([1] * len(ishape)) + torch.Size([1]) + es)
            return torch.gather(comp, dim, idx).squeeze(dim)

    def __repr__(self):
        return 'MixtureSameFamily(\n  {},\n  {})'.format(self.mixture_distribution, self.component_distribution)

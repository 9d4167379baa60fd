import torch
from torch.distributions import constraints
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.utils import broadcast_all
from torch.distributions._common import scalar_or_shape, expand_params

__all__ = ['Poisson']


class Poisson(ExponentialFamily):
    """Poisson distribution: P(k) = rate^k exp(-rate) / k!."""
    arg_constraints = {'rate': constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        self.rate, = broadcast_all(rate)
        super().__init__(scalar_or_shape((rate,), self.rate), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, Poisson, ('rate',), batch_shape, _instance)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.poisson(self.rate.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

"""ExponentialFamily: marker base class of Normal, Bernoulli, Exponential...
(the Bregman-divergence entropy PyTorch derives from _log_normalizer is not
provided: each distribution here writes its entropy directly)."""
from torch.distributions.distribution import Distribution

__all__ = ['ExponentialFamily']


class ExponentialFamily(Distribution):
    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

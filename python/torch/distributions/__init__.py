"""torch.distributions: probability distributions written in Python over
nndb's tensor ops (as PyTorch writes them). Provided: Normal, Categorical,
Bernoulli, Uniform, OneHotCategorical(+StraightThrough), Independent,
MultivariateNormal, Exponential, Laplace, LogNormal, Cauchy, HalfNormal,
Poisson, Geometric,
TransformedDistribution with the elementwise transforms; constraints; kl_divergence and
register_kl. See docs/language-nn.md for what is not provided."""
from torch.distributions import constraints
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.categorical import Categorical
from torch.distributions.cauchy import Cauchy
from torch.distributions.distribution import Distribution
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.exponential import Exponential
from torch.distributions.geometric import Geometric
from torch.distributions.half_normal import HalfNormal
from torch.distributions.independent import Independent
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.laplace import Laplace
from torch.distributions.log_normal import LogNormal
from torch.distributions.mixture_same_family import MixtureSameFamily
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.normal import Normal
from torch.distributions.poisson import Poisson
from torch.distributions.one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import *  # noqa: F401,F403
from torch.distributions import transforms
from torch.distributions.uniform import Uniform

__all__ = [
    'Bernoulli', 'Categorical', 'MixtureSameFamily', 'Cauchy', 'Geometric', 'HalfNormal', 'Poisson', 'Distribution', 'ExponentialFamily', 'Exponential',
    'Independent', 'Laplace', 'LogNormal', 'TransformedDistribution', 'MultivariateNormal', 'Normal', 'OneHotCategorical',
    'OneHotCategoricalStraightThrough', 'Uniform', 'constraints', 'kl_divergence',
    'register_kl',
] + transforms.__all__

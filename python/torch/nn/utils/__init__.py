"""torch.nn.utils: gradient clipping and parameter/vector conversion."""

from torch.nn.utils.clip_grad import clip_grad_norm_, clip_grad_norm, clip_grad_value_  # noqa: F401
from torch.nn.utils.convert_parameters import (  # noqa: F401
    parameters_to_vector, vector_to_parameters)
from torch.nn.utils import rnn  # noqa: F401

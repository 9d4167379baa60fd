"""torch.nn.utils: gradient clipping, parameter/vector conversion, weight and
spectral normalisation, parametrizations, fusion, skip_init, stateless,
pruning."""

from torch.nn.utils import rnn  # noqa: F401
from torch.nn.utils.clip_grad import clip_grad_norm_, clip_grad_norm, clip_grad_value_  # noqa: F401
from torch.nn.utils.weight_norm import weight_norm, remove_weight_norm  # noqa: F401
from torch.nn.utils.convert_parameters import (  # noqa: F401
    parameters_to_vector, vector_to_parameters)
from torch.nn.utils.spectral_norm import spectral_norm, remove_spectral_norm  # noqa: F401
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights  # noqa: F401
from torch.nn.utils.memory_format import convert_conv2d_weight_memory_format  # noqa: F401
from torch.nn.utils import parametrize  # noqa: F401
from torch.nn.utils import parametrizations  # noqa: F401
from torch.nn.utils.init import skip_init  # noqa: F401
from torch.nn.utils import stateless  # noqa: F401
from torch.nn.utils import prune  # noqa: F401
from torch.nn.utils import fusion, init, memory_format  # noqa: F401

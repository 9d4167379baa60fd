"""The layer classes of torch.nn."""

from torch.nn.modules.module import Module  # noqa: F401
from torch.nn.modules.container import (  # noqa: F401
    Container, Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict)
from torch.nn.modules.linear import Identity, Linear, Bilinear, LazyLinear  # noqa: F401
from torch.nn.modules.lazy import LazyModuleMixin  # noqa: F401
from torch.nn.modules.activation import (  # noqa: F401
    Threshold, ReLU, Hardtanh, ReLU6, Sigmoid, Tanh, Hardsigmoid, Hardswish, SiLU, Mish, ELU,
    CELU, SELU, GLU, GELU, LeakyReLU, LogSigmoid, Softplus, Softsign, Tanhshrink, PReLU,
    Softmin, Softmax, LogSoftmax, Hardshrink, Softshrink, RReLU, Softmax2d)
from torch.nn.modules.dropout import (  # noqa: F401
    Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout)
from torch.nn.modules.distance import PairwiseDistance, CosineSimilarity  # noqa: F401
from torch.nn.modules.flatten import Flatten, Unflatten  # noqa: F401
from torch.nn.modules.sparse import Embedding, EmbeddingBag  # noqa: F401
from torch.nn.modules.normalization import LayerNorm, GroupNorm  # noqa: F401
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d  # noqa: F401
from torch.nn.modules.loss import (  # noqa: F401
    L1Loss, MSELoss, NLLLoss, CrossEntropyLoss, BCELoss, BCEWithLogitsLoss, SmoothL1Loss,
    HuberLoss, KLDivLoss, PoissonNLLLoss, MarginRankingLoss, SoftMarginLoss, NLLLoss2d,
    GaussianNLLLoss, HingeEmbeddingLoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss,
    CosineEmbeddingLoss, MultiMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss,
    CTCLoss)
from torch.nn.modules.rnn import (  # noqa: F401
    RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell)
from torch.nn.modules.attention import MultiheadAttention  # noqa: F401
from torch.nn.modules.transformer import (  # noqa: F401
    Transformer, TransformerEncoder, TransformerDecoder, TransformerEncoderLayer,
    TransformerDecoderLayer)
from torch.nn.modules.adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: F401

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
from torch.nn.modules.normalization import (  # noqa: F401
    LayerNorm, GroupNorm, LocalResponseNorm, CrossMapLRN2d)
from torch.nn.modules.batchnorm import (  # noqa: F401
    BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm, InstanceNorm1d, InstanceNorm2d,
    InstanceNorm3d, LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyInstanceNorm1d,
    LazyInstanceNorm2d, LazyInstanceNorm3d)
from torch.nn.modules.conv import (  # noqa: F401
    Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, LazyConv1d,
    LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d)
from torch.nn.modules.pooling import (  # noqa: F401
    MaxPool1d, MaxPool2d, MaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, AdaptiveMaxPool1d,
    AdaptiveMaxPool2d, AdaptiveMaxPool3d, AdaptiveAvgPool1d, AdaptiveAvgPool2d,
    AdaptiveAvgPool3d, LPPool1d, LPPool2d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d,
    FractionalMaxPool2d, FractionalMaxPool3d)
from torch.nn.modules.padding import (  # noqa: F401
    ConstantPad1d, ConstantPad2d, ConstantPad3d, ZeroPad2d, ReflectionPad1d, ReflectionPad2d,
    ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d)
from torch.nn.modules.image import (  # noqa: F401
    PixelShuffle, PixelUnshuffle, ChannelShuffle, Upsample, UpsamplingNearest2d,
    UpsamplingBilinear2d, Fold, Unfold)
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

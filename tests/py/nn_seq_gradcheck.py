# Finite-difference checks (float64) of the recurrent layers, their cells,
# MultiheadAttention and a pre-norm TransformerDecoderLayer.
import torch
from torch import nn
torch.manual_seed(0)
for cls, kw in ((nn.LSTM, dict(num_layers=2, bidirectional=True, proj_size=2)), (nn.GRU, dict(batch_first=True)), (nn.RNN, dict(nonlinearity="relu"))):
    m = cls(3, 4, dtype=torch.float64, **kw)
    x = torch.randn(4, 2, 3, dtype=torch.float64, requires_grad=True)
    print(cls.__name__, m.weight_ih_l0.dtype, torch.autograd.gradcheck(lambda x: m(x)[0], (x,)))
for cls in (nn.LSTMCell, nn.GRUCell, nn.RNNCell):
    c = cls(3, 4, dtype=torch.float64)
    x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    h = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
    f = (lambda x, h: c(x, (h, h))[1]) if cls is nn.LSTMCell else (lambda x, h: c(x, h))
    print(cls.__name__, torch.autograd.gradcheck(f, (x, h)))
mha = nn.MultiheadAttention(4, 2, dtype=torch.float64, kdim=3, vdim=5, add_bias_kv=True)
q = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
k = torch.randn(5, 2, 3, dtype=torch.float64, requires_grad=True)
v = torch.randn(5, 2, 5, dtype=torch.float64, requires_grad=True)
print("mha", torch.autograd.gradcheck(lambda q, k, v: mha(q, k, v)[0], (q, k, v)))
layer = nn.TransformerDecoderLayer(4, 2, 8, dropout=0.0, dtype=torch.float64, norm_first=True)
mem = torch.randn(5, 2, 4, dtype=torch.float64, requires_grad=True)
print("decoder", torch.autograd.gradcheck(lambda q, mem: layer(q, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3)), (q, mem)))
print(layer.norm1.weight.dtype, nn.Transformer(8, 2, 1, 1, 16, dtype=torch.float64).encoder.norm.weight.dtype)

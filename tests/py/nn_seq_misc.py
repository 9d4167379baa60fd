# Copies, checkpoints, dtype changes, state_dict keys and constructor errors
# of the sequence modules, as PyTorch has them.
import copy, pickle, io
import torch
from torch import nn
m = nn.LSTM(2, 3, num_layers=2)
print(len(m._flat_weights), m._flat_weights_names[:3])
m.flatten_parameters()
m2 = copy.deepcopy(m)
print(torch.equal(m2.weight_ih_l0, m.weight_ih_l0), m2.weight_ih_l0 is m.weight_ih_l0)
buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0)
m3 = nn.LSTM(2, 3, num_layers=2); print(m3.load_state_dict(torch.load(buf)))
m.double(); print(m.weight_hh_l1.dtype, m(torch.randn(3, 1, 2, dtype=torch.float64))[0].dtype)
mha = nn.MultiheadAttention(4, 2)
print(list(mha.state_dict().keys()))
t = nn.Transformer(8, 2, 1, 1, 16)
print(len(t.state_dict()))
print(nn.TransformerEncoderLayer(8, 2).activation_relu_or_gelu, nn.TransformerEncoderLayer(8, 2, activation="gelu").activation_relu_or_gelu)
try:
    nn.TransformerEncoderLayer(8, 2, activation="tanh")
except RuntimeError as e:
    print(e)
try:
    nn.MultiheadAttention(5, 2)
except AssertionError as e:
    print(e)

# Modules: import, import as, from-import; torch's namespaces are the
# prelude's names.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import nn as nn2, optim, Tensor
from torch.utils.data import DataLoader
from torch.nn import init
import torch.optim as optim2
torch  # expect: <module 'torch' from ...
F  # expect: <module 'torch.nn.functional' from ...
print(nn is nn2, nn is torch.nn, optim is optim2, F is torch.nn.functional)  # expect: True True True True
print(torch.zeros is zeros, nn.Linear is Linear, torch.relu is relu, torch.optim.AdamW is AdamW)  # expect: True True True True
# The prelude's relu is torch.relu (torch's names come before F's), as torch's own F.relu is not.
print(F.relu is relu, F.relu(tensor([-1.0])).tolist())  # expect: False [0.0]
print(torch.zeros(2).tolist(), F.relu(torch.tensor([-1.0, 2.0])).tolist())  # expect: [0.0, 0.0] [0.0, 2.0]
print(torch.float32, torch.float, torch.long, torch.bool, float)  # expect: torch.float32 torch.float32 torch.int64 torch.bool <class 'float'>
print(isinstance(torch.ones(1), torch.Tensor), isinstance(3, Tensor), torch.Tensor)  # expect: True False <class 'torch.Tensor'>
print(init.xavier_uniform_ is nn.init.xavier_uniform_, DataLoader is torch.utils.data.DataLoader)  # expect: True True
print(torch.nn.utils.clip_grad_norm_ is nn.utils.clip_grad_norm_, torch.no_grad is no_grad)  # expect: True True
print(torch.__name__, F.__name__)  # expect: torch torch.nn.functional
import torch.nn
print(torch.nn.Linear is nn.Linear)  # expect: True
def f():
    import torch.nn.functional as G
    return G.softmax
print(f() is F.softmax)  # expect: True
G  # expect error: NameError: name 'G' is not defined
torch.my_flag = 3
print(torch.my_flag)  # expect: 3
import numpy  # Debian's NumPy: a tensor's numpy() shares its memory
print(type(torch.zeros(2).numpy()) is numpy.ndarray)  # expect: True
import nosuchmodule  # expect error: ModuleNotFoundError: No module named 'nosuchmodule'
# A torch module nndb lacks is Python's plain error (docs/language-tensors.md).
import torch.onnx  # expect error: ModuleNotFoundError: No module named 'torch.onnx'
torch.onnx  # expect error: AttributeError: module 'torch' has no attribute 'onnx'
torch.nope  # expect error: AttributeError: module 'torch' has no attribute 'nope'
nn.Linear2  # expect error: AttributeError: module 'torch.nn' has no attribute 'Linear2'
from torch import nope  # expect error: ImportError: cannot import name 'nope' from 'torch'
from torch import onnx  # expect error: ImportError: cannot import name 'onnx' from 'torch' (
# CPython suggests a name only among fewer than 750 (dir(torch) is at about that many
# and PyTorch's, over 1200, gets no suggestion), so only the message is expected
torch.zeroes  # expect error: AttributeError: module 'torch' has no attribute 'zeroes'
zeroes  # expect error: NameError: name 'zeroes' is not defined. Did you mean: 'zeros'?

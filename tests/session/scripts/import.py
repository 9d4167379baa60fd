# Modules: import, import as, from-import, and torch's namespaces resolving
# through the builtins.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import nn as nn2, optim, Tensor
from torch.utils.data import DataLoader
from torch.nn import init
import torch.optim as optim2
print(torch, nn, F)  # expect: <module 'torch' (built-in)> <module 'torch.nn' (built-in)> <module 'torch.nn.functional' (built-in)>
print(nn is nn2, nn is torch.nn, optim is optim2, F is torch.nn.functional)  # expect: True True True True
print(torch.zeros is zeros, nn.Linear is Linear, F.relu is relu, torch.optim.AdamW is AdamW)  # expect: True True True True
print(torch.zeros(2).tolist(), F.relu(torch.tensor([-1.0, 2.0])).tolist())  # expect: [0.0, 0.0] [0.0, 2.0]
print(torch.float32, torch.float, torch.long, torch.bool, float)  # expect: torch.float32 torch.float32 torch.int64 torch.bool <class 'float'>
print(isinstance(torch.ones(1), torch.Tensor), isinstance(3, Tensor), torch.Tensor)  # expect: True False <class 'torch.Tensor'>
print(init.xavier_uniform_ is nn.init.xavier_uniform_, DataLoader is torch.utils.data.DataLoader)  # expect: True True
print(torch.nn.utils.clip_grad_norm_ is clip_grad_norm_, torch.no_grad is no_grad)  # expect: True True
print(torch.__name__, F.__name__)  # expect: torch torch.nn.functional
import torch.nn
print(torch.nn.Linear is nn.Linear)  # expect: True
def f():
    import torch.nn.functional as G
    return G.softmax
print(f() is softmax)  # expect: True
G  # expect error: NameError: name 'G' is not defined
torch.my_flag = 3
print(torch.my_flag)  # expect: 3
import numpy  # expect error: ModuleNotFoundError: No module named 'numpy': nndb has no NumPy
import nosuchmodule  # expect error: ModuleNotFoundError: No module named 'nosuchmodule' (nndb's modules: torch
import torch.fft  # expect error: ModuleNotFoundError: torch.fft is not available in nndb
torch.fft  # expect error: AttributeError: torch.fft is not available in nndb
torch.nope  # expect error: AttributeError: module 'torch' has no attribute 'nope'
nn.Linear2  # expect error: AttributeError: module 'torch.nn' has no attribute 'Linear2'
from torch import nope  # expect error: ImportError: cannot import name 'nope' from 'torch'
from torch import fft  # expect error: ImportError: cannot import name 'fft' from 'torch': torch.fft is not available in nndb
torch.zeroes  # expect error: AttributeError: module 'torch' has no attribute 'zeroes'. Did you mean: 'zeros'?
zeroes  # expect error: NameError: name 'zeroes' is not defined. Did you mean: 'zeros'?

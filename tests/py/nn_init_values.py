# Seeded initialisation gives PyTorch's numbers: Linear's kaiming_uniform_
# (a = sqrt(5)) and bias bound, Embedding's normal_, and every torch.nn.init
# function, with its fans, gains and errors.
import math

import torch
import torch.nn as nn


torch.manual_seed(42)
lin = nn.Linear(3, 2)
print(lin.weight)
print(lin.bias)
emb = nn.Embedding(4, 3, padding_idx=1)
print(emb.weight)
bil = nn.Bilinear(2, 3, 2)
print(bil.weight.shape, bil.bias)
ln = nn.LayerNorm(3)
print(ln.weight, ln.bias)
bn = nn.BatchNorm1d(2)
print(bn.weight, bn.bias, bn.running_mean, bn.running_var, bn.num_batches_tracked)
pr = nn.PReLU()
print(pr.weight)

torch.manual_seed(0)
w = torch.empty(3, 5)
for name, fn in [("uniform_", lambda t: nn.init.uniform_(t, -0.5, 0.5)),
                 ("normal_", lambda t: nn.init.normal_(t, 1.0, 0.1)),
                 ("xavier_uniform_", nn.init.xavier_uniform_),
                 ("xavier_normal_", lambda t: nn.init.xavier_normal_(t, gain=2.0)),
                 ("kaiming_uniform_", lambda t: nn.init.kaiming_uniform_(t, nonlinearity="relu")),
                 ("kaiming_normal_", lambda t: nn.init.kaiming_normal_(t, mode="fan_out")),
                 ("trunc_normal_", lambda t: nn.init.trunc_normal_(t, std=0.02)),
                 ("constant_", lambda t: nn.init.constant_(t, 0.3)),
                 ("ones_", nn.init.ones_), ("zeros_", nn.init.zeros_), ("eye_", nn.init.eye_)]:
    r = fn(w)
    print(name, r is w, w)
print(w.requires_grad)

for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, nn.init.calculate_gain(nl))
print(nn.init.calculate_gain("leaky_relu"), nn.init.calculate_gain("leaky_relu", 0.2),
      nn.init.calculate_gain("leaky_relu", math.sqrt(5)))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 2)))
for bad in [lambda: nn.init.calculate_gain("swish"),
            lambda: nn.init.calculate_gain("leaky_relu", "x"),
            lambda: nn.init.xavier_uniform_(torch.empty(3)),
            lambda: nn.init.kaiming_uniform_(torch.empty(2, 2), mode="fan_avg")]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)

# a parameter inits in place and keeps requiring grad
p = nn.Parameter(torch.empty(2, 2))
nn.init.normal_(p)
print(p)
print(repr(nn.Parameter(torch.zeros(2), requires_grad=False)))
print(isinstance(p, torch.Tensor), isinstance(p, nn.Parameter), type(p * 2).__name__)

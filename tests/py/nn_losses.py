# Losses and functional ops against PyTorch: reductions, ignore_index,
# label smoothing, weights, probability targets, legacy size_average, the
# warnings and the errors; activations and normalisation functions.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(4, 5, requires_grad=True)
y = torch.tensor([1, 0, 4, 2])
for red in ["mean", "sum", "none"]:
    print(red, F.cross_entropy(logits, y, reduction=red))
print(F.cross_entropy(logits, torch.tensor([1, -100, 4, 2])))
print(nn.CrossEntropyLoss(ignore_index=4)(logits, y))
print(nn.CrossEntropyLoss(label_smoothing=0.1)(logits, y))
probs = torch.softmax(torch.randn(4, 5), dim=1)
print(F.cross_entropy(logits, probs))
logp = F.log_softmax(logits, dim=1)
print(F.nll_loss(logp, y), nn.NLLLoss(reduction="sum")(logp, y))
seq_logits = torch.randn(2, 5, 3)
print(F.cross_entropy(seq_logits, torch.tensor([[0, 1, 2], [4, 3, 2]])))
loss = F.cross_entropy(logits, y)
loss.backward()
print(logits.grad)

a = torch.randn(3, 2)
b = torch.randn(3, 2)
print(F.mse_loss(a, b), nn.MSELoss(reduction="none")(a, b))
print(F.l1_loss(a, b), nn.L1Loss(reduction="sum")(a, b))
print(nn.SmoothL1Loss()(a, b), nn.HuberLoss(delta=0.5)(a, b))
p = torch.sigmoid(a)
t = (b > 0) * 1.0
print(F.binary_cross_entropy(p, t), nn.BCELoss(reduction="sum")(p, t))
print(F.binary_cross_entropy_with_logits(a, t), nn.BCEWithLogitsLoss()(a, t))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 0.5]))(a, t))
print(nn.BCELoss(weight=torch.tensor([1.0, 3.0]))(p, t))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(F.mse_loss(torch.zeros(3, 1), torch.ones(3)))
    print(nn.MSELoss(size_average=False)(a, b))
    for x in w:
        print("warning:", x.message)
try:
    F.binary_cross_entropy(p, t[:, 0])
except ValueError as e:
    print("ValueError", e)
try:
    F.binary_cross_entropy_with_logits(a, t[:, :1])
except ValueError as e:
    print("ValueError", e)
try:
    F.cross_entropy(logits, y, reduction="avg")
except ValueError as e:
    print("ValueError", e)

x = torch.linspace(-3, 3, 7)
print(F.relu(x), F.leaky_relu(x, 0.1), F.gelu(x), F.gelu(x, approximate="tanh"))
print(F.silu(x), F.softplus(x), F.elu(x), F.tanh(x), F.sigmoid(x))
print(nn.ReLU6()(x), nn.Hardtanh()(x), F.logsigmoid(x))
m = torch.randn(2, 3)
print(F.softmax(m, dim=1), F.log_softmax(m, dim=0), nn.Softmax(dim=-1)(m))
print(F.softmax(m, dim=1, dtype=torch.float64))
print(F.one_hot(torch.tensor([0, 2, 1]), 4), F.one_hot(torch.tensor([1, 3])))
print(F.layer_norm(m, (3,)), F.normalize(m, dim=1))
print(F.linear(m, torch.ones(2, 3), torch.tensor([1.0, -1.0])))
print(F.embedding(torch.tensor([[0, 2]]), torch.arange(6.0).reshape(3, 2)))
print(F.dropout(m, 0.5, training=False) is m or torch.equal(F.dropout(m, 0.5, training=False), m))
try:
    F.dropout(m, 1.5)
except ValueError as e:
    print("ValueError", e)
try:
    nn.Dropout(-0.1)
except ValueError as e:
    print("ValueError", e)
try:
    F.layer_norm(m, (2,))
except RuntimeError as e:
    print("RuntimeError", e)

# cross_entropy with probability targets and no elements or no classes (the
# mean is 0/0 = nan; once an integer division by zero)
for shape in [(0,), (2, 0), (0, 3)]:
    z = torch.zeros(shape)
    for red in ["mean", "sum", "none"]:
        print("cross_entropy empty", shape, red, F.cross_entropy(z, z, reduction=red))

# Short rows (fewer than 16 classes) run eight rows side by side: the values
# at 1..15 classes, row counts around multiples of eight, -inf and nan entries.
torch.manual_seed(11)
for c in [1, 2, 3, 5, 15, 16]:
    for rows in [7, 8, 67]:
        x = torch.randn(rows, c) * 4
        x[1, 0] = float("-inf")
        if rows > 8:
            x[9, c - 1] = float("nan")
        tgt = torch.randint(0, c, (rows,))
        # (3 places: nndb's exp is not PyTorch's to the last bit)
        print(c, rows, [round(v, 3) for v in F.softmax(x, 1)[:10].flatten().tolist()],
              [round(v, 3) for v in F.log_softmax(x, 1)[::5].flatten().tolist()],
              round(F.cross_entropy(x[:8], tgt[:8]).item(), 3))

# label smoothing without a graph (under no_grad the float32 rows are not
# kept for backward, but smoothing still needs each row's log-softmax sum)
torch.manual_seed(3)
xs = torch.randn(6, 7)
ys = torch.tensor([0, 1, 2, 3, -100, 6])
with torch.no_grad():
    for red in ("mean", "sum", "none"):
        print("ls no_grad", red, F.cross_entropy(xs, ys, label_smoothing=0.15, reduction=red))
print("ls grad", F.cross_entropy(xs.requires_grad_(), ys, label_smoothing=0.15))

# A few classes per row: the gradient of a summed loss (one scale for every
# row, computed over the whole block at once) equals, bit for bit, the one
# scaled row by row (reduction none), with an ignored row and smoothing.
torch.manual_seed(1)
for n, c in [(67, 3), (13, 10), (9, 2)]:
    x = (torch.randn(n, c) * 3).requires_grad_()
    y = torch.randint(0, c, (n,))
    y[5] = -100
    for ls in [0.0, 0.1]:
        F.cross_entropy(x, y, reduction="sum", label_smoothing=ls).backward()
        g1, x.grad = x.grad, None
        F.cross_entropy(x, y, reduction="none", label_smoothing=ls).backward(torch.ones(n))
        print("ce rows", n, c, ls, torch.equal(g1, x.grad), x.grad[5].abs().sum().item())
        x.grad = None

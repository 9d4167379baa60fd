# Recurrent layers as PyTorch 1.13 has them: seeded construction gives
# PyTorch's weights, forward values, gradients, options, errors.
import torch
from torch import nn


def show(name, t):
    print(name, tuple(t.shape), [round(v, 4) for v in t.detach().flatten().tolist()[:12]])


def params(m):
    for n, p in m.named_parameters():
        print(" ", n, tuple(p.shape), round(p.sum().item(), 4))


torch.manual_seed(0)
for cls in (nn.RNNCell, nn.LSTMCell, nn.GRUCell):
    cell = cls(3, 5)
    print(cell)
    params(cell)
    x = torch.randn(4, 3)
    out = cell(x)
    if isinstance(out, tuple):
        show("h", out[0]); show("c", out[1])
        h0 = (torch.randn(4, 5), torch.randn(4, 5))
        h1, c1 = cell(x, h0)
        show("h1", h1)
        hu, cu = cell(x[0], (h0[0][0], h0[1][0]))
        show("unbatched", hu)
        (h1.sum() + c1.pow(2).sum()).backward()
    else:
        show("h", out)
        h0 = torch.randn(4, 5)
        h1 = cell(x, h0)
        show("h1", h1)
        show("unbatched", cell(x[0], h0[0]))
        h1.pow(2).sum().backward()
    show("grad w_ih", cell.weight_ih.grad)
    show("grad b_hh", cell.bias_hh.grad)

print(nn.RNNCell(2, 3, bias=False, nonlinearity="relu"))
relu = nn.RNNCell(2, 3, nonlinearity="relu")
show("relu cell", relu(torch.randn(2, 2)))

configs = [
    (nn.RNN, dict()),
    (nn.RNN, dict(nonlinearity="relu", num_layers=2)),
    (nn.GRU, dict(num_layers=2, bidirectional=True)),
    (nn.GRU, dict(batch_first=True, bias=False)),
    (nn.LSTM, dict()),
    (nn.LSTM, dict(num_layers=2, bidirectional=True, batch_first=True)),
    (nn.LSTM, dict(proj_size=2, num_layers=2)),
    (nn.LSTM, dict(proj_size=2, bias=False, bidirectional=True)),
]
for cls, kw in configs:
    torch.manual_seed(1)
    m = cls(3, 4, **kw)
    print(m)
    params(m)
    x = torch.randn(6, 2, 3, requires_grad=True)
    out, hn = m(x)
    show("out", out)
    if isinstance(hn, tuple):
        show("h_n", hn[0]); show("c_n", hn[1])
        h0 = (torch.randn_like(hn[0]), torch.randn_like(hn[1]))
    else:
        show("h_n", hn)
        h0 = torch.randn_like(hn)
    out2, hn2 = m(x, h0)
    show("out with h0", out2)
    loss = out2.pow(2).mean() + out.sum()
    loss.backward()
    show("x.grad", x.grad)
    for n, p in m.named_parameters():
        show("grad " + n, p.grad)
    # unbatched
    xu = torch.randn(6, 3)
    ou, hu = m(xu)
    show("unbatched out", ou)
    show("unbatched h", hu[0] if isinstance(hu, tuple) else hu)

# the last layer's output is the last step of the forward direction
torch.manual_seed(2)
lstm = nn.LSTM(2, 3, num_layers=2)
x = torch.randn(4, 1, 2)
out, (h, c) = lstm(x)
print("last step == h_n[-1]:", torch.allclose(out[-1], h[-1]))
print(list(lstm.state_dict().keys()))
print(len(lstm.all_weights), [tuple(w.shape) for w in lstm.all_weights[1]])

# state_dict loads into a fresh model and gives the same output
other = nn.LSTM(2, 3, num_layers=2)
other.load_state_dict(lstm.state_dict())
print("loaded equal:", torch.equal(other(x)[0], out))

# dropout between layers is only active in training
torch.manual_seed(3)
d = nn.GRU(3, 4, num_layers=3, dropout=0.5)
print(d)
d.eval()
xe = torch.randn(5, 2, 3)
a = d(xe)[0]
b = d(xe)[0]
print("eval deterministic:", torch.equal(a, b))
d.train()
print("train shape:", tuple(d(xe)[0].shape))

# errors
for bad in (lambda: nn.LSTM(3, 4, proj_size=4), lambda: nn.GRU(3, 4, proj_size=1),
            lambda: nn.RNN(3, 4, nonlinearity="sigmoid"), lambda: nn.LSTM(3, 4, dropout=2)):
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
for bad in (lambda: lstm(torch.randn(4, 1, 5)), lambda: lstm(torch.randn(4, 1, 2),
            (torch.zeros(2, 2, 3), torch.zeros(2, 1, 3)))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
gru = nn.GRU(2, 3)
try:
    gru(torch.randn(4, 1, 2), torch.zeros(1, 2, 3))
except RuntimeError as e:
    print("RuntimeError:", e)

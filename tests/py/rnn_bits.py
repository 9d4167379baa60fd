"""Recurrent layers print PyTorch's bits: nn.RNN, nn.LSTM and nn.GRU (and
their cells) forward and every parameter's gradient, hashed, over layer
counts, directions, batch_first and a packed sequence; and sigmoid of
strided views, which PyTorch's vectorised loop walks in runs of the view's
width (the LSTM's gate chunks), vectors first and the rest of each run by
its scalar op. Compared line for line with PyTorch."""
import hashlib

import torch
from torch.nn.utils.rnn import pack_padded_sequence


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


torch.manual_seed(0)
x = torch.randn(300, 28) * 3
for name, v in [("chunk", x[:, 7:14]), ("slice17", x[:, 3:20]), ("slice16", x[:, :16]),
                ("step", x[:, ::2]), ("transposed", x.t()), ("rows", x[10:200]),
                ("col", x[:, 5:6]), ("3d", x.view(30, 10, 28)[:, 2:9, 4:23])]:
    print(name, h(torch.sigmoid(v)), h(torch.sigmoid(v.contiguous())))

for cls in (torch.nn.RNN, torch.nn.LSTM, torch.nn.GRU):
    for layers, bidir, batch_first in [(1, False, False), (2, False, True), (2, True, False)]:
        torch.manual_seed(1)
        m = cls(5, 9, num_layers=layers, bidirectional=bidir, batch_first=batch_first)
        inp = torch.randn(4, 6, 5) if batch_first else torch.randn(6, 4, 5)
        out, _ = m(inp)
        out.pow(2).sum().backward()
        print(cls.__name__, layers, bidir, batch_first, h(out),
              " ".join(h(p.grad) for p in m.parameters()))
    for bidir in (False, True):
        torch.manual_seed(2)
        m = cls(5, 9, num_layers=2, bidirectional=bidir)
        seq = torch.randn(6, 3, 5)
        packed = pack_padded_sequence(seq, [6, 4, 2])
        out, hn = m(packed)
        last = hn[0] if isinstance(hn, tuple) else hn
        (out.data.pow(2).sum() + last.sum()).backward()
        print(cls.__name__, "packed", bidir, h(out.data), h(last),
              " ".join(h(p.grad) for p in m.parameters()))

for cell in (torch.nn.RNNCell, torch.nn.LSTMCell, torch.nn.GRUCell):
    torch.manual_seed(3)
    c = cell(5, 9)
    state = None
    inp = torch.randn(6, 4, 5)
    total = 0
    for t in range(6):
        state = c(inp[t], state)
        hcur = state[0] if isinstance(state, tuple) else state
        total = total + hcur.pow(2).sum()
    total.backward()
    print(cell.__name__, h(hcur), " ".join(h(p.grad) for p in c.parameters()))

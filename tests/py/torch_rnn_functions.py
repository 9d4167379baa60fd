"""torch.lstm, torch.gru, torch.rnn_tanh, torch.rnn_relu (padded and packed)
and their *_cell functions with ATen's signatures, over the parameters of
the nn modules: the same values and gradients as PyTorch 1.13."""
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence


def show(name, t):
    print(name, tuple(t.shape), [round(v, 4) for v in t.detach().flatten().tolist()[:10]],
          round(t.detach().double().sum().item(), 4))


torch.manual_seed(0)
for mode, cls in (("lstm", nn.LSTM), ("gru", nn.GRU), ("rnn_tanh", nn.RNN), ("rnn_relu", nn.RNN)):
    kw = {"nonlinearity": mode[4:]} if cls is nn.RNN else {}
    for layers, bidir, batch_first, bias in ((1, False, False, True), (2, True, True, True),
                                             (2, False, False, False)):
        m = cls(3, 4, num_layers=layers, bidirectional=bidir, batch_first=batch_first,
                bias=bias, **kw)
        params = list(m._flat_weights)
        x = torch.randn(5, 2, 3, requires_grad=True)
        d = 2 if bidir else 1
        h0 = torch.randn(layers * d, 2 if not batch_first else 5, 4)
        if batch_first:
            h0 = torch.randn(layers * d, 5, 4)
        hx = [h0, torch.randn_like(h0)] if mode == "lstm" else h0
        fn = getattr(torch, mode)
        out = fn(x, hx, params, bias, layers, 0.0, False, bidir, batch_first)
        print(mode, layers, bidir, batch_first, bias, len(out))
        for i, t in enumerate(out):
            show(f"  out{i}", t)
        ref = m(x, tuple(hx) if mode == "lstm" else hx)
        same = torch.equal(out[0], ref[0]) and torch.equal(
            out[1], ref[1][0] if mode == "lstm" else ref[1])
        print("  same as the module:", same)
        sum(o.pow(2).sum() for o in out).backward()
        show("  grad x", x.grad)
        show("  grad w_ih", params[0].grad)

    # packed: (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidir)
    m = cls(3, 4, num_layers=2, bidirectional=True, **kw)
    x = torch.randn(5, 3, 3)
    packed = pack_padded_sequence(x, [5, 3, 2])
    h0 = torch.randn(4, 3, 4)
    hx = [h0, torch.randn_like(h0)] if mode == "lstm" else h0
    out = getattr(torch, mode)(packed.data, packed.batch_sizes, hx, list(m._flat_weights), True,
                               2, 0.0, False, True)
    ref = m(packed, tuple(hx) if mode == "lstm" else hx)
    for i, t in enumerate(out):
        show(f"  packed out{i}", t)
    print("  packed same as the module:", torch.equal(out[0], ref[0].data))

    # dropout between layers in training draws as the module does
    m = cls(3, 4, num_layers=3, dropout=0.5, **kw)
    x = torch.randn(4, 2, 3)
    h0 = torch.zeros(3, 2, 4)
    hx = [h0, h0] if mode == "lstm" else h0
    torch.manual_seed(5)
    out = getattr(torch, mode)(x, hx, list(m._flat_weights), True, 3, 0.5, True, False, False)
    show("  dropout", out[0])

# LSTM with projections: params carry w_hr
m = nn.LSTM(3, 5, proj_size=2, num_layers=2)
x = torch.randn(4, 2, 3)
h0, c0 = torch.randn(2, 2, 2), torch.randn(2, 2, 5)
out = torch.lstm(x, [h0, c0], list(m._flat_weights), True, 2, 0.0, False, False, False)
for i, t in enumerate(out):
    show(f"proj out{i}", t)

# cells
for mode, cls in (("lstm", nn.LSTMCell), ("gru", nn.GRUCell), ("rnn_tanh", nn.RNNCell),
                  ("rnn_relu", nn.RNNCell)):
    kw = {"nonlinearity": mode[4:]} if cls is nn.RNNCell else {}
    cell = cls(3, 4, **kw)
    x = torch.randn(2, 3, requires_grad=True)
    h = torch.randn(2, 4)
    hx = (h, torch.randn(2, 4)) if mode == "lstm" else h
    fn = getattr(torch, mode + "_cell")
    out = fn(x, hx, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    outs = out if isinstance(out, tuple) else (out,)
    for i, t in enumerate(outs):
        show(f"{mode}_cell out{i}", t)
    ref = cell(x, hx)
    print("  same as the cell:", torch.equal(outs[0], ref[0] if mode == "lstm" else ref))
    sum(o.sum() for o in outs).backward()
    show("  grad x", x.grad)
    nb = fn(x, hx, cell.weight_ih, cell.weight_hh)
    show("  no bias", nb[0] if mode == "lstm" else nb)

try:
    torch.gru_cell(torch.randn(2, 5), torch.randn(2, 4), torch.randn(12, 3), torch.randn(12, 4))
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])

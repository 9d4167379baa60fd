"""ATen's recurrent kernels as torch functions: torch.lstm, torch.gru,
torch.rnn_tanh, torch.rnn_relu (whole sequences, padded or packed) and
torch.lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell (one step), with
ATen's signatures:

    lstm(input, hx, params, has_biases, num_layers, dropout, train,
         bidirectional, batch_first) -> (output, h_n, c_n)
    lstm(data, batch_sizes, hx, params, has_biases, num_layers, dropout,
         train, bidirectional) -> (output, h_n, c_n)        # packed
    gru / rnn_tanh / rnn_relu: the same with hx one tensor, -> (output, h_n)
    lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> (h, c)
    gru_cell / rnn_tanh_cell / rnn_relu_cell(input, hx, w_ih, w_hh,
         b_ih=None, b_hh=None) -> h

`params` is the flat list nn.LSTM keeps (`lstm._flat_weights`): per layer,
per direction, w_ih, w_hh, then b_ih, b_hh when has_biases, then w_hr when
the LSTM has projections. The cells compute what ATen's cells compute, in
its order (the input projection of the whole sequence first, then per step
linear(h, w_hh, b_hh) + that projection, gates in i, f, g, o / r, z, n
order), so values agree with nn.LSTM and friends: the layers, steps and
packed walk are nn.modules.rnn's own (_run_layers, _STATE_STEPS), so both
give PyTorch's bits together.
"""
import torch
from torch.nn import functional as F
from torch.nn.modules import rnn as _rnn

__all__ = ["lstm", "gru", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "rnn_tanh_cell",
           "rnn_relu_cell"]


_MODES = {"lstm": "LSTM", "gru": "GRU", "rnn_tanh": "RNN_TANH", "rnn_relu": "RNN_RELU"}
_STEPS = {name: _rnn._STATE_STEPS[mode] for name, mode in _MODES.items()}
_GATES = {name: _rnn._GATES[mode] for name, mode in _MODES.items()}


def _layer_weights(name, params, has_biases, layers, directions, proj):
    per = (4 if has_biases else 2) + (1 if proj else 0)
    params = list(params)
    if len(params) != per * layers * directions:
        raise RuntimeError(f"{name}: expected {per * layers * directions} parameter tensors "
                           f"for num_layers={layers}, bidirectional={directions == 2}, "
                           f"has_biases={has_biases}, got {len(params)}")
    out = []
    for k in range(layers * directions):
        p = params[k * per:(k + 1) * per]
        w_ih, w_hh = p[0], p[1]
        b_ih, b_hh = (p[2], p[3]) if has_biases else (None, None)
        out.append((w_ih, w_hh, b_ih, b_hh, p[-1] if proj else None))
    return out


def _sequence(name, args, kwargs):
    lstm = name == "lstm"
    keys = ("input", "hx", "params", "has_biases", "num_layers", "dropout", "train",
            "bidirectional", "batch_first")
    # packed: (data, batch_sizes, hx, ...); lstm's hx is a list, the others' a tensor
    packed = len(args) > 2 and isinstance(args[1], torch.Tensor) and (
        lstm or isinstance(args[2], torch.Tensor))
    if packed:
        keys = ("data", "batch_sizes", "hx", "params", "has_biases", "num_layers", "dropout",
                "train", "bidirectional")
    if len(args) + len(kwargs) != len(keys):
        raise TypeError(f"{name}() takes {len(keys)} arguments ({', '.join(keys)}), got "
                        f"{len(args) + len(kwargs)}")
    a = dict(zip(keys, args))
    for k, v in kwargs.items():
        if k not in keys or k in a:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
        a[k] = v
    x = a["data"] if packed else a["input"]
    layers, directions = int(a["num_layers"]), 2 if a["bidirectional"] else 1
    if lstm:
        hx = list(a["hx"])
        if len(hx) != 2:
            raise RuntimeError("lstm expects two hidden states")
        h0, c0 = hx
        proj = h0.size(-1) != c0.size(-1)
    else:
        h0, c0, proj = a["hx"], None, False
    weights = _layer_weights(name, a["params"], bool(a["has_biases"]), layers, directions, proj)
    batch_first = not packed and bool(a["batch_first"])
    if not packed and x.dim() != 3:
        raise RuntimeError(f"input must have 3 dimensions, got {x.dim()}")
    if batch_first:
        x = x.transpose(0, 1)
    sizes = [int(k) for k in a["batch_sizes"].tolist()] if packed else None
    n = layers * directions
    if h0.dim() != 3 or h0.size(0) != n:
        raise RuntimeError(f"Expected hidden size ({n}, {x.size(1) if sizes is None else sizes[0]}"
                           f", {h0.size(-1)}), got {list(h0.shape)}")
    states = [(h0[k], c0[k]) for k in range(n)] if lstm else [(h0[k],) for k in range(n)]
    output, finals = _rnn._run_layers(x, states, weights, _STEPS[name], layers, directions,
                                      float(a["dropout"]), bool(a["train"]), sizes)
    if batch_first:
        output = output.transpose(0, 1)
    h_n = torch.stack([s[0] for s in finals], 0)
    if lstm:
        return output, h_n, torch.stack([s[1] for s in finals], 0)
    return output, h_n


def lstm(*args, **kwargs):
    return _sequence("lstm", args, kwargs)


def gru(*args, **kwargs):
    return _sequence("gru", args, kwargs)


def rnn_tanh(*args, **kwargs):
    return _sequence("rnn_tanh", args, kwargs)


def rnn_relu(*args, **kwargs):
    return _sequence("rnn_relu", args, kwargs)


def _check_cell(name, input, hx, w_ih, w_hh):
    gates = _GATES[name]
    if input.size(-1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(-1)} "
                           f"expected {w_ih.size(1)}")
    for h in hx:
        if h.size(-1) != w_hh.size(1):
            raise RuntimeError(f"hidden0 has inconsistent hidden_size: got {h.size(-1)}, "
                               f"expected {w_hh.size(1)}")
    if w_ih.size(0) != gates * w_hh.size(1):
        raise RuntimeError(f"{name}_cell: w_ih has {w_ih.size(0)} rows, expected "
                           f"{gates} * hidden_size = {gates * w_hh.size(1)}")


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    hx = tuple(hx)
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    _check_cell("lstm", input, hx, w_ih, w_hh)
    return _STEPS["lstm"](F.linear(input, w_ih, b_ih), hx, w_hh, b_hh, None)


def _cell(name):
    step = _STEPS[name]

    def fn(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
        _check_cell(name, input, (hx,), w_ih, w_hh)
        return step(F.linear(input, w_ih, b_ih), (hx,), w_hh, b_hh, None)[0]
    fn.__name__ = fn.__qualname__ = name + "_cell"
    return fn


gru_cell = _cell("gru")
rnn_tanh_cell = _cell("rnn_tanh")
rnn_relu_cell = _cell("rnn_relu")

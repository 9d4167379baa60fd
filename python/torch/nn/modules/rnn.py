"""Recurrent layers: RNN, LSTM and GRU over whole sequences, and their
one-step cells RNNCell, LSTMCell and GRUCell.

Parameters carry PyTorch's names (weight_ih_l0, bias_hh_l1_reverse, ...),
shapes and registration order, and reset_parameters draws them uniformly in
+-1/sqrt(hidden_size) in that order, so a seeded model gets PyTorch's weights
and a state_dict loads either way. Gates follow PyTorch's order: LSTM i, f,
g, o; GRU r, z, n. The recurrence is written in Python over linear, sigmoid
and tanh: each time step is a handful of recorded operations.

A PackedSequence (torch.nn.utils.rnn) is accepted too: step t then runs
the batch_sizes[t] sequences still going, and each sequence's final state
is the one after its last step."""

import math
import numbers
import warnings

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module, _check_device
from torch.nn.utils.rnn import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _rnn_tanh_step(x_proj, h, w_hh, b_hh):
    return torch.tanh(F.linear(h, w_hh, b_hh) + x_proj)


def _rnn_relu_step(x_proj, h, w_hh, b_hh):
    return torch.relu(F.linear(h, w_hh, b_hh) + x_proj)


def _lstm_step(x_proj, h, c, w_hh, b_hh, w_hr):
    gates = F.linear(h, w_hh, b_hh) + x_proj
    i, f, g, o = gates.chunk(4, -1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    h = torch.sigmoid(o) * torch.tanh(c)
    if w_hr is not None:
        h = F.linear(h, w_hr)
    return h, c


def _gru_step(x_proj, h, w_hh, b_hh):
    hg = F.linear(h, w_hh, b_hh)
    size = hg.size(-1) // 3
    # PyTorch's cell adds the reset and update parts in place into chunks of
    # the [B, 3H] hidden projection and takes their sigmoid there, which its
    # vectorised loop walks in runs of H (the engine's sigmoid of a strided
    # view does the same): one [B, 2H] sum, its two halves as views.
    rz = hg[:, :2 * size] + x_proj[:, :2 * size]
    r = torch.sigmoid(rz[:, :size])
    z = torch.sigmoid(rz[:, size:])
    n = torch.tanh(x_proj[:, 2 * size:] + r * hg[:, 2 * size:])
    return (h - n) * z + n


def _packed_walk(step, x_proj, state, sizes, reverse):
    """One layer and direction over a packed sequence, as PyTorch's
    PackedLayer / ReversedPackedLayer walk it (the same graph, so the
    gradients are summed in the same order): forwards, the state is
    narrowed as the batch shrinks and the finished rows are set aside;
    backwards, it starts from the last step's rows and grows. step(x, state)
    gives the next state tuple. Returns the final state and each step's
    output rows. torch.lstm/gru/rnn_* (torch/_rnn_aten.py) walk with it too."""
    steps = len(sizes)
    seq = [None] * steps
    if not reverse:
        finished = []
        last = sizes[0]
        for t in range(steps):
            k = sizes[t]
            if k < last:
                finished.append(tuple(s[k:last] for s in state))
                state = tuple(s[:k] for s in state)
            last = k
            state = step(x_proj[t], state)
            seq[t] = state[0]
        finished.append(state)
        finished.reverse()
        return tuple(torch.cat(parts, 0) for parts in zip(*finished)), seq
    full = state
    last = sizes[-1]
    state = tuple(s[:last] for s in full)
    for t in range(steps - 1, -1, -1):
        k = sizes[t]
        if k > last:
            state = tuple(torch.cat([s, f[last:k]], 0) for s, f in zip(state, full))
        last = k
        state = step(x_proj[t], state)
        seq[t] = state[0]
    return state, seq


# One step of each mode on a state tuple ((h, c) for LSTM, (h,) else):
# step(x_proj, state, w_hh, b_hh, w_hr) -> the next state tuple. Shared with
# torch.lstm/gru/rnn_* (torch/_rnn_aten.py).
_STATE_STEPS = {
    "LSTM": lambda x, s, w_hh, b_hh, w_hr: _lstm_step(x, s[0], s[1], w_hh, b_hh, w_hr),
    "GRU": lambda x, s, w_hh, b_hh, w_hr: (_gru_step(x, s[0], w_hh, b_hh),),
    "RNN_TANH": lambda x, s, w_hh, b_hh, w_hr: (_rnn_tanh_step(x, s[0], w_hh, b_hh),),
    "RNN_RELU": lambda x, s, w_hh, b_hh, w_hr: (_rnn_relu_step(x, s[0], w_hh, b_hh),),
}


def _run_layers(input, states, weights, step, layers, directions, dropout, train, sizes=None):
    """input (T, B, in), or a PackedSequence's data with its batch sizes;
    states and weights ((w_ih, w_hh, b_ih, b_hh, w_hr)): one per layer and
    direction; step: one of _STATE_STEPS. The input projection of the whole
    sequence first, then step by step (packed: _packed_walk). Returns the
    output (T, B, D*out) or packed data, and the final states. nn.RNN and
    friends and torch.lstm/gru/rnn_* both run through it."""
    finals = []
    layer_input = input
    steps = input.size(0) if sizes is None else len(sizes)
    for layer in range(layers):
        outs = []
        for direction in range(directions):
            w_ih, w_hh, b_ih, b_hh, w_hr = weights[layer * directions + direction]
            x_proj = F.linear(layer_input, w_ih, b_ih)
            x_proj = x_proj.unbind(0) if sizes is None else x_proj.split(sizes, 0)
            state = states[layer * directions + direction]
            if sizes is not None:
                state, seq = _packed_walk(lambda x, s: step(x, s, w_hh, b_hh, w_hr), x_proj,
                                          state, sizes, direction == 1)
            else:
                seq = [None] * steps
                for t in range(steps - 1, -1, -1) if direction == 1 else range(steps):
                    state = step(x_proj[t], state, w_hh, b_hh, w_hr)
                    seq[t] = state[0]
            finals.append(state)
            outs.append(torch.stack(seq, 0) if sizes is None else torch.cat(seq, 0))
        layer_input = outs[0] if directions == 1 else torch.cat(outs, -1)
        if dropout != 0 and train and layer < layers - 1:
            layer_input = F.dropout(layer_input, dropout, True)
    return layer_input, finals


class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        _check_device(device)
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        out_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            layer_in = input_size if layer == 0 else out_size * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = [("weight_ih", (gate_size, layer_in)),
                          ("weight_hh", (gate_size, out_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                names = []
                for base, shape in shapes:
                    name = base + suffix
                    self.register_parameter(name, Parameter(torch.empty(shape, dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        pass

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _weights(self, layer, direction):
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        p = self._parameters
        return (p["weight_ih" + suffix], p["weight_hh" + suffix], p.get("bias_ih" + suffix),
                p.get("bias_hh" + suffix), p.get("weight_hr" + suffix))

    def _check_input(self, input):
        if not torch.is_tensor(input):
            raise TypeError(f"{type(self).__name__}: expected a Tensor or a PackedSequence "
                            f"as input, got {type(input).__name__}")
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2-D or 3-D but "
                             f"received {input.dim()}-D tensor")
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def _check_hidden(self, hx, expected, msg="Expected hidden size {}, got {}"):
        if tuple(hx.shape) != tuple(expected):
            raise RuntimeError(msg.format(tuple(expected), list(hx.size())))

    def _step(self, x_proj, state, w_hh, b_hh, w_hr):
        return _STATE_STEPS[self.mode](x_proj, state, w_hh, b_hh, w_hr)

    def _run(self, input, states, sizes=None):
        """_run_layers with this module's weights, step and dropout."""
        directions = 2 if self.bidirectional else 1
        weights = [self._weights(layer, direction) for layer in range(self.num_layers)
                   for direction in range(directions)]
        return _run_layers(input, states, weights, self._step, self.num_layers, directions,
                           self.dropout, self.training, sizes)

    def _forward(self, input, hx):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        self._check_input(input)
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        if self.batch_first:
            input = input.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        batch = input.size(1)
        out_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        h_shape = (self.num_layers * directions, batch, out_size)
        c_shape = (self.num_layers * directions, batch, self.hidden_size)
        lstm = self.mode == "LSTM"
        if hx is None:
            h0 = torch.zeros(h_shape, dtype=input.dtype)
            c0 = torch.zeros(c_shape, dtype=input.dtype) if lstm else None
        else:
            if lstm:
                h0, c0 = hx
            else:
                h0, c0 = hx, None
            want = 2 if is_batched else 1
            for t in ((h0, c0) if lstm else (h0,)):
                if t.dim() != 1 + want:
                    kind = "3-D" if is_batched else "2-D"
                    got = "3-D" if not is_batched else "2-D"
                    raise RuntimeError(f"For {'batched' if is_batched else 'unbatched'} "
                                       f"{kind} input, hx and cx should also be {kind} but "
                                       f"got ({got}, {got}) tensors" if lstm else
                                       f"For {'batched' if is_batched else 'unbatched'} "
                                       f"{kind} input, hx should also be {kind} but got "
                                       f"{t.dim()}-D tensor")
            if not is_batched:
                h0 = h0.unsqueeze(1)
                c0 = c0.unsqueeze(1) if lstm else None
            if lstm:
                self._check_hidden(h0, h_shape, "Expected hidden[0] size {}, got {}")
                self._check_hidden(c0, c_shape, "Expected hidden[1] size {}, got {}")
            else:
                self._check_hidden(h0, h_shape)
        if lstm:
            states = [(h0[k], c0[k]) for k in range(h_shape[0])]
        else:
            states = [(h0[k],) for k in range(h_shape[0])]
        output, finals = self._run(input, states)
        h_n = torch.stack([s[0] for s in finals], 0)
        c_n = torch.stack([s[1] for s in finals], 0) if lstm else None
        if self.batch_first:
            output = output.transpose(0, 1)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1) if lstm else None
        return output, ((h_n, c_n) if lstm else h_n)

    def _initial_states(self, hx, batch, dtype, sorted_indices):
        directions = 2 if self.bidirectional else 1
        out_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        h_shape = (self.num_layers * directions, batch, out_size)
        c_shape = (self.num_layers * directions, batch, self.hidden_size)
        lstm = self.mode == "LSTM"
        if hx is None:
            h0 = torch.zeros(h_shape, dtype=dtype)
            c0 = torch.zeros(c_shape, dtype=dtype) if lstm else None
        else:
            h0, c0 = hx if lstm else (hx, None)
            if sorted_indices is not None:
                h0 = h0.index_select(1, sorted_indices)
                c0 = c0.index_select(1, sorted_indices) if lstm else None
            if lstm:
                self._check_hidden(h0, h_shape, "Expected hidden[0] size {}, got {}")
                self._check_hidden(c0, c_shape, "Expected hidden[1] size {}, got {}")
            else:
                self._check_hidden(h0, h_shape)
        if lstm:
            return [(h0[k], c0[k]) for k in range(h_shape[0])]
        return [(h0[k],) for k in range(h_shape[0])]

    def _forward_packed(self, input, hx):
        data, batch_sizes, sorted_indices, unsorted_indices = input
        if data.size(-1) != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {data.size(-1)}")
        sizes = [int(k) for k in batch_sizes.tolist()]
        states = self._initial_states(hx, sizes[0], data.dtype, sorted_indices)
        output, finals = self._run(data, states, sizes)
        hidden = [torch.stack([s[i] for s in finals], 0) for i in range(len(finals[0]))]
        if unsorted_indices is not None:
            hidden = [h.index_select(1, unsorted_indices) for h in hidden]
        packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        return packed, (tuple(hidden) if self.mode == "LSTM" else hidden[0])


class RNN(RNNBase):
    """RNN(input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False, dropout=0.0, bidirectional=False)

    An Elman RNN over a sequence: h_t = tanh(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh)
    (relu with nonlinearity="relu"). forward(input, hx=None), hx being h_0,
    returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class LSTM(RNNBase):
    """LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False, proj_size=0)

    A long short-term memory layer over a sequence, gates in the order input,
    forget, cell, output. forward(input, hx=None), hx being (h_0, c_0),
    returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class GRU(RNNBase):
    """GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False)

    A gated recurrent unit layer over a sequence, gates in the order reset,
    update, new. forward(input, hx=None), hx being h_0,
    returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        _check_device(device)
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size),
                                               dtype=dtype))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size),
                                               dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input, hx, name):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1-D or 2-D but received "
                             f"{input.dim()}-D tensor")
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(-1)} "
                               f"expected {self.input_size}")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        return input, is_batched

    def _zeros(self, input):
        return torch.zeros((input.size(0), self.hidden_size), dtype=input.dtype)


class RNNCell(RNNCellBase):
    """RNNCell(input_size, hidden_size, bias=True, nonlinearity="tanh")

    One step of an Elman RNN: forward(input, hx=None) returns the next h."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        _check_device(device)
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, is_batched = self._prepare(input, hx, "RNNCell")
        if hx is None:
            hx = self._zeros(input)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        x_proj = F.linear(input, self.weight_ih, self.bias_ih)
        if self.nonlinearity == "tanh":
            h = _rnn_tanh_step(x_proj, hx, self.weight_hh, self.bias_hh)
        elif self.nonlinearity == "relu":
            h = _rnn_relu_step(x_proj, hx, self.weight_hh, self.bias_hh)
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return h if is_batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    """LSTMCell(input_size, hidden_size, bias=True)

    One LSTM step: forward(input, hx=None), hx being (h, c), returns the
    next (h, c)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        _check_device(device)
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._prepare(input, hx, "LSTMCell")
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        x_proj = F.linear(input, self.weight_ih, self.bias_ih)
        h, c = _lstm_step(x_proj, hx[0], hx[1], self.weight_hh, self.bias_hh, None)
        if not is_batched:
            h, c = h.squeeze(0), c.squeeze(0)
        return h, c


class GRUCell(RNNCellBase):
    """GRUCell(input_size, hidden_size, bias=True)

    One GRU step: forward(input, hx=None) returns the next h."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        _check_device(device)
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._prepare(input, hx, "GRUCell")
        if hx is None:
            hx = self._zeros(input)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        x_proj = F.linear(input, self.weight_ih, self.bias_ih)
        h = _gru_step(x_proj, hx, self.weight_hh, self.bias_hh)
        return h if is_batched else h.squeeze(0)

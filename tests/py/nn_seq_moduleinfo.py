# The constructor and forward samples PyTorch 1.13's ModuleInfo
# (torch.testing._internal.common_modules) uses for the sequence modules,
# rebuilt here without importing it: seeded modules, inputs, outputs and
# gradients in float32 and float64, train and eval mode.
import itertools

import torch
from torch import nn
from torch.nn import functional as F


def flat(out):
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flat(o)]
    return [] if out is None else [out]


def weighted(t):
    # a sum that does not vanish after a LayerNorm
    return (t * torch.arange(t.numel()).view(t.shape).to(t.dtype).cos()).sum()


def summary(ts):
    return [round(weighted(t.detach().double()).item(), 3) + 0.0 for t in ts]


def run(name, cls, args, kwargs, make_inputs, fkwargs=None):
    """float64 values are printed; float32 ones must agree with them (the
    last printed digit of a float32 sum can differ from PyTorch's)."""
    for training in (True, False):
        results = {}
        for dtype in (torch.float64, torch.float32):
            torch.manual_seed(0)
            m = cls(*args, **kwargs).to(dtype)
            m.train(training)
            inputs = make_inputs(dtype)
            outs = flat(m(*inputs, **(fkwargs or {})))
            sum(weighted(o) for o in outs if o.requires_grad).backward()
            grads = [t.grad for t in flat(inputs) if t.requires_grad]
            pgrads = [p.grad for p in m.parameters() if p.grad is not None]
            results[dtype] = (outs, grads, pgrads)
        outs, grads, pgrads = results[torch.float64]
        close = all(torch.allclose(a.double(), b, atol=1e-4, rtol=1e-4)
                    for a, b in zip(flat(results[torch.float32]), flat(results[torch.float64])))
        print(name, training, [tuple(o.shape) for o in outs], summary(outs), summary(grads),
              summary(pgrads), "float32 agrees:", close)


def rand(dtype, *shape):
    # drawn in float64 for both dtypes: randn draws float32 differently
    return torch.randn(*shape, dtype=torch.float64).to(dtype).requires_grad_()


def mk(*shape):
    return lambda dtype: (rand(dtype, *shape),)


def mks(*shapes):
    return lambda dtype: tuple(rand(dtype, *s) for s in shapes)


pad = torch.tensor([False, False, True])
attn = torch.tensor([False, False, True]).expand((3, 3))

for cls, n in ((nn.RNNCell, 3), (nn.GRUCell, 2)):
    run(cls.__name__, cls, (5, 10), {}, mks((5,), (10,)))
    run(cls.__name__, cls, (5, 10), dict(bias=True), mks((5,), (10,)))
run("RNNCell relu", nn.RNNCell, (5, 10), dict(bias=True, nonlinearity="relu"), mks((5,), (10,)))


def lstmcell_inputs(dtype):
    return (rand(dtype, 5),
            (rand(dtype, 10),
             rand(dtype, 10)))


run("LSTMCell", nn.LSTMCell, (5, 10), {}, lstmcell_inputs)

for cls in (nn.RNN, nn.GRU):
    nls = ("relu", "tanh") if cls is nn.RNN else (None,)
    for nl, b, bf, bd in itertools.product(nls, (False, True), (False, True), (False, True)):
        kw = dict(num_layers=2, batch_first=bf, bias=b, bidirectional=bd)
        if nl:
            kw["nonlinearity"] = nl
        run(cls.__name__ + str(kw), cls, (2, 2), kw, mks((2, 2)))
        run(cls.__name__ + " hx", cls, (2, 3), kw, mks((3, 2), (4 if bd else 2, 3)))

for b, bf, bd, ps in itertools.product((False, True), (False, True), (False, True), (0, 2)):
    kw = dict(num_layers=2, proj_size=ps, batch_first=bf, bias=b, bidirectional=bd)
    run("LSTM" + str(kw), nn.LSTM, (2, 3), kw, mk(2, 2))
    d = 4 if bd else 2

    def lstm_inputs(dtype, d=d, ps=ps):
        return (rand(dtype, 3, 2),
                (rand(dtype, d, ps or 3),
                 rand(dtype, d, 3)))
    run("LSTM hx", nn.LSTM, (2, 3), kw, lstm_inputs)

attn3 = torch.tensor([False, False, True]).expand((3, 3, 3))
for b, kv, za, kpm, am in itertools.product((True, False), (True, False), (True, False),
                                             (None, pad), (None, attn3)):
    for bf in (True, False):
        kw = dict(embed_dim=3, num_heads=3, batch_first=bf, bias=b, add_bias_kv=kv,
                  add_zero_attn=za)
        run(f"MHA {b} {kv} {za} {kpm is None} {am is None} {bf}", nn.MultiheadAttention, (),
            kw, mks((3, 3), (3, 3), (3, 3)), dict(key_padding_mask=kpm, attn_mask=am))

run("EncoderLayer relu", nn.TransformerEncoderLayer, (4, 2, 16, 0.0), {}, mk(2, 3, 4))
run("EncoderLayer gelu", nn.TransformerEncoderLayer, (4, 2, 8, 0.0, F.gelu), {}, mk(2, 3, 4))
run("DecoderLayer relu", nn.TransformerDecoderLayer, (4, 2, 16, 0.0), {}, mks((2, 3, 4), (2, 3, 4)))
run("DecoderLayer gelu", nn.TransformerDecoderLayer, (4, 2, 8, 0.0, F.gelu), {},
    mks((2, 3, 4), (2, 3, 4)))
for m, kpm, nf, bf in itertools.product((None, attn), (None, pad), (True, False), (True, False)):
    tag = f"{m is None} {kpm is None} {nf} {bf}"
    run("EncoderLayer " + tag, nn.TransformerEncoderLayer, (4, 2, 8),
        dict(dropout=0.0, batch_first=bf, norm_first=nf), mk(3, 4),
        dict(src_mask=m, src_key_padding_mask=kpm))
    run("DecoderLayer " + tag, nn.TransformerDecoderLayer, (4, 2, 8),
        dict(dropout=0.0, batch_first=bf, norm_first=nf), mks((3, 4), (3, 4)),
        dict(tgt_mask=m, memory_mask=m, tgt_key_padding_mask=kpm, memory_key_padding_mask=kpm))
    run("Transformer " + tag, nn.Transformer, (),
        dict(d_model=4, nhead=2, dim_feedforward=8, num_encoder_layers=1, num_decoder_layers=1,
             dropout=0.0, batch_first=bf, norm_first=nf), mks((3, 4), (3, 4)),
        dict(tgt_mask=m, src_mask=m, tgt_key_padding_mask=kpm, src_key_padding_mask=kpm))

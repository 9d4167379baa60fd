# torch.nn.utils.rnn: packing and padding, and packed sequences through
# RNN, LSTM and GRU, as PyTorch 1.13 does them.
import torch
from torch import nn
from torch.nn.utils.rnn import (PackedSequence, pack_padded_sequence, pad_packed_sequence,
                                pad_sequence, pack_sequence)


def show(name, t):
    print(name, tuple(t.shape), [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()[:12]])


torch.manual_seed(0)
seqs = [torch.randn(n, 2) for n in (2, 4, 3)]
padded = pad_sequence(seqs)
show("pad_sequence", padded)
show("batch_first", pad_sequence(seqs, batch_first=True, padding_value=-1.0))
lengths = torch.tensor([2, 4, 3])
packed = pack_padded_sequence(padded, lengths, enforce_sorted=False)
print(type(packed).__name__, isinstance(packed, PackedSequence), packed.batch_sizes,
      packed.sorted_indices, packed.unsorted_indices)
show("data", packed.data)
back, lens = pad_packed_sequence(packed)
print("round trip:", torch.equal(back, padded), lens)
back, lens = pad_packed_sequence(packed, batch_first=True, total_length=6, padding_value=9.0)
show("total_length", back)
ps = pack_sequence([seqs[1], seqs[2], seqs[0]])
print(ps.batch_sizes, ps.sorted_indices)
try:
    pack_padded_sequence(padded, lengths)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

for cls, kw in ((nn.LSTM, dict(num_layers=2, bidirectional=True)), (nn.GRU, dict()),
                (nn.RNN, dict(bidirectional=True)), (nn.LSTM, dict(proj_size=2)),
                (nn.GRU, dict(batch_first=True, num_layers=2))):
    torch.manual_seed(1)
    m = cls(2, 3, **kw)
    print(m)
    x = padded.detach().clone().requires_grad_()
    inp = x.transpose(0, 1) if kw.get("batch_first") else x
    p = pack_padded_sequence(inp, lengths, batch_first=kw.get("batch_first", False),
                             enforce_sorted=False)
    out, hn = m(p)
    print(type(out).__name__, out.batch_sizes)
    show("packed out", out.data)
    h = hn[0] if isinstance(hn, tuple) else hn
    show("h_n", h)
    if isinstance(hn, tuple):
        show("c_n", hn[1])
    o, _ = pad_packed_sequence(out, batch_first=kw.get("batch_first", False))
    show("padded out", o)
    (o.pow(2).sum() + h.sum()).backward()
    show("x.grad", x.grad)
    show("grad w_hh", m.weight_hh_l0.grad)
    # each sequence alone gives the same final state
    for i, s in enumerate(seqs):
        single = m(s.unsqueeze(0) if kw.get("batch_first") else s.unsqueeze(1))[1]
        single = single[0] if isinstance(single, tuple) else single
        print(" alone", i, torch.allclose(single[:, 0], h[:, i], atol=1e-6))
    # initial states in the caller's batch order
    h0 = torch.randn_like(h)
    hx = (h0, torch.randn(h.size(0), 3, 3)) if cls is nn.LSTM else h0
    out2, hn2 = m(p, hx)
    show("with hx", out2.data)

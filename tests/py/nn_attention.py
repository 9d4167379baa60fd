# MultiheadAttention and the Transformer modules as PyTorch 1.13 has them:
# seeded construction, forward values with masks, gradients, training.
import torch
from torch import nn
from torch.nn import functional as F


def show(name, t):
    if t is None:
        print(name, None)
        return
    print(name, tuple(t.shape), [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()[:10]])


def params(m):
    for n, p in m.named_parameters():
        print(" ", n, tuple(p.shape), round(p.sum().item(), 4))


torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2)
print(mha)
params(mha)
q = torch.randn(5, 3, 8, requires_grad=True)
k = torch.randn(4, 3, 8)
out, w = mha(q, q, q)
show("self out", out); show("self weights", w)
out, w = mha(q, k, k, average_attn_weights=False)
show("cross out", out); show("per-head weights", w)
out, w = mha(q, k, torch.randn(4, 3, 8), need_weights=False)
show("kv differ", out); show("no weights", w)
causal = nn.Transformer.generate_square_subsequent_mask(5)
print(causal)
out, w = mha(q, q, q, attn_mask=causal)
show("causal", out); show("causal weights", w)
bool_mask = torch.tensor([[False, True, False, False]] * 5)
pad = torch.tensor([[False, False, False, True], [False, False, True, True],
                    [False, False, False, False]])
out, w = mha(q, k, k, attn_mask=bool_mask, key_padding_mask=pad)
show("bool + padding", out); show("weights", w)
out, w = mha(q, k, k, attn_mask=torch.randn(6, 5, 4))
show("3-D float mask", out)
out.pow(2).sum().backward()
show("q.grad", q.grad)
for n, p in mha.named_parameters():
    show("grad " + n, p.grad)
out, w = mha(q[:, 0], k[:, 0], k[:, 0])
show("unbatched", out); show("unbatched weights", w)

torch.manual_seed(1)
m2 = nn.MultiheadAttention(6, 3, kdim=4, vdim=5, add_bias_kv=True, add_zero_attn=True,
                           batch_first=True, bias=True)
params(m2)
x = torch.randn(2, 3, 6)
out, w = m2(x, torch.randn(2, 4, 4), torch.randn(2, 4, 5),
            key_padding_mask=torch.tensor([[False, False, False, True]] * 2))
show("kdim/vdim out", out); show("weights", w)
m3 = nn.MultiheadAttention(4, 1, bias=False)
params(m3)

# functional form
torch.manual_seed(2)
x = torch.randn(3, 2, 4)
o, w = F.multi_head_attention_forward(x, x, x, 4, 2, torch.randn(12, 4), torch.zeros(12),
                                      None, None, False, 0.0, torch.randn(4, 4),
                                      torch.zeros(4), training=False)
show("functional", o)

# encoder layer, post-norm and pre-norm, relu and gelu
for kw in (dict(), dict(norm_first=True, activation="gelu"),
           dict(batch_first=True, activation=F.gelu)):
    torch.manual_seed(3)
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, **kw)
    print(layer)
    params(layer)
    shape = (3, 5, 8) if kw.get("batch_first") else (5, 3, 8)
    src = torch.randn(shape, requires_grad=True)
    padding = torch.zeros(3, 5, dtype=torch.bool)
    padding[0, 4] = True
    y = layer(src, src_mask=causal, src_key_padding_mask=padding)
    show("enc layer", y)
    (y * torch.arange(y.numel()).view(y.shape).float().cos()).sum().backward()
    show("src.grad", src.grad)
    show("grad linear1", layer.linear1.weight.grad)

torch.manual_seed(4)
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2,
                            norm=nn.LayerNorm(8))
params(enc)
src = torch.randn(5, 3, 8)
show("encoder", enc(src, mask=causal))

torch.manual_seed(5)
tr = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2,
                    dim_feedforward=16, dropout=0.0)
print(sum(p.numel() for p in tr.parameters()), len(list(tr.parameters())))
params(tr.decoder.layers[1])
src = torch.randn(6, 2, 8)
tgt = torch.randn(4, 2, 8)
out = tr(src, tgt, tgt_mask=tr.generate_square_subsequent_mask(4))
show("transformer", out)
out.pow(2).mean().backward()
g = tr.encoder.layers[0].self_attn.in_proj_weight.grad
print("grad enc in_proj", f"{g[:8].abs().sum().item():.4f}", f"{g[16:].abs().sum().item():.4f}")
try:
    tr(src, torch.randn(4, 3, 8))
except RuntimeError as e:
    print("RuntimeError:", e)

# a tiny TransformerEncoder classifier, trained with dropout
torch.manual_seed(6)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 16)
        layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        return self.head(self.encoder(self.embed(x)).mean(dim=1))


model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(20):
    x = torch.randint(0, 10, (8, 6))
    y = (x.sum(dim=1) > 27).long()
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 19:
        print(step, f"{loss.item():.3f}")

# decoder with every mask, and unbatched inputs
torch.manual_seed(7)
dec = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, activation="gelu")
tgt = torch.randn(4, 3, 8, requires_grad=True)
mem = torch.randn(6, 3, 8, requires_grad=True)
tpad = torch.zeros(3, 4, dtype=torch.bool)
tpad[1, 3] = True
mpad = torch.zeros(3, 6, dtype=torch.bool)
mpad[2, 4:] = True
y = dec(tgt, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(4),
        memory_mask=torch.zeros(4, 6), tgt_key_padding_mask=tpad, memory_key_padding_mask=mpad)
show("decoder layer", y)
(y * y.detach().sin()).sum().backward()
show("mem.grad", mem.grad)
show("tgt.grad", tgt.grad)
torch.manual_seed(8)
tr = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True, norm_first=True)
show("unbatched transformer", tr(torch.randn(5, 8), torch.randn(3, 8)))
show("batch_first transformer", tr(torch.randn(2, 5, 8), torch.randn(2, 3, 8)))

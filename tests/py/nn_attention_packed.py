# Self-attention (query, key and value one tensor, need_weights=False) as
# nn.MultiheadAttention, F.multi_head_attention_forward and the Transformer
# layers compute it, against PyTorch 1.13: values and gradients with every
# mask kind, batch_first both ways, unbatched input, float64, and seeded
# dropout in training (the same random draws as PyTorch's).
import torch
from torch import nn
from torch.nn import functional as F


def show(name, t):
    if t is None:
        print(name, None)
        return
    flat = t.detach().flatten().tolist()
    print(name, tuple(t.shape), [round(v, 3) + 0.0 for v in flat[:6]],
          round(sum(abs(v) for v in flat), 3))


def grads(name, x, m):
    show(name + " x.grad", x.grad)
    for n, p in m.named_parameters():
        show(name + " " + n, p.grad)
    x.grad = None
    m.zero_grad()


torch.manual_seed(0)
L, N, E, H = 5, 3, 8, 2
causal = nn.Transformer.generate_square_subsequent_mask(L)
pad = torch.tensor([[False, False, False, True, True], [False] * 5, [False, True, False, False, False]])
masks = [("none", None, None), ("causal", causal, None), ("bool", causal == 0, None),
         ("padding", None, pad), ("both", causal, pad), ("bool+padding", causal != 0, pad),
         ("3-D", torch.randn(N * H, L, L), None),
         ("float padding", None, torch.zeros(N, L).masked_fill(pad, float("-inf")))]
for bf in (False, True):
    torch.manual_seed(1)
    mha = nn.MultiheadAttention(E, H, batch_first=bf)
    x = torch.randn((N, L, E) if bf else (L, N, E), requires_grad=True)
    for name, am, kpm in masks:
        out, w = mha(x, x, x, attn_mask=am, key_padding_mask=kpm, need_weights=False)
        tag = f"bf={bf} {name}"
        show(tag, out)
        print(" ", w)
        out.pow(2).sum().backward()
        grads(tag, x, mha)

# the functional form, seq first, and unbatched input
torch.manual_seed(2)
mha = nn.MultiheadAttention(E, H)
x = torch.randn(L, N, E, requires_grad=True)
out, _ = F.multi_head_attention_forward(x, x, x, E, H, mha.in_proj_weight, mha.in_proj_bias,
                                        None, None, False, 0.0, mha.out_proj.weight,
                                        mha.out_proj.bias, need_weights=False, attn_mask=causal)
show("functional", out)
out.sum().backward()
grads("functional", x, mha)
xu = torch.randn(L, E, requires_grad=True)
out, _ = mha(xu, xu, xu, need_weights=False, attn_mask=causal)
show("unbatched", out)
out.sum().backward()
grads("unbatched", xu, mha)

# a mask that requires grad gets its gradient
m = torch.randn(L, L, requires_grad=True)
out, _ = mha(x, x, x, need_weights=False, attn_mask=m)
out.pow(2).sum().backward()
show("mask.grad", m.grad)
x.grad = None

# float64, and gradcheck of the whole block
torch.manual_seed(3)
m64 = nn.MultiheadAttention(4, 2, dtype=torch.float64, batch_first=True)
x64 = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
mk = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
print("gradcheck", torch.autograd.gradcheck(
    lambda a, b: m64(a, a, a, attn_mask=b, need_weights=False)[0], (x64, mk)))
show("float64", m64(x64, x64, x64, need_weights=False)[0])

# dropout in training: the same draws as PyTorch, in both layouts
for bf in (False, True):
    torch.manual_seed(4)
    mha = nn.MultiheadAttention(E, H, dropout=0.3, batch_first=bf)
    x = torch.randn((N, L, E) if bf else (L, N, E), requires_grad=True)
    out, _ = mha(x, x, x, need_weights=False, attn_mask=causal)
    show(f"dropout bf={bf}", out)
    out.pow(2).sum().backward()
    grads(f"dropout bf={bf}", x, mha)
    print("after", torch.rand(2).tolist())
    mha.eval()
    show(f"eval bf={bf}", mha(x, x, x, need_weights=False)[0])

# the encoder and decoder layers in training mode, dropout on
torch.manual_seed(5)
enc = nn.TransformerEncoderLayer(E, H, dim_feedforward=16, dropout=0.2, batch_first=True)
src = torch.randn(N, L, E)
y = enc(src, src_mask=causal, src_key_padding_mask=pad)
show("encoder layer", y)
y.sum().backward()
show("encoder in_proj grad", enc.self_attn.in_proj_weight.grad)
dec = nn.TransformerDecoderLayer(E, H, dim_feedforward=16, dropout=0.2)
tgt = torch.randn(L, N, E)
show("decoder layer", dec(tgt, src.transpose(0, 1), tgt_mask=causal))
print("after", torch.rand(2).tolist())

# errors stay PyTorch's
for am in (torch.zeros(L, L, dtype=torch.float64), torch.zeros(4, L, L), torch.zeros(L, L, dtype=torch.int32)):
    try:
        mha(x, x, x, need_weights=False, attn_mask=am)
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])

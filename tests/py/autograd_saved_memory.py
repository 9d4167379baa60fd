"""What a recorded node keeps for backward (docs/debugger.md, "What a node
keeps"): as PyTorch, conv keeps its input and weight, relu its output,
max_pool its indices (one-byte window offsets for 2x2), so a conv's output that only the graph held is freed
during the forward, and relu's backward writes over the gradient it gets.
Where nothing else holds relu's output, its node keeps one bit per element
instead (a LeNet step's peak is checked below).
Under nndb the engine allocator's live bytes are checked against bounds
computed from the tensor sizes; PyTorch has no such counter, and prints the
same verdicts. The gradients themselves are compared in both."""
import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    from torch import _C
    stats = _C._mem_stats
except AttributeError:
    stats = None

torch.manual_seed(0)
N, Ci, Co, H = 8, 3, 16, 32
conv = nn.Conv2d(Ci, Co, 3, padding=1)
x = torch.randn(N, Ci, H, H)
f32 = 4
act = N * Co * H * H * f32                 # conv's output, relu's output
pooled = N * Co * (H // 2) ** 2 * f32      # max_pool's output
indices = N * Co * (H // 2) ** 2           # max_pool's saved window offsets (a byte each)
# the allocator rounds a block up by under 25%; nodes and headers are small
slack = 128 * 1024


def within(used, need):
    return used <= need * 1.25 + slack


def forward():
    return F.max_pool2d(F.relu(conv(x)), 2)


# forward: what stays allocated is the pooled result, the indices and
# relu's sign bits (its output goes once the pool, which keeps only
# offsets, has read it); conv's output (which backward does not read) is
# gone
forward()  # warm up (lazily made buffers)
base = stats()["in_use"] if stats else 0
y = forward()
kept = stats()["in_use"] - base if stats else 0
print("after forward: conv and relu outputs freed:",
      within(kept, act // 32 + pooled + indices) if stats else True)

# backward: the pool's input gradient is made once, and relu writes over it
if stats:
    before = stats()["in_use"]
    _C._mem_reset_peak()
y.sum().backward()
extra = stats()["peak"] - before if stats else 0
print("backward: relu's gradient in place:", within(extra, act + pooled) if stats else True)
print("grads: %.4g %.4g" % (conv.weight.grad.sum().item(), conv.bias.grad.sum().item()))
del y
conv.zero_grad()

# the same step with anomaly mode on (the debugger's hook): every input is
# kept, so the report can show it; the gradients do not change
with torch.autograd.detect_anomaly():
    base = stats()["in_use"] if stats else 0
    y = forward()
    kept = stats()["in_use"] - base if stats else 0
    print("anomaly mode keeps conv's output:", kept >= act * 2 + pooled if stats else True)
    y.sum().backward()
print("grads: %.4g %.4g" % (conv.weight.grad.sum().item(), conv.bias.grad.sum().item()))

# double backward through the chain: the rules read only what was kept
x2 = torch.randn(2, Ci, 8, 8, requires_grad=True)
z = F.max_pool2d(torch.tanh(F.relu(conv(x2)) + 1), 2).sum()
(gx,) = torch.autograd.grad(z, x2, create_graph=True)
(gx * gx).sum().backward()
print("double backward:", round(x2.grad.sum().item(), 3), tuple(gx.shape))

# a chain of adds and linears in a training loop gives PyTorch's values
torch.manual_seed(1)
mlp = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 3))
opt = torch.optim.SGD(mlp.parameters(), lr=0.1, momentum=0.9)
a, t = torch.randn(16, 10), torch.randint(0, 3, (16,))
for _ in range(3):
    opt.zero_grad()
    h = mlp(a)
    loss = F.cross_entropy(h + h.sigmoid() * 0.5 - h.exp() * 0.01, t)
    loss.backward()
    opt.step()
print("mlp loss:", round(loss.item(), 4))

# a 2x2 max_pool saves one-byte window offsets, other shapes int64 indices:
# the same maxima either way (ties: the first in the window; a NaN wins), at
# any thread count, and the same as with return_indices=True
for threads in (1, 2):
    torch.set_num_threads(threads)
    for kw in (dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
               dict(kernel_size=2, stride=1, dilation=2, ceil_mode=True),
               dict(kernel_size=3, stride=2, ceil_mode=True)):
        torch.manual_seed(2)
        v = torch.randint(0, 3, (2, 3, 9, 9)).float()
        v[0, 1, 2, 3] = float("nan")
        v.requires_grad_(True)
        out = F.max_pool2d(v, **kw)
        out.backward(torch.arange(out.numel(), dtype=torch.float32).reshape(out.shape))
        g1 = v.grad.clone()
        v.grad = None
        out, idx = F.max_pool2d(v, return_indices=True, **kw)
        out.backward(torch.arange(out.numel(), dtype=torch.float32).reshape(out.shape))
        print(threads, kw, "grad sum %.1f" % g1.sum().item(), "nonzero", int((g1 != 0).sum()),
              "same with indices", torch.equal(g1, v.grad))
    v1 = torch.randn(2, 4, 7, requires_grad=True)
    F.max_pool1d(v1, 3, 2).sum().backward()
    v3 = torch.randn(1, 2, 4, 5, 6, requires_grad=True)
    F.max_pool3d(v3, 2).pow(2).sum().backward()
    print("1d/3d", round(v1.grad.sum().item(), 4), round(v3.grad.sum().item(), 4))
torch.set_num_threads(1)
# large enough that backward splits the planes between two threads
big = torch.randn(8, 64, 32, 32).round(decimals=1).requires_grad_(True)
gw = torch.randn(8, 64, 16, 16)
grads = []
for threads in (1, 2):
    torch.set_num_threads(threads)
    big.grad = None
    F.max_pool2d(big, 2).backward(gw)
    grads.append(big.grad.clone())
big.grad = None
out, idx = F.max_pool2d(big, 2, return_indices=True)
out.backward(gw)
torch.set_num_threads(1)
print("threads agree:", torch.equal(grads[0], grads[1]), "indices agree:",
      torch.equal(grads[0], big.grad), "sum %.3f" % grads[0].sum().item())

# a GPT's attention and loss (docs/debugger.md, "What a node keeps"): of
# q k^T, its scaled and masked copies and softmax, only softmax's output
# stays for backward (matmul, the scaling and masked_fill read none of
# their outputs, softmax not its input), and cross_entropy keeps per-row
# statistics, not a log-softmax as large as the logits
torch.manual_seed(3)
B, Hh, T, D, V = 2, 4, 256, 16, 4096
q, k, v = (torch.randn(B, Hh, T, D, requires_grad=True) for _ in range(3))
causal = torch.tril(torch.ones(T, T)).view(1, 1, T, T) == 0
probs = B * Hh * T * T * f32
head_in = torch.randn(B * T, Hh * D, requires_grad=True)
w_head = (torch.randn(V, Hh * D) * 0.1).requires_grad_(True)
tgt = torch.randint(0, V, (B * T,))
logit_bytes = B * T * V * f32


def gpt_tail():
    att = (q @ k.transpose(-2, -1)) * (1.0 / D ** 0.5)
    att = F.softmax(att.masked_fill(causal, float("-inf")), dim=-1)
    y = att @ v
    logits = F.linear(head_in + y.transpose(1, 2).reshape(B * T, Hh * D), w_head)
    return logits, F.cross_entropy(logits, tgt)


gpt_tail()  # warm up
base = stats()["in_use"] if stats else 0
logits, loss = gpt_tail()
kept = stats()["in_use"] - base if stats else 0
# kept: softmax's output, the logits, and the head's input with y and its
# reshaped copy (small); not four T x T tensors, nor a second logits-sized one
print("attention and loss keep one T x T and the logits:",
      within(kept, probs + logit_bytes + 3 * B * T * Hh * D * f32) if stats else True)
if stats:
    before = stats()["in_use"]
    _C._mem_reset_peak()
loss.backward()
extra = stats()["peak"] - before if stats else 0
# backward: the logits' gradient, the head's weight gradient, the T x T
# gradients of softmax and its input, and the small ones
print("attention and loss backward:",
      within(extra, logit_bytes + 3 * probs + 4 * B * T * Hh * D * f32) if stats else True)
print("gpt tail: %.4f %.4f %.4f %.4f %.4f" % (loss.item(), q.grad.abs().sum().item(),
                                              k.grad.abs().sum().item(), v.grad.abs().sum().item(),
                                              w_head.grad.abs().sum().item()))
# nanoGPT's y.transpose(1, 2).contiguous(): the transpose and the copy
# read no values in backward, so neither keeps y (attention's output, which
# nothing else holds): only the contiguous copy stays
a_y = torch.randn(B, Hh, T, 4 * D, requires_grad=True)
w_y = torch.randn(B, T, Hh, 4 * D)
y_bytes = B * Hh * T * 4 * D * f32
base = stats()["in_use"] if stats else 0
y_cont = (a_y * 2).transpose(1, 2).contiguous()
kept = stats()["in_use"] - base if stats else 0
print("transpose and contiguous keep only the copy:", within(kept, y_bytes) if stats else True)
(y_cont * w_y).sum().backward()
print("their gradient: %.4f" % a_y.grad.abs().sum().item())
del y_cont
# attention's backward alone: the softmax, masked_fill and scale backwards
# write over the T x T gradient they are handed when nothing else holds it
# (docs/architecture.md), so one such gradient is live at a time, not two
# (each op making its own while its input lives)
def attn_only():
    att = (q @ k.transpose(-2, -1)) * (1.0 / D ** 0.5)
    att = att.masked_fill(causal, float("-inf"))
    att = F.softmax(att, dim=-1)
    return (att @ v).sum()


for _ in range(2):
    q.grad = k.grad = v.grad = None
    out = attn_only()
    if stats:
        before = stats()["in_use"]
        _C._mem_reset_peak()
    out.backward()
    extra = stats()["peak"] - before if stats else 0
print("attention backward: one T x T gradient live:",
      within(extra, probs + 4 * B * T * Hh * D * f32) if stats else True)
print("attention alone: %.4f %.4f %.4f" % (q.grad.abs().sum().item(), k.grad.abs().sum().item(),
                                         v.grad.abs().sum().item()))
# the scale written as a division (scores / sqrt(d), as the Annotated
# Transformer does): a / b keeps neither a nor its output when b needs no
# gradient, so again softmax's output is the one T x T tensor kept, and
# its backward writes over the gradient too
def attn_div():
    att = (q @ k.transpose(-2, -1)) / D ** 0.5
    att = att.masked_fill(causal, float("-inf"))
    return (F.softmax(att, dim=-1) @ v).sum()


attn_div()  # warm up
base = stats()["in_use"] if stats else 0
out = attn_div()
kept = stats()["in_use"] - base if stats else 0
print("divided attention keeps one T x T:", within(kept, probs) if stats else True)
q.grad = k.grad = v.grad = None
if stats:
    before = stats()["in_use"]
    _C._mem_reset_peak()
out.backward()
extra = stats()["peak"] - before if stats else 0
print("divided attention backward: one T x T gradient live:",
      within(extra, probs + 4 * B * T * Hh * D * f32) if stats else True)
print("divided attention: %.4f %.4f" % (q.grad.abs().sum().item(), k.grad.abs().sum().item()))
# A LeNet-5 training step (bench/python/conv.py's): the engine allocator's
# live bytes after the forward and its peak over the step, above the step's
# start. After the forward: what backward reads (the pooled maps, their
# offsets, relu's bits, the small linear layers' inputs). The peak: the
# first conv's output and relu's (act1 each) at relu's forward; backward's,
# the first pool's input gradient (act1) with what is kept, is lower.
# Keeping relu's outputs instead of bits (act1 + act2 more, 2.3 MB after the
# forward, a 2.9 MB peak) fails both.
torch.manual_seed(3)
net = nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                    nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                    nn.Linear(84, 10))
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
B = 64
xb, yb = torch.randn(B, 1, 28, 28), torch.randint(0, 10, (B,))
act1, act2 = B * 6 * 28 * 28 * f32, B * 16 * 10 * 10 * f32
pool1, pool2 = act1 // 4, act2 // 4
# (the linear layers keep their inputs: relu's outputs of 120 and 84 features)
kept_bound = (pool1 + pool1 // 4 + act1 // 32 + pool2 + pool2 // 4 + act2 // 32
                             + B * (120 + 84 + 10) * f32) * 1.25 + slack
for step in range(3):
    if stats:
        start = stats()["in_use"]
        _C._mem_reset_peak()
    opt.zero_grad()
    out = net(xb)
    kept = stats()["in_use"] - start if stats else 0
    loss = F.cross_entropy(out, yb)
    loss.backward()
    opt.step()
    del out
    peak = stats()["peak"] - start if stats else 0
    if step == 2:  # gradients and momentum exist from the first step on
        print("lenet: kept after forward within bound:", kept <= kept_bound if stats else True)
        print("lenet: step peak within bound:",
              peak <= 2 * act1 + pool1 if stats else True)
print("lenet loss: %.4f" % loss.item(), "w grad %.3f" % net[0].weight.grad.sum().item())

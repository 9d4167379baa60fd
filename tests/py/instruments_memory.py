"""memory_report's figures against the same figures computed by hand.

Under nndb python they come from nndb.instruments.memory_report (the
engine's allocator and profiler); under PyTorch, which has no such report,
this script computes each one by hand from the model, the optimizer's state
and the matmul shapes. Both must print the same lines."""
import torch
import torch.nn as nn

try:
    from nndb.instruments import memory_report
except ImportError:
    memory_report = None

torch.manual_seed(0)
B, D, H, C = 128, 64, 256, 10
model = nn.Sequential(nn.Linear(D, H), nn.ReLU(), nn.Linear(H, C))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x, y = torch.randn(B, D), torch.randint(0, C, (B,))
n = sum(p.numel() for p in model.parameters())
# the matmuls of one step: forward, weight gradients, and the input gradient
# of every layer but the first (x does not require grad)
matmul_flops = 2 * B * (D * H + H * C) * 2 + 2 * B * H * C
# what the forward leaves for backward, float32: the ReLU's output and the
# logits; the first layer's output is freed once the ReLU has used it (its
# backward reads neither), as in PyTorch (docs/debugger.md, "What a node keeps")
outputs = (B * H + B * C) * 4

if memory_report:
    r = memory_report(model, opt, (x, y))
    figures = (r.parameters, r.parameter_bytes, r.gradient_bytes, r.optimizer_bytes, r.tokens)
    per_param = (r.parameter_bytes + r.gradient_bytes + r.optimizer_bytes) / r.parameters
    holds = (r.activation_bytes >= outputs,
             r.peak_bytes >= r.activation_bytes + r.gradient_bytes,
             abs(r.flops - matmul_flops) / matmul_flops < 0.05,
             r.textbook_flops == 6 * n * B,
             set(r.per_module) == {"0", "1", "2"} and r.per_module["0"] >= B * H * 4)
else:
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    state = sum(v.numel() * v.element_size() for s in opt.state.values() for v in s.values()
                if torch.is_tensor(v) and v.dim() > 0)
    grads = sum(p.grad.numel() * p.grad.element_size() for p in model.parameters())
    pbytes = sum(p.numel() * p.element_size() for p in model.parameters())
    figures = (n, pbytes, grads, state, B)
    per_param = (pbytes + grads + state) / n
    holds = (True, True, True, True, True)
print("parameters, bytes, gradient bytes, optimizer bytes, tokens:", figures)
print("bytes a parameter (AdamW, float32): %.1f" % per_param)
print("activations cover the outputs, peak covers activations and gradients, FLOPs within 5%"
      " of the matmuls, 6ND, per module:", holds)

# SGD without momentum keeps no state; with momentum one buffer a parameter
for momentum in (0.0, 0.9):
    sgd = torch.optim.SGD(model.parameters(), lr=0.1, momentum=momentum)
    if memory_report:
        b = memory_report(model, sgd, (x, y)).optimizer_bytes
    else:
        sgd.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        sgd.step()
        b = sum(v.numel() * v.element_size() for s in sgd.state.values() for v in s.values()
                if torch.is_tensor(v) and v.dim() > 0)
    print("SGD momentum", momentum, "state bytes", b)

# a token model: tokens are the input's elements
emb = nn.Sequential(nn.Embedding(50, 16), nn.Flatten(), nn.Linear(16 * 8, 50))
idx = torch.randint(0, 50, (4, 8))
if memory_report:
    print("tokens", memory_report(emb, None, (idx, torch.randint(0, 50, (4,)))).tokens)
else:
    print("tokens", idx.numel())

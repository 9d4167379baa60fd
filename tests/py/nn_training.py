# A seeded MLP trained by hand-written SGD prints PyTorch's losses; then
# gradient clipping, zero_grad, parameters_to_vector, and BatchNorm's
# running statistics in train and eval mode.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector

torch.manual_seed(1337)
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(),
                      nn.Linear(16, 3))
x = torch.randn(32, 2)
y = torch.randint(0, 3, (32,))
for step in range(30):
    loss = F.cross_entropy(model(x), y)
    model.zero_grad()
    loss.backward()
    norm = clip_grad_norm_(model.parameters(), 1.0)
    with torch.no_grad():
        for p in model.parameters():
            p.sub_(0.5 * p.grad)
    if step % 5 == 0:
        print(step, f"{loss.item():.6f}", f"{norm.item():.6f}")
print(model(x[:3]))
vec = parameters_to_vector(model.parameters())
print(vec.shape, f"{vec.sum().item():.5f}")
print(model[0].weight.grad[:2])
model.zero_grad()
print(model[0].weight.grad[:2])
model.zero_grad(set_to_none=True)
print(model[0].weight.grad)

# clip_grad_value_ and a norm of inf
lin = nn.Linear(3, 2)
(lin(torch.ones(4, 3)) * 10).sum().backward()
clip_grad_value_(lin.parameters(), 0.5)
print(lin.weight.grad, lin.bias.grad)
print(clip_grad_norm_(lin.parameters(), 0.1, norm_type=float("inf")))
print(lin.bias.grad)
print(clip_grad_norm_([], 1.0))

# BatchNorm1d: running stats move by momentum in train, are used in eval
torch.manual_seed(0)
bn = nn.BatchNorm1d(3)
data = torch.randn(8, 3) * 2 + 1
out = bn(data)
print(out.mean(0).abs().max().item() < 1e-6, bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn(data)
print(bn.num_batches_tracked)
bn.eval()
print(bn(data)[:2])
try:
    nn.BatchNorm1d(3)(torch.randn(1, 3))
except ValueError as e:
    print("ValueError", e)
try:
    bn(torch.randn(2, 3, 4, 5))
except ValueError as e:
    print("ValueError", e)

# dropout draws from torch's stream in train mode, identity in eval
torch.manual_seed(3)
drop = nn.Dropout(0.5)
print(drop(torch.ones(2, 6)))
drop.eval()
print(drop(torch.ones(2, 6)))

# LayerNorm, Embedding and a tiny char model
torch.manual_seed(5)
emb = nn.Embedding(6, 4)
ln = nn.LayerNorm(4)
head = nn.Linear(4, 6)
idx = torch.tensor([[1, 2, 3], [4, 5, 0]])
logits = head(ln(emb(idx)))
print(logits.shape, logits[0, 0])

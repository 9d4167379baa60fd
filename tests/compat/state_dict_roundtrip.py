# state_dict / load_state_dict between two copies of a user model.
import torch
import torch.nn as nn

class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.scale = nn.Parameter(torch.ones(2))
        self.register_buffer("steps", torch.zeros(1))

    def forward(self, x):
        return self.lin(x) * self.scale

a = Tiny()
b = Tiny()
with torch.no_grad():
    a.lin.weight.fill_(0.5)
    a.lin.bias.fill_(-1.0)
    a.scale.fill_(2.0)
    a.steps += 3
sd = a.state_dict()
print(list(sd.keys()))
result = b.load_state_dict(sd)
print(result.missing_keys, result.unexpected_keys)
x = torch.ones(1, 3)
print(torch.equal(a(x), b(x)), b.steps.item(), b(x).tolist())
try:
    b.load_state_dict({"lin.weight": torch.zeros(2, 3)})
except RuntimeError as e:
    print("strict load failed:", "Missing key(s)" in str(e))
r = b.load_state_dict({"lin.weight": torch.zeros(2, 3)}, strict=False)
print(sorted(r.missing_keys))
print(b.lin.weight.sum().item())

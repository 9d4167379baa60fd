# A CNN with BatchNorm and Dropout: train/eval modes, state_dict save/load, printing the model
import os
import tempfile
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.pool = nn.MaxPool2d(2, 2)
        self.dropout = nn.Dropout(p=0.25)
        self.fc1 = nn.Linear(16 * 2 * 2, 32)
        self.fc2 = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.bn2(self.conv2(x))))
        x = torch.flatten(x, 1)
        x = self.dropout(F.relu(self.fc1(x)))
        return self.fc2(x)


model = Net()
print(model)
print(model.training, model.bn1.training, model.bn1.running_mean[:3], model.bn1.num_batches_tracked)
n_params = sum(p.numel() for p in model.parameters())
print(f"{n_params:,} parameters")
for name, p in model.named_parameters():
    print(name, list(p.shape))
for name, b in model.named_buffers():
    print("buffer", name, tuple(b.shape), b.dtype)

X = torch.randn(64, 1, 8, 8)
y = (X.mean(dim=(1, 2, 3)) > 0).long() + (X[:, 0, 0, 0] > 1).long()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(4):
    model.train()
    perm = torch.randperm(64)
    total = 0.0
    for i in range(0, 64, 16):
        idx = perm[i:i + 16]
        out = model(X[idx])
        loss = F.cross_entropy(out, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(1) == y).float().mean().item()
    print(f"epoch {epoch}: loss={total / 4:.4f} acc={acc:.3f} lr={sched.get_last_lr()[0]:.4f}")
print(model.bn1.running_mean, model.bn1.running_var[:4], model.bn1.num_batches_tracked)
model.eval()
with torch.no_grad():
    a = model(X[:2])
    b = model(X[:2])
print(torch.equal(a, b), a)
model.train()
torch.manual_seed(5)
c = model.dropout(torch.ones(2, 8))
print(c)
path = os.path.join(tempfile.mkdtemp(), "model.pt")
torch.save(model.state_dict(), path)
sd = torch.load(path)
print(type(sd).__name__, list(sd.keys())[:6], len(sd))
model2 = Net()
print(model2.load_state_dict(sd))
model2.eval()
model.eval()
with torch.no_grad():
    print(torch.allclose(model(X[:4]), model2(X[:4])), model2(X[:1]))
try:
    Net(num_classes=4).load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", e)
res = model2.load_state_dict({k: v for k, v in sd.items() if not k.startswith("fc2")}, strict=False)
print(res.missing_keys, res.unexpected_keys)
torch.save({"epoch": 4, "model": model.state_dict(), "opt": opt.state_dict()}, path)
ck = torch.load(path)
print(ck["epoch"], ck["opt"]["param_groups"][0]["lr"], ck["opt"]["param_groups"][0]["momentum"])
print(model.bn1, model.dropout, model.pool, model.conv2.weight.shape)
print(nn.Sequential(nn.Conv2d(3, 6, 5), nn.BatchNorm2d(6, momentum=0.01), nn.ReLU(inplace=True), nn.Dropout2d(0.1), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten()))

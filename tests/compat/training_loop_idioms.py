# A classifier trained the way tutorials write it: TensorDataset, random_split,
# DataLoader, Sequential(OrderedDict), kaiming init, CrossEntropyLoss, SGD with
# momentum, StepLR, accuracy under no_grad, f-strings of tensors, save/load of
# the state_dict, set_printoptions.
from collections import OrderedDict
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

device = 'cuda' if torch.cuda.is_available() else 'cpu'
print(device)
torch.manual_seed(42)
X = torch.randn(100, 4)
w_true = torch.tensor([1.0, -2.0, 0.5, 3.0])
y = (X @ w_true > 0).long()
ds = TensorDataset(X, y)
train_ds, val_ds = random_split(ds, [80, 20])
print(len(train_ds), len(val_ds))
train_loader = DataLoader(train_ds, batch_size=16, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=20)
print(len(train_loader))

model = nn.Sequential(OrderedDict([
    ('fc1', nn.Linear(4, 16)),
    ('act', nn.ReLU()),
    ('fc2', nn.Linear(16, 2)),
])).to(device)
print(model)
for m in model.modules():
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity='relu')
        nn.init.zeros_(m.bias)
n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"{n_params:,} trainable parameters")
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(4):
    model.train()
    running = 0.0
    for i, (xb, yb) in enumerate(train_loader):
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        out = model(xb)
        loss = criterion(out, yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * xb.size(0)
    scheduler.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            pred = model(xb).argmax(dim=1)
            correct += (pred == yb).sum().item()
    acc = correct / len(val_ds)
    print(f"Epoch {epoch + 1}/4, loss={running / len(train_ds):.4f}, val acc={acc:.2%}, lr={scheduler.get_last_lr()[0]:.3f}")
print(f"{loss:.4f}")
torch.save(model.state_dict(), 'model.pt')
model2 = nn.Sequential(OrderedDict([('fc1', nn.Linear(4, 16)), ('act', nn.ReLU()), ('fc2', nn.Linear(16, 2))]))
model2.load_state_dict(torch.load('model.pt'))
print(torch.equal(model2.fc1.weight, model.fc1.weight))
for name, child in model.named_children():
    print(name, type(child).__name__)
torch.set_printoptions(precision=2)
print(model.fc2.bias)
acc = (model(X).argmax(1) == y).float().mean()
print(acc.item() > 0.5)
print(list(model.state_dict().keys()))

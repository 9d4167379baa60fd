# Linear regression with nn.Linear, MSELoss and SGD from a fixed start.
import torch
import torch.nn as nn

torch.set_grad_enabled(True)
X = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3 * X + 0.5
model = nn.Linear(1, 1)
with torch.no_grad():
    model.weight.fill_(0.0)
    model.bias.fill_(0.0)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    pred = model(X)
    loss = criterion(pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 25 == 0:
        print(f"epoch {epoch + 1}: loss={loss.item():.6f}")
w, b = model.weight.item(), model.bias.item()
print(f"w={w:.3f} b={b:.3f}")

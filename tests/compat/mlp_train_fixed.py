# An MLP written as an nn.Module subclass, trained from a fixed start.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


model = MLP(2, 8, 3)
X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, 0.5], [0.2, 0.8]])
Y = torch.tensor([0, 1, 1, 2, 0, 1])
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(51):
    logits = model(X)
    loss = F.cross_entropy(logits, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")
with torch.no_grad():
    pred = model(X).argmax(dim=1)
print(pred.tolist(), (pred == Y).float().mean().item())
print(model)

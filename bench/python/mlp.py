"""The 2-64-64-3 MLP training step (Adam, cross-entropy, batch 64) written
as course code writes it; the same file under `nndb python` and PyTorch.
Prints "step_us US" (median of 5 rounds of N steps, in CPU time of the
process: at one thread it is the wall time on a quiet machine, and it stays
meaningful on a loaded one)."""
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 3)

    def forward(self, x):
        return self.fc3(torch.tanh(self.fc2(torch.tanh(self.fc1(x)))))


torch.manual_seed(0)
torch.set_num_threads(1)
model = MLP()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
x = torch.randn(64, 2)
y = torch.randint(0, 3, (64,))


def step():
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
for _ in range(50):
    step()
rounds = []
for _ in range(5):
    t0 = time.process_time()
    for _ in range(N):
        step()
    rounds.append((time.process_time() - t0) / N)
print("step_us", f"{statistics.median(rounds) * 1e6:.1f}")

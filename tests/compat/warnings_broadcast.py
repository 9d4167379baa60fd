# The Recipe's silent-broadcast bug: a [N, 1] prediction against an [N]
# target. PyTorch warns (once per line); the loss is not what was meant.
import warnings

import torch
import torch.nn as nn

pred = torch.tensor([[1.0], [2.0], [3.0]])
target = torch.tensor([1.0, 2.0, 3.0])
criterion = nn.MSELoss()
for step in range(3):
    loss = criterion(pred, target)
print(f"broadcast loss {loss.item():.4f}")
print(f"intended loss {criterion(pred.squeeze(1), target).item():.4f}")
warnings.warn("check your shapes")
warnings.filterwarnings("ignore")
warnings.warn("not shown")
print("done")

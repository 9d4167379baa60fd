# Tensor.where(condition, y): self where the condition holds, y elsewhere.
import torch

x = torch.tensor([-1.0, 2.0, -3.0, 4.0])
print(x.where(x > 0, torch.tensor(0.0)))
print(x.where(x < 0, torch.zeros(4)), torch.where(x > 0, x, -x))

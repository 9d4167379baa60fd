import torch
import torch.nn as nn
criterion = nn.CrossEntropyLoss()
print(criterion)
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
y = torch.tensor([0, 2])
print(round(criterion(logits, y).item(), 5), round(nn.CrossEntropyLoss(reduction='sum')(logits, y).item(), 5))
mse = nn.MSELoss()
print(mse(torch.tensor([1.0, 2.0]), torch.tensor([1.5, 2.5])).item(), isinstance(mse, nn.Module))

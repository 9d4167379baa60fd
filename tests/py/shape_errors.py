# The shape errors learners meet first, in PyTorch's words.
import torch
import torch.nn as nn
import torch.nn.functional as F

cases = [
    lambda: torch.ones(4, 5) @ torch.ones(3, 2),
    lambda: torch.mm(torch.ones(2, 3), torch.ones(4, 5)),
    lambda: F.linear(torch.ones(4, 5), torch.ones(2, 3)),
    lambda: F.linear(torch.ones(2, 4, 5), torch.ones(2, 3)),
    lambda: nn.Linear(3, 2)(torch.ones(8, 4)),
    lambda: nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(8, 1))(torch.ones(5, 2)),
]
for make in cases:
    try:
        make()
        print("no error")
    except RuntimeError as e:
        print("RuntimeError:", e)

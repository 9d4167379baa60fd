"""F.binary_cross_entropy (and nn.BCELoss) refuses a target of another dtype than the input, as PyTorch 1.13 does ("Found dtype Long but expected Float": integer class labels fed to BCE, a classic slip that PyTorch stops and nndb computed through)."""
import torch, torch.nn.functional as F, torch.nn as nn
torch.manual_seed(0)
x = torch.rand(3)
for c in ["F.binary_cross_entropy(x, torch.tensor([0, 1, 1]))", "F.binary_cross_entropy(x, torch.tensor([0., 1, 1], dtype=torch.float64))", "F.binary_cross_entropy(x.double(), torch.tensor([0., 1, 1]))",
          "nn.BCELoss()(x, torch.tensor([0, 1, 1]))", "F.binary_cross_entropy(x, torch.tensor([True, False, True]))", "F.binary_cross_entropy(x, torch.tensor([0., 1, 1]))",
          "nn.BCELoss(weight=torch.tensor([1., 2, 3]))(x, torch.tensor([0., 1, 1]))", "F.binary_cross_entropy(x, torch.tensor([0, 1]))"]:
    try: print(c, "->", eval(c))
    except Exception as e: print(c, "->", type(e).__name__, e)

"""The shape errors learners print (e in an except block) are PyTorch 1.13's words: view/reshape of the wrong size ("shape '[4, 2]' is invalid for input of size 6"), a view across a transpose ("view size is not compatible with input tensor's size and stride ..."), cat's and stack's size checks, expand's, two -1s, a negative size, an ambiguous -1 over 0 elements."""
import torch
a = torch.ones(2, 3)
for e in ["a.view(4, 2)", "a.view(-1, 4)", "a.view(-1, -1)", "a.view(-2, 3)", "a.reshape(5)", "a.t().view(6)", "a.t().view(-1)", "torch.ones(0, 3).view(-1, 0)", "torch.ones(0, 3).view(0, -1)",
          "a.view(0, -1)", "torch.cat([a, torch.ones(3, 2)])", "torch.cat([a, torch.ones(2, 2)], dim=0)", "torch.cat([a, torch.ones(2, 3, 1)])", "torch.cat([torch.tensor(1.), torch.tensor(2.)])",
          "torch.cat([a, torch.ones(3, 3)], 1)", "torch.cat([torch.tensor([]), a, torch.ones(1, 2)])", "torch.stack([torch.ones(2), torch.ones(3)])", "torch.stack([a, a, torch.ones(3, 2)])",
          "torch.ones(3).expand(2, 4)", "torch.ones(3).expand(-1, 3)", "torch.ones(2, 3).expand(4, 3)", "torch.ones(1, 3).expand(4, -1).shape",
          "a.reshape(-1, 5)", "torch.ones(0).reshape(-1).shape", "torch.ones(0, 3).reshape(-1).shape", "torch.ones(0, 3).view(-1, 3).shape", "torch.ones(2, 0).view(2, -1).shape", "a.view(3, -1).shape", "torch.ones(2, 3, 4).view(2, -1, 5)", "a.flatten().view(2, 2)"]:
    try: print(e, "->", eval(e))
    except Exception as ex: print(e, "->", type(ex).__name__, ex)

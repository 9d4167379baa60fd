# torch.set_printoptions: precision, threshold, edgeitems, linewidth,
# profiles, sci_mode (forced and reset by each call), and
# torch._tensor_str.PRINT_OPTS.
import torch
from torch._tensor_str import PRINT_OPTS

x = torch.tensor([1.23456789, 100.5, 0.001, -2.5])
print(x)
torch.set_printoptions(precision=6)
print(x, PRINT_OPTS.precision)
torch.set_printoptions(precision=1, sci_mode=True)
print(x)
torch.set_printoptions(precision=3)
print(torch.tensor([1e-8, 1.0, 1e8]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-8, 1.0, 1e8]))
torch.set_printoptions(profile="short")
print(x, torch.arange(2000.0))
torch.set_printoptions(profile="full")
print(torch.arange(1200).reshape(2, 600)[:, -3:], PRINT_OPTS.threshold)
torch.set_printoptions(profile="default", edgeitems=2, threshold=10)
print(torch.arange(30.0).reshape(5, 6))
torch.set_printoptions(profile="default", linewidth=40)
print(torch.linspace(0, 1, 12))
print(torch.randn(0), torch.tensor(3.14159))
torch.set_printoptions(profile="default")
print(torch.tensor([[1.5, -2.25], [1000.0, 0.125]], requires_grad=True))
print(PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth, PRINT_OPTS.sci_mode)

# torch.histogram and torch.histc against PyTorch 1.13 (float inputs).
import torch

torch.manual_seed(0)
x = torch.randn(1000)
h = torch.histogram(x, 10)
print(h.hist)
print(h.bin_edges)
hist, edges = torch.histogram(x, bins=5, range=(-1.0, 1.0))
print(hist, edges)
print(torch.histogram(torch.tensor([1.0, 2.0, 1.0]), bins=4, range=(0.0, 3.0), weight=torch.tensor([1.0, 2.0, 4.0])))
print(torch.histogram(torch.tensor([1.0, 2.0, 1.0, 2.5]), bins=torch.tensor([0.0, 1.0, 1.5, 2.5]), density=True))
print(torch.histogram(torch.tensor([3.0, 3.0]), 4))
print(torch.histogram(torch.tensor([0.0, 0.1, 0.2, 0.3, 0.7, 1.0]), 10, range=(0.0, 1.0)).hist)
print(torch.histogram(torch.arange(12.0).view(3, 4), 3, density=True))
print(torch.histogram(torch.rand(50, dtype=torch.float64), 7).hist.dtype)
r = torch.histogram(x, 3)
print(type(r).__name__, len(r), r[0].shape)
try:
    torch.histogram(torch.tensor([1, 2]), 3)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.histc(x, bins=8, min=-2, max=2))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3))

# bins given as an unsorted tensor: PyTorch's binary search, step for step;
# no data: the range [0, 1]
print(torch.histogram(torch.tensor([5.38, 8.0, 0.416, -1.53, -7.2]),
                      torch.tensor([-4.46, 5.90, 0.044, 1.593]),
                      weight=torch.tensor([7.6, 7.9, -8.7, -2.7, 0.98])))
print(torch.histogram(torch.zeros(0), 3), torch.zeros(0).histogram(2, density=True))

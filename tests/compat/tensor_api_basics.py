import torch
x = torch.zeros(2, 3)
print(x.shape + (1,), x.shape == [2, 3], type(x.shape), x.shape == (2, 3))
print(pow(2, 10), pow(2.0, 0.5))
print(torch.tensor(range(3)))
print(torch.arange(6)[range(2)])
print(x.sum(dim=1, keepdims=True).shape)
print(torch.linspace(0, 1, 7))
print(x.dim(), x.ndim, x.size(0), x.size(), x.numel(), x.T.shape)

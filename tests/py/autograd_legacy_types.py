# torch.FloatTensor and the other legacy tensor types: construction, isinstance, x.type(T).
import torch
a = torch.FloatTensor([1, 2])
b = torch.LongTensor(2, 3)
print(a, b.shape, b.dtype, torch.ByteTensor([1, 0]), torch.BoolTensor([True]))
print(isinstance(a, torch.FloatTensor), isinstance(a, torch.LongTensor), isinstance(torch.ones(2, dtype=torch.long), torch.LongTensor))
print(a.type(torch.LongTensor), a.type(), torch.FloatTensor.dtype, torch.FloatTensor, torch.DoubleTensor(torch.tensor([1.0, 2.0], dtype=torch.float64)))
print(torch.FloatTensor(torch.Size([2])).shape, torch.FloatTensor().shape)

"""Ops that take positions (gather, scatter, sort, topk, median, kthvalue) keep a narrow integer input's dtype (int32, int16, int8, uint8 as torchvision's images are), as PyTorch does: the int64 index takes no part in the result's dtype."""
import torch
for dt in (torch.int32, torch.int16, torch.int8, torch.uint8):
    x = torch.tensor([[3, 1, 2], [0, 5, 4]], dtype=dt)
    print(dt, x.gather(1, torch.tensor([[0], [2]])).dtype, x.sort(1).values.dtype, x.topk(2).values.dtype, x.max(1).values.dtype,
          x.index_select(0, torch.tensor([1])).dtype, x[torch.tensor([0])].dtype, x.cumsum(1).dtype, x.sum().dtype, x.median().dtype, x.kthvalue(1).values.dtype,
          x.flip(0).dtype, x.roll(1).dtype, x.t().contiguous().dtype, torch.cat([x, x]).dtype, x.unique().dtype, x.scatter(1, torch.tensor([[0]]), torch.tensor([[7]], dtype=dt)).dtype)
x = torch.tensor([[200, 7, 255], [0, 128, 3]], dtype=torch.uint8)
print(x.sort(1), x.topk(2), x.median(), x.gather(1, torch.tensor([[2, 0]])), x.scatter(1, torch.tensor([[1]]), torch.tensor([[9]], dtype=torch.uint8)))
h = torch.tensor([1.5, -2.25], dtype=torch.float16)
print(h.gather(0, torch.tensor([1, 0])), h.sort())

# The tensor calls tutorials make beside the core ones: F.pad, where(cond),
# unbind/chunk/split, amax, new_zeros/new_tensor, full_like, max over a dim,
# parameters_to_vector, equal, isclose, l1_loss, normalize,
# cosine_similarity, and the attributes a tensor answers.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 4)
print(F.pad(x, (1, 1)).shape, F.pad(x, (0, 0, 2, 0), value=-1.0)[0, :3, 0])
print(torch.where(x[0] > 0))
print(x.unbind(0)[1].shape, x.chunk(2, dim=-1)[0].shape, len(x.split([1, 3], dim=2)))
print(x.flatten(1).shape, x.reshape(6, -1).T.shape, x.mT.shape if hasattr(x, 'mT') else None)
print(torch.cat([x, x], dim=0).shape, torch.stack([x, x], dim=1).shape)
print(x.amax(dim=-1).shape, x.argmax(dim=-1)[0], x.sum(dim=(0, 2)))
print(x.new_zeros(2).dtype, x.new_ones((1, 2)).shape, x.new_tensor([1, 2]).dtype)
print(torch.full_like(x, 7.0)[0, 0], torch.empty(2, 3).shape, torch.zeros_like(x, dtype=torch.long).dtype)
print(x.max(), x.min(dim=1).values.shape, torch.max(x, 1)[1].shape)
print(torch.nn.utils.parameters_to_vector(nn.Linear(2, 2).parameters()).shape)
m = nn.Linear(3, 2)
print(m.weight.data.shape, m.weight.T.shape, m.in_features, m.out_features)
print(x.std(dim=1, unbiased=False).shape, x.var(1, keepdim=True).shape, x.norm(dim=-1).shape)
print(torch.randperm(5).shape, torch.arange(0, 1, 0.25), torch.linspace(-1, 1, 5))
print(x.clamp(min=0).min() >= 0, x.abs().max() > 0, x.sign()[0, 0])
print(F.dropout(x, p=0.0, training=True).equal(x))
print(torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1])))
print(x.is_leaf, x.requires_grad, x.grad, x.device, x.dim(), x.numel())
print(x[:, None].shape, x[..., 0].shape, x[0, ::2].shape, x[[0, 1], [1, 2]].shape)
print(torch.tensor(3.5).item(), torch.tensor([1, 2]).tolist(), int(torch.tensor(4)), float(torch.tensor(2)))
print(F.mse_loss(x, torch.zeros_like(x), reduction='sum') > 0, F.l1_loss(x, x).item())
print(F.binary_cross_entropy_with_logits(x, torch.ones_like(x)).shape)
print(nn.functional.gelu(torch.tensor([1.0])), F.silu(torch.tensor([1.0])), F.leaky_relu(torch.tensor([-1.0]), 0.1))
print(F.normalize(torch.tensor([[3.0, 4.0]]), dim=1))
print(F.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]])))

# Tensor creation, attributes, arithmetic and reductions (expectations are torch 1.13's output).
x = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(x)
# expect: tensor([[1., 2., 3.],
# expect:         [4., 5., 6.]])
print(x.shape, x.dtype, x.ndim, x.numel(), len(x))
# expect: torch.Size([2, 3]) torch.float32 2 6 2
print(x.size(1), x.shape[0], x.shape == (2, 3))
# expect: 3 2 True
print(zeros(2, 3, dtype=int64))
# expect: tensor([[0, 0, 0],
# expect:         [0, 0, 0]])
print(ones(3).dtype, arange(4), arange(0, 1, 0.25))
# expect: torch.float32 tensor([0, 1, 2, 3]) tensor([0.0000, 0.2500, 0.5000, 0.7500])
print(full((2,), 7), full((2,), 0.5), eye(2))
# expect: tensor([7, 7]) tensor([0.5000, 0.5000]) tensor([[1., 0.],
# expect:         [0., 1.]])
print(linspace(0, 1, 5))
# expect: tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
print(tensor(3), tensor(2.5), tensor(True), tensor([]))
# expect: tensor(3) tensor(2.5000) tensor(True) tensor([])
print(x + 1, 1 - x)
# expect: tensor([[2., 3., 4.],
# expect:         [5., 6., 7.]]) tensor([[ 0., -1., -2.],
# expect:         [-3., -4., -5.]])
print(2 * x / 4)
# expect: tensor([[0.5000, 1.0000, 1.5000],
# expect:         [2.0000, 2.5000, 3.0000]])
print(x ** 2 - x)
# expect: tensor([[ 0.,  2.,  6.],
# expect:         [12., 20., 30.]])
print(x // 2, x % 4)
# expect: tensor([[0., 1., 1.],
# expect:         [2., 2., 3.]]) tensor([[1., 2., 3.],
# expect:         [0., 1., 2.]])
print(-x, x @ x.T)
# expect: tensor([[-1., -2., -3.],
# expect:         [-4., -5., -6.]]) tensor([[14., 32.],
# expect:         [32., 77.]])
print(x.sum(), x.sum(dim=1), x.sum(0, keepdim=True))
# expect: tensor(21.) tensor([ 6., 15.]) tensor([[5., 7., 9.]])
print(x.mean(), x.var(), x.std(dim=1))
# expect: tensor(3.5000) tensor(3.5000) tensor([1., 1.])
print(x.max(), x.min(dim=0))
# expect: tensor(6.) torch.return_types.min(
# expect: values=tensor([1., 2., 3.]),
# expect: indices=tensor([0, 0, 0]))
v, i = x.max(dim=1)
print(v, i)
# expect: tensor([3., 6.]) tensor([2, 2])
print(x.argmax(), x.argmax(dim=1))
# expect: tensor(5) tensor([2, 2])
print(x.norm(), x.logsumexp(dim=1))
# expect: tensor(9.5394) tensor([3.4076, 6.4076])
print(x.reshape(3, 2), x.view(-1), x.flatten())
# expect: tensor([[1., 2.],
# expect:         [3., 4.],
# expect:         [5., 6.]]) tensor([1., 2., 3., 4., 5., 6.]) tensor([1., 2., 3., 4., 5., 6.])
print(x.T, x.t().contiguous().is_contiguous())
# expect: tensor([[1., 4.],
# expect:         [2., 5.],
# expect:         [3., 6.]]) True
print(x.unsqueeze(0).shape, x.unsqueeze(0).squeeze().shape)
# expect: torch.Size([1, 2, 3]) torch.Size([2, 3])
print(x.permute(1, 0).shape, x.transpose(0, 1).shape)
# expect: torch.Size([3, 2]) torch.Size([3, 2])
print(cat([x, x]).shape, stack([x, x], dim=1).shape)
# expect: torch.Size([4, 3]) torch.Size([2, 2, 3])
print(x.chunk(3, dim=1))
# expect: (tensor([[1.],
# expect:         [4.]]), tensor([[2.],
# expect:         [5.]]), tensor([[3.],
# expect:         [6.]]))
print(x.split([1, 2], dim=1))
# expect: (tensor([[1.],
# expect:         [4.]]), tensor([[2., 3.],
# expect:         [5., 6.]]))
print(x.exp().log(), x.sqrt().rsqrt())
# expect: tensor([[1.0000, 2.0000, 3.0000],
# expect:         [4.0000, 5.0000, 6.0000]]) tensor([[1.0000, 0.8409, 0.7598],
# expect:         [0.7071, 0.6687, 0.6389]])
print(x.clamp(2, 5), x.clamp(min=3))
# expect: tensor([[2., 2., 3.],
# expect:         [4., 5., 5.]]) tensor([[3., 3., 3.],
# expect:         [4., 5., 6.]])
print(relu(x - 3), sigmoid(x - x), tanh(x - x))
# expect: tensor([[0., 0., 0.],
# expect:         [1., 2., 3.]]) tensor([[0.5000, 0.5000, 0.5000],
# expect:         [0.5000, 0.5000, 0.5000]]) tensor([[0., 0., 0.],
# expect:         [0., 0., 0.]])
print(softmax(tensor([1.0, 2.0, 3.0]), dim=0))
# expect: tensor([0.0900, 0.2447, 0.6652])
print(log_softmax(tensor([1.0, 2.0, 3.0]), dim=0))
# expect: tensor([-2.4076, -1.4076, -0.4076])
print(x > 3, (x > 3).any(), (x > 0).all(), (x > 3).sum())
# expect: tensor([[False, False, False],
# expect:         [ True,  True,  True]]) tensor(True) tensor(True) tensor(3)
print(where(x > 3, x, zeros_like(x)))
# expect: tensor([[0., 0., 0.],
# expect:         [4., 5., 6.]])
print(x.masked_fill(x > 4, 0.0))
# expect: tensor([[1., 2., 3.],
# expect:         [4., 0., 0.]])
print(isnan(x).any(), isfinite(x / 0).all(), x.double().dtype, x.long(), (x > 2).float())
# expect: tensor(False) tensor(False) torch.float64 tensor([[1, 2, 3],
# expect:         [4, 5, 6]]) tensor([[0., 0., 1.],
# expect:         [1., 1., 1.]])
print(maximum(x, full_like(x, 3.5)), minimum(x, tensor(2.0)))
# expect: tensor([[3.5000, 3.5000, 3.5000],
# expect:         [4.0000, 5.0000, 6.0000]]) tensor([[1., 2., 2.],
# expect:         [2., 2., 2.]])
print(x.tolist(), x[0, 0].item(), int(x[1, 2]), float(x.sum()))
# expect: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] 1.0 6 21.0
print(f"{x.sum():.3f} {x.mean().item():.2e}")
# expect: 21.000 3.50e+00
for row in x:
    print(row)
# expect: tensor([1., 2., 3.])
# expect: tensor([4., 5., 6.])
print(allclose(x, x + 1e-9), x.eq(x).all())
# expect: True tensor(True)

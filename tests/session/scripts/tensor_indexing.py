# PyTorch indexing: ints, negative ints, slices with steps, None, ..., index tensors and lists, bool masks; assignment.
x = arange(24).reshape(2, 3, 4)
print(x[0])
# expect: tensor([[ 0,  1,  2,  3],
# expect:         [ 4,  5,  6,  7],
# expect:         [ 8,  9, 10, 11]])
print(x[-1, -1])
# expect: tensor([20, 21, 22, 23])
print(x[1, 2, 3], x[1, 2, 3].item())
# expect: tensor(23) 23
print(x[:, 1])
# expect: tensor([[ 4,  5,  6,  7],
# expect:         [16, 17, 18, 19]])
print(x[..., 0])
# expect: tensor([[ 0,  4,  8],
# expect:         [12, 16, 20]])
print(x[0, :, ::2])
# expect: tensor([[ 0,  2],
# expect:         [ 4,  6],
# expect:         [ 8, 10]])
print(x[:, 1:, 1:3])
# expect: tensor([[[ 5,  6],
# expect:          [ 9, 10]],
# expect: 
# expect:         [[17, 18],
# expect:          [21, 22]]])
print(x[None].shape, x[:, None, 0].shape)
# expect: torch.Size([1, 2, 3, 4]) torch.Size([2, 1, 4])
print(x[0, [2, 0]])
# expect: tensor([[ 8,  9, 10, 11],
# expect:         [ 0,  1,  2,  3]])
print(x[tensor([1, 0]), tensor([0, 2])])
# expect: tensor([[12, 13, 14, 15],
# expect:         [ 8,  9, 10, 11]])
print(x[0, :, tensor([0, 3])])
# expect: tensor([[ 0,  3],
# expect:         [ 4,  7],
# expect:         [ 8, 11]])
print(x[tensor([1, 0]), :, tensor([0, 3])])
# expect: tensor([[12, 16, 20],
# expect:         [ 3,  7, 11]])
print(x[x > 20])
# expect: tensor([21, 22, 23])
m = tensor([True, False])
print(x[m].shape)
# expect: torch.Size([1, 3, 4])
w = zeros(2, 3)
w[0, 1] = float('nan')
w[1] = tensor([1.0, 2.0, 3.0])
w[:, 2] = 7
print(w)
# expect: tensor([[0., nan, 7.],
# expect:         [1., 2., 7.]])
w[w > 1] = -1.0
print(w)
# expect: tensor([[ 0., nan, -1.],
# expect:         [ 1., -1., -1.]])
w[tensor([0, 1]), tensor([0, 0])] = 5.0
print(w)
# expect: tensor([[ 5., nan, -1.],
# expect:         [ 5., -1., -1.]])
w[...] = 0
print(w)
# expect: tensor([[0., 0., 0.],
# expect:         [0., 0., 0.]])
y = randn(3, 2, requires_grad=True)
with no_grad():
    y[0, 0] = float('inf')
print(isinf(y).sum())
# expect: tensor(1)

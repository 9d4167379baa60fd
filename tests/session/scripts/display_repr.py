# Tensor reprs exactly as torch 1.13 prints them: precision, sci mode, summaries, wrapping, suffixes.
print(tensor([1e-5, 1.0]), tensor([1e10, 1.0]), tensor([1.0, 10000.0]))
# expect: tensor([1.0000e-05, 1.0000e+00]) tensor([1.0000e+10, 1.0000e+00]) tensor([1.0000e+00, 1.0000e+04])
print(tensor([float('nan'), 1.0, float('inf'), -float('inf')]))
# expect: tensor([nan, 1., inf, -inf])
print(tensor([0.1, 1000.5]), tensor([-0.0, 1.5]))
# expect: tensor([1.0000e-01, 1.0005e+03]) tensor([-0.0000, 1.5000])
print(arange(60) * 1000)
# expect: tensor([    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,  9000,
# expect:         10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000,
# expect:         20000, 21000, 22000, 23000, 24000, 25000, 26000, 27000, 28000, 29000,
# expect:         30000, 31000, 32000, 33000, 34000, 35000, 36000, 37000, 38000, 39000,
# expect:         40000, 41000, 42000, 43000, 44000, 45000, 46000, 47000, 48000, 49000,
# expect:         50000, 51000, 52000, 53000, 54000, 55000, 56000, 57000, 58000, 59000])
print(arange(2000))
# expect: tensor([   0,    1,    2,  ..., 1997, 1998, 1999])
print(arange(1200.0).reshape(40, 30))
# expect: tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 2.7000e+01, 2.8000e+01,
# expect:          2.9000e+01],
# expect:         [3.0000e+01, 3.1000e+01, 3.2000e+01,  ..., 5.7000e+01, 5.8000e+01,
# expect:          5.9000e+01],
# expect:         [6.0000e+01, 6.1000e+01, 6.2000e+01,  ..., 8.7000e+01, 8.8000e+01,
# expect:          8.9000e+01],
# expect:         ...,
# expect:         [1.1100e+03, 1.1110e+03, 1.1120e+03,  ..., 1.1370e+03, 1.1380e+03,
# expect:          1.1390e+03],
# expect:         [1.1400e+03, 1.1410e+03, 1.1420e+03,  ..., 1.1670e+03, 1.1680e+03,
# expect:          1.1690e+03],
# expect:         [1.1700e+03, 1.1710e+03, 1.1720e+03,  ..., 1.1970e+03, 1.1980e+03,
# expect:          1.1990e+03]])
print(arange(10.0).double(), tensor([True, False]))
# expect: tensor([0., 1., 2., 3., 4., 5., 6., 7., 8., 9.], dtype=torch.float64) tensor([ True, False])
print(zeros(0, 3), zeros(0, dtype=int64), zeros(2, 0))
# expect: tensor([], size=(0, 3)) tensor([], dtype=torch.int64) tensor([], size=(2, 0))
w = ones(2, 8, requires_grad=True)
print(w)
# expect: tensor([[1., 1., 1., 1., 1., 1., 1., 1.],
# expect:         [1., 1., 1., 1., 1., 1., 1., 1.]], requires_grad=True)
print(w * 1)
# expect: tensor([[1., 1., 1., 1., 1., 1., 1., 1.],
# expect:         [1., 1., 1., 1., 1., 1., 1., 1.]], grad_fn=<MulBackward0>)
print(w.sum(), (w + 1).mean(dim=1))
# expect: tensor(16., grad_fn=<SumBackward0>) tensor([2., 2.], grad_fn=<MeanBackward1>)
print((w @ w.T).grad_fn.name(), w.unsqueeze(0).grad_fn.name(), w[0].grad_fn.name(), w[:, 1:].grad_fn.name())
# expect: MmBackward0 UnsqueezeBackward0 SelectBackward0 SliceBackward0
print(w.T.grad_fn.name(), w.t().grad_fn.name(), w.view(16).grad_fn.name())
# expect: PermuteBackward0 TBackward0 ViewBackward0
print(zeros(1, 1, 3, 2) + 0.25)
# expect: tensor([[[[0.2500, 0.2500],
# expect:           [0.2500, 0.2500],
# expect:           [0.2500, 0.2500]]]])
print(ones(3).shape, arange(6).reshape(2, 3).shape[1:])
# expect: torch.Size([3]) torch.Size([3])
print(float32, float64, int64, long, double)
# expect: torch.float32 torch.float64 torch.int64 torch.int64 torch.float64
print(tensor([1, 2]).dtype == int64, zeros(1).dtype == float32)
# expect: True True

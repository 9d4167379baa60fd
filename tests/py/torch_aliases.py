# torch.* spellings of nn.functional's functions (ATen's argument orders,
# integer reductions) and the window functions, against PyTorch.
import torch

torch.manual_seed(0)
x = torch.randn(2, 4, 8)
w = torch.randn(3, 4, 3)
print(torch.conv1d(x, w, None, 1, 1).sum().item() == torch.nn.functional.conv1d(x, w, None, 1, 1).sum().item())
print(torch.conv2d(x.permute(1, 0, 2)[None], w[:, :, None].expand(3, 4, 2, 3).contiguous(), padding=1).shape)
print(torch.conv_transpose1d(x, torch.randn(4, 2, 3), stride=2).shape)
print(torch.celu(x, 0.5)[0, 0, :3], torch.selu(x)[0, 0, :3])
print(torch.threshold(x, 0.1, -1.0)[0, 0, :4], torch.hardshrink(x, 0.3)[0, 0, :4], x.hardshrink()[0, 0, :4])
print(torch.prelu(x, torch.tensor([0.25] * 4))[0, 0, :3], x.prelu(torch.tensor([0.1]))[0, 0, :3])
print(torch.pixel_shuffle(torch.arange(16.).reshape(1, 4, 2, 2), 2))
print(torch.pixel_unshuffle(torch.arange(16.).reshape(1, 1, 4, 4), 2).shape)
print(torch.channel_shuffle(torch.arange(8.).reshape(1, 4, 2), 2))
print(torch.cosine_similarity(x[0], x[1], 0)[:3], torch.pairwise_distance(x[0], x[1])[:3])
print(torch.max_pool1d(x, 2)[0, 0], torch.max_pool2d(x.permute(1, 0, 2)[None], 2).shape, torch.avg_pool1d(x, 3, 2)[0, 0])
v, i = torch.adaptive_max_pool1d(x, 3)
print(v[0, 0], i[0, 0], torch.adaptive_avg_pool1d(x, 3)[0, 0])
print(torch.dropout(x, 0.5, False).equal(x), torch.alpha_dropout(x, 0.5, False).equal(x))
print(torch.layer_norm(x, (8,))[0, 0, :3], torch.group_norm(x, 2)[0, 0, :3])
rm, rv = torch.zeros(4), torch.ones(4)
print(torch.batch_norm(x, torch.ones(4), torch.zeros(4), rm, rv, True, 0.1, 1e-5, False)[0, 0, :3], rm)
print(torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False)[0, 0, :3])
emb = torch.randn(5, 3)
print(torch.embedding(emb, torch.tensor([[0, 4], [2, 2]])).shape, torch.embedding(emb, torch.tensor([1]))[0].equal(emb[1]))
a, b = torch.randn(6), torch.randn(6)
t = torch.tensor([1., -1., 1., 1., -1., -1.])
lp = torch.log_softmax(torch.randn(3, 5), 1)
q = torch.softmax(torch.randn(3, 5), 1)
for r in (0, 1, 2):
    print(r, torch.kl_div(lp, q, r), torch.margin_ranking_loss(a, b, t, 0.1, r),
          torch.hinge_embedding_loss(a, t, 1.0, r))
print(torch.cosine_embedding_loss(x[0], x[1], torch.tensor([1., -1., 1., -1.]), 0.0, 1))
print(torch.triplet_margin_loss(x[0], x[1], x[0] * 2, 1.0, 2, 1e-6, False, 2))
print(torch.poisson_nll_loss(a, b.abs(), True, False, 1e-8, 1))
print(torch.binary_cross_entropy_with_logits(a, (b > 0).float(), None, torch.tensor(2.0), 1))
print(torch.bilinear(torch.randn(2, 3), torch.randn(2, 4), torch.randn(5, 3, 4)).shape)
for fn in (torch.hann_window, torch.hamming_window, torch.blackman_window, torch.bartlett_window,
           torch.kaiser_window):
    print(fn.__name__, fn(7), fn(6, periodic=False), fn(1), fn(0), fn(5, dtype=torch.float64))
print(torch.hamming_window(8, True, 0.5, 0.5), torch.kaiser_window(9, False, 5.0))
try:
    torch.hann_window(4, dtype=torch.int64)
except RuntimeError as e:
    print("RuntimeError", str(e)[:44])
print(torch.ones(2).cfloat().dtype, torch.ones(2).cdouble().dtype)

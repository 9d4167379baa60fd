# More of torch.nn.functional and the layers over it: padding_idx keeps its
# row's gradient at zero, pad, Bilinear, PReLU, Flatten/Unflatten, the
# names of the grad_fn nodes printed losses show, cosine similarity,
# vector_to_parameters and the error when clipping a non-finite norm.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_, parameters_to_vector, vector_to_parameters

torch.manual_seed(7)
emb = nn.Embedding(5, 3, padding_idx=0)
out = emb(torch.tensor([[0, 2, 0], [4, 2, 1]]))
print(out.grad_fn.name(), out[0, 0])
out.sum().backward()
print(emb.weight.grad)
print(nn.Embedding(4, 2, padding_idx=-1).padding_idx)
pre = nn.Embedding.from_pretrained(torch.arange(6.0).reshape(3, 2))
print(pre, pre.weight.requires_grad, pre(torch.tensor([2])))

x = torch.randn(2, 3, requires_grad=True)
print(F.pad(x, (1, 2)), F.pad(x, (0, 0, 1, 0), value=-1.0))
print(F.pad(x, (-1, 1)))
bil = nn.Bilinear(3, 2, 4)
print(bil(x, torch.randn(2, 2)).shape, bil)
pr = nn.PReLU(3)
print(pr(x), pr)
print(nn.Flatten()(torch.zeros(2, 3, 4)).shape, nn.Flatten(0)(torch.zeros(2, 3)).shape)
print(nn.Unflatten(1, (2, 2))(torch.zeros(3, 4)).shape)
t = torch.randn(2, 3)
for name, r in [("elu", F.elu(x)), ("selu", F.selu(x)), ("celu", F.celu(x)),
                ("hardtanh", F.hardtanh(x)), ("relu6", F.relu6(x)), ("logsigmoid", F.logsigmoid(x)),
                ("mish", F.mish(x)), ("hardswish", F.hardswish(x)), ("hardsigmoid", F.hardsigmoid(x)),
                ("threshold", F.threshold(x, 0.1, 20.0)),
                ("smooth_l1", F.smooth_l1_loss(x, t)), ("huber", F.huber_loss(x, t, delta=0.3)),
                ("bce_w", F.binary_cross_entropy(torch.sigmoid(x), (t > 0) * 1.0,
                                                 weight=torch.tensor([1.0, 2.0, 3.0]))),
                ("nll_w", F.nll_loss(F.log_softmax(x, 1), torch.tensor([2, 0]),
                                     weight=torch.tensor([1.0, 0.5, 2.0]))),
                ("ce_w", F.cross_entropy(x, torch.tensor([2, 0]), weight=torch.tensor([1.0, 0.5, 2.0]))),
                ("cos", F.cosine_similarity(x, t)), ("kl", F.kl_div(F.log_softmax(x, 1),
                                                                   F.softmax(t, 1),
                                                                   reduction="batchmean"))]:
    print(name, r)

model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
vec = parameters_to_vector(model.parameters())
vector_to_parameters(vec * 0 + 1, model.parameters())
print([p.sum().item() for p in model.parameters()], type(model[0].weight).__name__)
model(torch.ones(1, 2)).sum().backward()
model[0].weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", e)
print(clip_grad_norm_(model.parameters(), 1.0), model[1].weight.grad)

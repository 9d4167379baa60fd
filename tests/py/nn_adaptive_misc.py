# AdaptiveLogSoftmaxWithLoss (forward, loss, gradients, log_prob, predict,
# errors), DataParallel on the CPU, torch.nn.factory_kwargs: equal PyTorch.
import torch
from torch import nn


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 12, cutoffs=[3, 7], div_value=2.0).double()
print(asm)
print([(n, tuple(p.shape)) for n, p in asm.named_parameters()])
x = torch.randn(6, 8, dtype=torch.float64, requires_grad=True)
t = torch.tensor([0, 5, 11, 2, 7, 3])
out, loss = asm(x, t)
print("output", r(out), "loss", round(loss.item(), 6))
loss.backward()
print("grad x", r(x.grad))
print("grad head", r(asm.head.weight.grad)[:8], r(asm.tail[1][0].weight.grad)[:6])
lp = asm.log_prob(x)
print("log_prob", tuple(lp.shape), r(lp.exp().sum(1)), r(lp[:, 10]))
print("predict", asm.predict(x).tolist())
o1, l1 = asm(x[0], t[0])
print("unbatched", tuple(o1.shape), round(l1.item(), 6))
torch.manual_seed(1)
asm2 = nn.AdaptiveLogSoftmaxWithLoss(4, 5, cutoffs=[2], head_bias=True)
xs = torch.randn(3, 4)
print("head_bias", r(asm2(xs, torch.tensor([0, 1, 1]))[0]), asm2.predict(xs).tolist())
for bad in (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 12, cutoffs=[7, 3]),
            lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 12, cutoffs=[3, 12]),
            lambda: asm(x, torch.tensor([0, 1, 2, 3, 4, 12])),
            lambda: asm(x, t[:3])):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)

dp = nn.DataParallel(nn.Linear(3, 2))
print(dp, dp.device_ids, list(dp.state_dict().keys()))
print(torch.equal(dp(torch.ones(1, 3)), dp.module(torch.ones(1, 3))))
print(nn.factory_kwargs({"dtype": torch.float64}), nn.factory_kwargs(None),
      nn.factory_kwargs({"factory_kwargs": {"device": "cpu"}, "dtype": torch.float32}))
try:
    nn.factory_kwargs({"bogus": 1})
except TypeError as e:
    print("TypeError", e)
print(nn.common_types._size_2_t)

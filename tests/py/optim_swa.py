# torch.optim.swa_utils against torch: AveragedModel's running average (and
# a custom avg_fn, and use_buffers), SWALR's learning rates ('cos' and
# 'linear') and update_bn's recomputed BatchNorm statistics.
import warnings
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
swa = AveragedModel(model)
ema = AveragedModel(model, avg_fn=lambda a, m, n: 0.9 * a + 0.1 * m, use_buffers=True)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3)
lin = SWALR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0), swa_lr=[0.2],
            anneal_epochs=4, anneal_strategy='linear')
x = torch.randn(16, 3)
y = torch.randint(0, 2, (16,))
rates = []
for step in range(6):
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    sched.step()
    lin.optimizer.step()
    lin.step()
    rates.append((sched.get_last_lr()[0], lin.get_last_lr()[0]))
    swa.update_parameters(model)
    ema.update_parameters(model)
for a, b in rates:
    print(repr(a), repr(b))
print('n_averaged', swa.n_averaged, ema.n_averaged)
for name, p in swa.named_parameters():
    print(name, [round(v, 5) for v in p.reshape(-1).tolist()[:4]])
print('ema', [round(v, 5) for v in ema.module[0].weight.reshape(-1).tolist()[:4]],
      [round(v, 5) for v in ema.module[1].running_mean.tolist()])

loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=4)
swa.eval()
update_bn(loader, swa)
bn = swa.module[1]
print('bn', [round(v, 5) for v in bn.running_mean.tolist()],
      [round(v, 5) for v in bn.running_var.tolist()], bn.momentum, bn.num_batches_tracked,
      swa.training)
print([round(v, 5) for v in swa(x[:2]).reshape(-1).tolist()])
print(sorted(swa.state_dict())[:3])

for bad in [lambda: SWALR(opt, swa_lr=0.1, anneal_strategy='step'),
            lambda: SWALR(opt, swa_lr=0.1, anneal_epochs=-1),
            lambda: SWALR(opt, swa_lr=[0.1, 0.2])]:
    try:
        bad()
    except ValueError as e:
        print('ValueError:', e)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    sched.get_lr()
print([str(c.message) for c in caught])

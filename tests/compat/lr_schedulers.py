# Learning-rate schedules as training scripts use them, stepped the way
# tutorials do, with the lrs printed at full precision (torch's chainable
# formulas, so the floats agree to the last bit).
import math
import torch
from torch.optim.lr_scheduler import (StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR,
                                      LambdaLR, LinearLR, ReduceLROnPlateau)

w = torch.nn.Parameter(torch.ones(2))
b = torch.nn.Parameter(torch.zeros(1))


def run(name, make, steps=12, opt_kind='sgd'):
    if opt_kind == 'sgd':
        opt = torch.optim.SGD([{'params': [w]}, {'params': [b], 'lr': 0.05}], lr=0.1, momentum=0.9)
    else:
        opt = torch.optim.AdamW([w, b], lr=3e-4)
    sched = make(opt)
    lrs = []
    for epoch in range(steps):
        opt.zero_grad()
        loss = (w * 2 + b).sum()
        loss.backward()
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    print(name, sched.last_epoch, [g['lr'] for g in opt.param_groups])
    for row in lrs[:4] + lrs[-2:]:
        print('  ', row)
    return opt


run('StepLR', lambda o: StepLR(o, step_size=3, gamma=0.5))
run('MultiStepLR', lambda o: MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.1))
run('ExponentialLR', lambda o: ExponentialLR(o, gamma=0.9))
run('CosineAnnealingLR', lambda o: CosineAnnealingLR(o, T_max=5, eta_min=0.001), steps=14)
run('LambdaLR', lambda o: LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch))
run('LambdaLR list', lambda o: LambdaLR(o, lr_lambda=[lambda e: 1 / (e + 1), lambda e: min(1.0, (e + 1) / 4)]))
opt = run('LinearLR', lambda o: LinearLR(o, start_factor=0.25, total_iters=4), opt_kind='adamw')
print(sorted(opt.param_groups[0].keys()))

opt = torch.optim.SGD([w], lr=1.0)
sched = ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=2, cooldown=1)
for loss in [1.0, 0.9, 0.95, 0.93, 0.92, 0.91, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]:
    sched.step(loss)
    print('plateau', loss, opt.param_groups[0]['lr'], sched.num_bad_epochs)
sched = ReduceLROnPlateau(opt, mode='max', threshold=0.1, threshold_mode='abs', patience=0)
for acc in [0.5, 0.55, 0.7, 0.75]:
    sched.step(torch.tensor(acc))
    print('plateau max', acc, opt.param_groups[0]['lr'])

# warmup then cosine, written by hand as nanoGPT does, beside LambdaLR
def lr_lambda(it, warmup=3, total=10):
    if it < warmup:
        return (it + 1) / warmup
    return 0.5 * (1 + math.cos(math.pi * (it - warmup) / (total - warmup)))


opt = torch.optim.AdamW([w], lr=1e-3)
sched = LambdaLR(opt, lr_lambda)
for it in range(10):
    opt.step()
    sched.step()
    print(it, f"{sched.get_last_lr()[0]:.6e}")

# Learning-rate schedulers: each one's lr sequence (full repr, so every
# float must be the one PyTorch computes), get_last_lr, state_dict and
# the momentum cycling of OneCycleLR / CyclicLR.
import math
import torch
from torch.optim import lr_scheduler as S


def make_opt(kind='sgd', lr=0.1, groups=1):
    torch.manual_seed(0)
    ps = [torch.randn(2, requires_grad=True) for _ in range(groups)]
    if groups > 1:
        params = [{'params': [p], 'lr': lr * (i + 1)} for i, p in enumerate(ps)]
    else:
        params = ps
    if kind == 'adam':
        return torch.optim.Adam(params, lr=lr)
    return torch.optim.SGD(params, lr=lr, momentum=0.9)


def run(name, make_sched, steps=12, kind='sgd', groups=1, metrics=None):
    opt = make_opt(kind, groups=groups)
    sched = make_sched(opt)
    lrs = []
    for i in range(steps):
        opt.step()
        if metrics is not None:
            sched.step(metrics[i])
        else:
            sched.step()
        lrs.append([g['lr'] for g in opt.param_groups])
    print(name, [repr(v) for row in lrs for v in row])
    if hasattr(sched, 'get_last_lr'):
        print('  last', sched.get_last_lr())
    return opt, sched


run('StepLR', lambda o: S.StepLR(o, step_size=3, gamma=0.5))
run('MultiStepLR', lambda o: S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3))
run('ExponentialLR', lambda o: S.ExponentialLR(o, gamma=0.9))
run('CosineAnnealingLR', lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.001), steps=16)
run('LambdaLR', lambda o: S.LambdaLR(o, lambda e: 1 / (e + 1)))
run('LambdaLR2', lambda o: S.LambdaLR(o, [lambda e: 0.9 ** e, lambda e: e / 10]), groups=2)
run('MultiplicativeLR', lambda o: S.MultiplicativeLR(o, lambda e: 0.95))
run('LinearLR', lambda o: S.LinearLR(o, start_factor=0.25, total_iters=6))
run('ConstantLR', lambda o: S.ConstantLR(o, factor=0.5, total_iters=4))
run('PolynomialLR', lambda o: S.PolynomialLR(o, total_iters=8, power=2.0))
o, s = run('OneCycleLR', lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=12), steps=11)
print('  momentum', repr(o.param_groups[0]['momentum']))
o, s = run('OneCycleLR-adam', lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=20, anneal_strategy='linear', three_phase=True), steps=19, kind='adam')
print('  betas', o.param_groups[0]['betas'])
o, s = run('CyclicLR', lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode='triangular2'), steps=14)
print('  momentum', repr(o.param_groups[0]['momentum']))
run('WarmRestarts', lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), steps=14)
run('Sequential', lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=3), S.ExponentialLR(o, gamma=0.8)], milestones=[3]))
run('Chained', lambda o: S.ChainedScheduler([S.ExponentialLR(o, gamma=0.9), S.StepLR(o, step_size=4, gamma=0.5)]))
losses = [1.0, 0.9, 0.9, 0.9, 0.9, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85]
o, s = run('ReduceLROnPlateau', lambda o: S.ReduceLROnPlateau(o, patience=2, factor=0.5, cooldown=1), metrics=losses)
print('  bad epochs', s.num_bad_epochs, 'best', s.best, 'cooldown', s.cooldown_counter)

# state_dict of a scheduler, and resuming from it
opt = make_opt()
sched = S.StepLR(opt, step_size=2, gamma=0.1)
for _ in range(3):
    opt.step()
    sched.step()
sd = sched.state_dict()
print(sorted(sd.keys()))
print(sd['last_epoch'], sd['_step_count'], sd['base_lrs'], sd['_last_lr'])
opt2 = make_opt()
sched2 = S.StepLR(opt2, step_size=2, gamma=0.1)
sched2.load_state_dict(sd)
opt2.param_groups[0]['lr'] = opt.param_groups[0]['lr']
for _ in range(3):
    opt2.step()
    sched2.step()
print(sched2.get_last_lr(), sched2.last_epoch)
print(opt.param_groups[0]['initial_lr'])

# verbose printing
opt = make_opt()
sched = S.ExponentialLR(opt, gamma=0.5, verbose=True)
opt.step()
sched.step()

# errors torch raises
for bad in [lambda: S.StepLR(object(), 2), lambda: S.LinearLR(make_opt(), start_factor=2.0),
            lambda: S.ReduceLROnPlateau(make_opt(), factor=1.5),
            lambda: S.OneCycleLR(make_opt(), max_lr=1.0),
            lambda: S.StepLR(make_opt(), 2, last_epoch=3)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

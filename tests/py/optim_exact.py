# Every optimizer, bit for bit: parameters updated with the same seeded
# gradients must hold exactly the floats torch.optim computes (a hash of all
# of them, plus the first and last in full).
import torch

def check(name, make, n=1000, steps=8, sched=None):
    torch.manual_seed(3)
    p = torch.randn(n, requires_grad=True)
    q = torch.randn(2, 3, requires_grad=True)
    opt = make([p, q])
    for i in range(steps):
        p.grad = torch.randn(n)
        q.grad = torch.randn(2, 3)
        opt.step()
    vals = p.tolist() + q.tolist()[0] + q.tolist()[1]
    h = 0
    for v in vals:
        h = (h * 31 + hash(v)) % (1 << 61)
    print(name, h, repr(vals[0]), repr(vals[-1]))

O = torch.optim
check('sgd', lambda ps: O.SGD(ps, lr=0.1))
check('sgd-m', lambda ps: O.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1))
check('sgd-n', lambda ps: O.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01))
check('sgd-max', lambda ps: O.SGD(ps, lr=0.1, momentum=0.9, maximize=True, weight_decay=0.1))
check('adam', lambda ps: O.Adam(ps, lr=0.01))
check('adam-wd', lambda ps: O.Adam(ps, lr=0.01, weight_decay=0.1, amsgrad=True))
check('adam-max', lambda ps: O.Adam(ps, lr=0.01, maximize=True, betas=(0.8, 0.99)))
check('adamw', lambda ps: O.AdamW(ps, lr=0.01))
check('adamw-ams', lambda ps: O.AdamW(ps, lr=0.01, amsgrad=True, weight_decay=0.1))
check('rms', lambda ps: O.RMSprop(ps, lr=0.01))
check('rms-all', lambda ps: O.RMSprop(ps, lr=0.01, momentum=0.9, centered=True, weight_decay=0.1))
check('rms-c', lambda ps: O.RMSprop(ps, lr=0.01, centered=True, alpha=0.9))
check('rms-m', lambda ps: O.RMSprop(ps, lr=0.01, momentum=0.5, maximize=True))
check('adagrad', lambda ps: O.Adagrad(ps, lr=0.1))
check('adagrad-all', lambda ps: O.Adagrad(ps, lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5))

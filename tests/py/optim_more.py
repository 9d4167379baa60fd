# The optimizers beyond SGD/Adam/RMSprop/Adagrad, bit for bit against
# torch.optim: parameters updated with the same seeded gradients hold
# exactly the same floats (a hash of all of them, plus the first and last in
# full); then each one's state_dict round-trips into a fresh optimizer that
# continues identically.
import torch

O = torch.optim


def digest(vals):
    h = 0
    for v in vals:
        h = (h * 31 + hash(v)) % (1 << 61)
    return h


def run(make, n=1000, steps=12, resume_at=None):
    torch.manual_seed(3)
    p = torch.randn(n, requires_grad=True)
    q = torch.randn(2, 3, requires_grad=True)
    opt = make([p, q])
    for i in range(steps):
        if i == resume_at:
            saved = opt.state_dict()
            opt = make([p, q])
            opt.load_state_dict(saved)
        p.grad = torch.randn(n)
        q.grad = torch.randn(2, 3)
        opt.step()
    return p.tolist() + q.tolist()[0] + q.tolist()[1], opt


def check(name, make):
    vals, opt = run(make)
    again, _ = run(make, resume_at=5)
    print(name, digest(vals), repr(vals[0]), repr(vals[-1]), 'resume', vals == again)


check('adadelta', lambda ps: O.Adadelta(ps))
check('adadelta-all', lambda ps: O.Adadelta(ps, lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1,
                                            maximize=True))
check('adamax', lambda ps: O.Adamax(ps))
check('adamax-all', lambda ps: O.Adamax(ps, lr=0.01, betas=(0.8, 0.9), weight_decay=0.1,
                                        maximize=True))
check('nadam', lambda ps: O.NAdam(ps))
check('nadam-all', lambda ps: O.NAdam(ps, lr=0.01, betas=(0.8, 0.99), weight_decay=0.1,
                                      momentum_decay=0.01))
check('radam', lambda ps: O.RAdam(ps))
check('radam-all', lambda ps: O.RAdam(ps, lr=0.01, betas=(0.5, 0.9), weight_decay=0.1))
check('asgd', lambda ps: O.ASGD(ps))
check('asgd-all', lambda ps: O.ASGD(ps, lr=0.05, lambd=0.01, alpha=0.5, t0=4,
                                    weight_decay=0.1, maximize=True))
check('rprop', lambda ps: O.Rprop(ps))
check('rprop-all', lambda ps: O.Rprop(ps, lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2),
                                      maximize=True))

# The state_dict's layout: state keyed by parameter index, param_groups with
# the options and the parameters' indices.
for make in [lambda ps: O.Adadelta(ps), lambda ps: O.Adamax(ps), lambda ps: O.NAdam(ps),
             lambda ps: O.RAdam(ps), lambda ps: O.ASGD(ps), lambda ps: O.Rprop(ps)]:
    _, opt = run(make, n=4, steps=2)
    sd = opt.state_dict()
    print(type(opt).__name__, sorted(sd), sorted(sd['state']), sorted(sd['state'][0]),
          sd['param_groups'])
    for k, v in sorted(sd['state'][1].items()):
        print('  ', k, v.dtype if torch.is_tensor(v) else type(v).__name__,
              v.tolist() if torch.is_tensor(v) and v.dim() == 0 else '')
    print(opt)

# Options are checked as torch checks them.
for bad in [lambda: O.Adadelta([torch.zeros(1)], rho=1.5),
            lambda: O.Adamax([torch.zeros(1)], betas=(1.0, 0.9)),
            lambda: O.NAdam([torch.zeros(1)], momentum_decay=-1),
            lambda: O.RAdam([torch.zeros(1)], eps=-1),
            lambda: O.Rprop([torch.zeros(1)], etas=(1.5, 1.2)),
            lambda: O.ASGD([torch.zeros(1)], lr=-1)]:
    try:
        bad()
    except ValueError as e:
        print('ValueError:', e)

# A closure is evaluated with autograd on and its loss returned.
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = O.NAdam([w], lr=0.1)


def closure():
    opt.zero_grad()
    loss = (w * w).sum()
    loss.backward()
    return loss


for _ in range(3):
    print('closure loss', opt.step(closure).item())
print(isinstance(opt, O.Optimizer), w.tolist())

# Optimizer objects: param_groups with defaults filled, add_param_group,
# repr, state as torch names it, zero_grad, state_dict and
# load_state_dict (a resumed run continues exactly), and torch's errors.
import copy
import torch

torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)
b = torch.randn(2, requires_grad=True)
extra = torch.randn(4, requires_grad=True)

opt = torch.optim.SGD([{'params': [w]}, {'params': b, 'lr': 0.5, 'momentum': 0.0}],
                      lr=0.1, momentum=0.9, nesterov=True)
print(opt)
print([sorted(g.keys()) for g in opt.param_groups])
print(opt.param_groups[1]['params'][0] is b)
opt.add_param_group({'params': [extra], 'weight_decay': 0.1})
print(len(opt.param_groups), opt.param_groups[2]['weight_decay'], opt.param_groups[2]['lr'])
print(opt)
print(dict(opt.state))

for p in (w, b, extra):
    p.grad = torch.ones_like(p)
opt.step()
print(len(opt.state), sorted(opt.state[w].keys()), opt.state[b])
print(opt.state[w]['momentum_buffer'])
print(w)

opt.zero_grad()
print(w.grad)
opt.zero_grad(set_to_none=True)
print(w.grad)

sd = opt.state_dict()
print(sorted(sd.keys()))
print(sd['param_groups'])
print(sorted(sd['state'].keys()), sd['state'][0]['momentum_buffer'])
print(sd['state'][1])

# Adam: step is a float tensor, state appears after the first step only
torch.manual_seed(1)
p1 = torch.randn(4, requires_grad=True)
p2 = torch.randn(2, 2, requires_grad=True)
adam = torch.optim.Adam([p1, p2], lr=0.01, amsgrad=True)
print(len(adam.state))
p1.grad = torch.randn(4)
adam.step()
print(len(adam.state), list(adam.state[p1].keys()))
print(adam.state[p1]['step'], adam.state[p1]['exp_avg'])
p1.grad = torch.randn(4)
p2.grad = torch.randn(2, 2)
adam.step()
print(adam.state[p1]['step'], adam.state[p2]['step'])
sd = adam.state_dict()
print(sd['param_groups'])
print(sd['state'][1]['max_exp_avg_sq'])

# resuming: a copy of the parameters and a loaded state give the same steps
q1 = p1.detach().clone().requires_grad_(True)
q2 = p2.detach().clone().requires_grad_(True)
adam2 = torch.optim.Adam([q1, q2], lr=0.5)
adam2.load_state_dict(sd)
print(adam2.param_groups[0]['lr'], adam2.param_groups[0]['params'][0] is q1)
print(adam2.state[q1]['exp_avg'] is sd['state'][0]['exp_avg'])
for i in range(3):
    g1, g2 = torch.randn(4), torch.randn(2, 2)
    p1.grad, p2.grad = g1, g2
    q1.grad, q2.grad = g1.clone(), g2.clone()
    adam.step()
    adam2.step()
print(p1.tolist() == q1.tolist(), p2.tolist() == q2.tolist())
print(q1)
print(adam2.state[q2]['step'])

# deepcopy of a state_dict, AdamW, RMSprop and Adagrad state names
for make in (lambda ps: torch.optim.AdamW(ps), lambda ps: torch.optim.RMSprop(ps, momentum=0.1, centered=True),
             lambda ps: torch.optim.Adagrad(ps, initial_accumulator_value=0.2)):
    torch.manual_seed(2)
    p = torch.randn(3, requires_grad=True)
    o = make([p])
    p.grad = torch.randn(3)
    o.step()
    o.step()
    sd = copy.deepcopy(o.state_dict())
    print(type(o).__name__, {k: v for k, v in sd['state'][0].items()})

# closures and the returned loss
torch.manual_seed(3)
x = torch.randn(5, requires_grad=True)
sgd = torch.optim.SGD([x], lr=0.1)


def closure():
    sgd.zero_grad()
    loss = (x * x).sum()
    loss.backward()
    return loss


for i in range(3):
    print(f"{sgd.step(closure).item():.4f}")

# errors
for bad in [lambda: torch.optim.SGD([x]), lambda: torch.optim.SGD([], lr=0.1),
            lambda: torch.optim.SGD(x, lr=0.1), lambda: torch.optim.SGD([x], lr=-1),
            lambda: torch.optim.Adam([x], betas=(1.0, 0.9)),
            lambda: torch.optim.SGD([x], lr=0.1, nesterov=True),
            lambda: torch.optim.SGD([x, 3], lr=0.1),
            lambda: torch.optim.SGD([x * 2], lr=0.1),
            lambda: torch.optim.RMSprop([x], alpha=-1),
            lambda: torch.optim.Adagrad([x], lr_decay=-1),
            lambda: sgd.add_param_group({'params': [x]}),
            lambda: adam2.load_state_dict({'state': {}, 'param_groups': []})]:
    try:
        bad()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)

# Adam/AdamW after the first step take one C call per group when every
# parameter with a gradient has its state; anything unusual takes the Python
# loop, with the same values and the same errors: a parameter whose state is
# made later (a group added, a gradient that appears), grads that are None,
# betas as a list, lr as a tensor, amsgrad, a state dict loaded back, a state
# missing a key.
torch.manual_seed(5)
w1 = torch.randn(3, 2, requires_grad=True); w2 = torch.randn(4, requires_grad=True)
w3 = torch.randn(2, requires_grad=True)
for cls, kw in [(torch.optim.Adam, {}), (torch.optim.AdamW, {'amsgrad': True}),
                (torch.optim.Adam, {'betas': [0.8, 0.95], 'maximize': True})]:
    a = torch.tensor([w1.detach().clone(), ][0], requires_grad=True)
    b = w2.detach().clone().requires_grad_(); c = w3.detach().clone().requires_grad_()
    opt = cls([a, b], lr=0.01, **kw)
    for i in range(6):
        opt.zero_grad(set_to_none=True)
        loss = (a.sum(0) ** 2).sum() + (b ** 3).sum() * (1 if i != 2 else 0)
        if i >= 3:
            loss = loss + (c * 2).sum()
        loss.backward()
        if i == 2:
            b.grad = None
        if i == 3:
            opt.add_param_group({'params': [c], 'lr': torch.tensor(0.02)})
        opt.step()
        print(cls.__name__, i, [round(v, 4) for v in a.flatten().tolist() + b.tolist() + c.tolist()],
              [round(float(s['step']), 1) for s in opt.state.values()])
    sd = opt.state_dict()
    opt2 = cls([a, b], lr=0.01, **kw)
    opt2.add_param_group({'params': [c], 'lr': 0.02})
    opt2.load_state_dict(sd)
    (a.sum() + b.sum() + c.sum()).backward()
    opt2.step()
    print("loaded", [round(v, 4) for v in a.flatten().tolist() + b.tolist() + c.tolist()])
    del opt2.state[b]['exp_avg']
    try:
        opt2.step()
        print("no error")
    except KeyError as e:
        print("KeyError", e)

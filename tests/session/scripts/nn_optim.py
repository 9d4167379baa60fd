# Optimizers: reprs as torch 1.13 prints them, lr and param_groups, state, clip_grad_norm_, errors.
manual_seed(0)  # expect: <torch._C.Generator at ...
model = Linear(2, 1)
SGD(model.parameters(), lr=0.1, momentum=0.9)
# expect: SGD (
# expect: Parameter Group 0
# expect:     dampening: 0
# expect:     differentiable: False
# expect:     foreach: None
# expect:     lr: 0.1
# expect:     maximize: False
# expect:     momentum: 0.9
# expect:     nesterov: False
# expect:     weight_decay: 0
# expect: )
Adam(model.parameters())
# expect: Adam (
# expect: Parameter Group 0
# expect:     amsgrad: False
# expect:     betas: (0.9, 0.999)
# expect:     capturable: False
# expect:     differentiable: False
# expect:     eps: 1e-08
# expect:     foreach: None
# expect:     fused: False
# expect:     lr: 0.001
# expect:     maximize: False
# expect:     weight_decay: 0
# expect: )
AdamW(model.parameters(), lr=3e-3)
# expect: AdamW (
# expect: Parameter Group 0
# expect:     amsgrad: False
# expect:     betas: (0.9, 0.999)
# expect:     capturable: False
# expect:     eps: 1e-08
# expect:     foreach: None
# expect:     lr: 0.003
# expect:     maximize: False
# expect:     weight_decay: 0.01
# expect: )
# One SGD step by hand: w - lr * grad.
w = tensor([[1.0, 2.0]], requires_grad=True)
opt = SGD([w], lr=0.5)
(w * tensor([[3.0, 4.0]])).sum().backward()
opt.step()
print(w)  # expect: tensor([[-0.5000,  0.0000]], requires_grad=True)
opt.zero_grad()
print(w.grad)  # expect: tensor([[0., 0.]])
# lr lives in the parameter groups: torch's idiom changes it there.
print(opt.param_groups[0]['lr'], opt.defaults['lr'])  # expect: 0.5 0.5
for g in opt.param_groups:
    g['lr'] = 0.125
print(sorted(opt.param_groups[0].keys())[:3])  # expect: ['dampening', 'differentiable', 'foreach']
(w * tensor([[1.0, 1.0]])).sum().backward()
opt.step()
print(w)  # expect: tensor([[-0.6250, -0.1250]], requires_grad=True)
# Optimizer state, per parameter: empty before the first update.
opt = Adam([w], lr=0.1)
print(len(opt.state), opt.state[w])  # expect: 0 {}
w.grad = None
(w * tensor([[2.0, -2.0]])).sum().backward()
opt.step()
print(list(opt.state[w]), opt.state[w]['exp_avg'], opt.state[w]['step'])  # expect: ['step', 'exp_avg', 'exp_avg_sq'] tensor([[ 0.2000, -0.2000]]) tensor(1.)
print(w)  # expect: tensor([[-0.7250, -0.0250]], requires_grad=True)
sd = opt.state_dict()
print(list(sd['state']), list(sd['state'][0]), sd['param_groups'][0]['params'])  # expect: [0] ['step', 'exp_avg', 'exp_avg_sq'] [0]
# clip_grad_norm_: returns the total norm, scales when above max_norm.
p = tensor([3.0, 4.0], requires_grad=True)
(p * tensor([3.0, 4.0])).sum().backward()
print(nn.utils.clip_grad_norm_([p], 1.0))  # expect: tensor(5.)
print(p.grad)  # expect: tensor([0.6000, 0.8000])
print(nn.utils.clip_grad_norm_(p, 10.0))  # expect: tensor(1.0000)
# A non-finite norm: an error when asked for, else torch 1.13 scales by it.
q = tensor([1.0, 2.0], requires_grad=True)
(q * tensor([float('nan'), 1.0])).sum().backward()
nn.utils.clip_grad_norm_([q], 1.0, error_if_nonfinite=True)  # expect error: RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped.
print(q.grad)  # expect: tensor([nan, 1.])
print(nn.utils.clip_grad_norm_([q], 1.0), q.grad)  # expect: tensor(nan) tensor([nan, nan])
# Errors
SGD([], lr=0.1)  # expect error: ValueError: optimizer got an empty parameter list
Adam(model, lr=0.1)  # expect error: TypeError: 'Linear' object is not iterable
Adam(w)  # expect error: TypeError: params argument given to the optimizer should be an iterable of Tensors or dicts, but got torch.FloatTensor
SGD([w, 3], lr=0.1)  # expect error: TypeError: optimizer can only optimize Tensors, but one of the params is int
SGD([{'params': [w]}, {'params': [w]}], lr=0.1)  # expect error: ValueError: some parameters appear in more than one parameter group
SGD([{'lr': 0.1}], lr=0.1)  # expect error: KeyError: 'params'
SGD([w], lr=-1.0)  # expect error: ValueError: Invalid learning rate: -1.0
Adam([w], betas=(0.9, 1.0))  # expect error: ValueError: Invalid beta parameter at index 1: 1.0
Adam([w], betas=0.9)  # expect error: TypeError: 'float' object is not subscriptable
# amsgrad turned on after the first step finds no max_exp_avg_sq, as in torch
opt.param_groups[0]['amsgrad'] = True
opt.step()  # expect error: KeyError: 'max_exp_avg_sq'

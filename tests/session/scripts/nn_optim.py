# Optimizers: reprs as torch 1.13 prints them, lr and param_groups, state, clip_grad_norm_, errors.
manual_seed(0)  # expect: <torch._C.Generator object at ...
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
print(w.grad)  # expect: None
# lr: the attribute and the param_groups idiom both write through.
print(opt.lr, opt.param_groups[0]['lr'])  # expect: 0.5 0.5
opt.lr = 0.25
print(opt.param_groups[0]['lr'])  # expect: 0.25
for g in opt.param_groups:
    g['lr'] = 0.125
print(opt.lr, sorted(opt.param_groups[0].keys())[:3])  # expect: 0.125 ['dampening', 'differentiable', 'foreach']
(w * tensor([[1.0, 1.0]])).sum().backward()
opt.step()
print(w)  # expect: tensor([[-0.6250, -0.1250]], requires_grad=True)
# Optimizer state for the debugger: None before the first update.
opt = Adam([w], lr=0.1)
print(opt.state(0, 'exp_avg'), opt.state_names())  # expect: None ['exp_avg', 'exp_avg_sq']
w.grad = None
(w * tensor([[2.0, -2.0]])).sum().backward()
opt.step()
print(opt.state(0, 'exp_avg'), opt.state(0, 'step'))  # expect: tensor([[ 0.2000, -0.2000]]) tensor(1.)
print(w)  # expect: tensor([[-0.7250, -0.0250]], requires_grad=True)
# clip_grad_norm_: returns the total norm, scales when above max_norm.
p = tensor([3.0, 4.0], requires_grad=True)
(p * tensor([3.0, 4.0])).sum().backward()
print(clip_grad_norm_([p], 1.0))  # expect: tensor(5.)
print(p.grad)  # expect: tensor([0.6000, 0.8000])
print(clip_grad_norm_(p, 10.0))  # expect: tensor(1.0000)
q = tensor([1.0, 2.0], requires_grad=True)
(q * tensor([float('nan'), 1.0])).sum().backward()
clip_grad_norm_([q], 1.0)  # expect error: ValueError
print(q.grad)  # expect: tensor([nan, 1.])
# Errors
SGD([], lr=0.1)  # expect error: ValueError: optimizer got an empty parameter list
Adam(model, lr=0.1)  # expect error: TypeError: Adam() expects the parameters, not the module: pass model.parameters()
Adam(w)  # expect error: TypeError: params argument given to the optimizer should be an iterable of Tensors
SGD([w, 3], lr=0.1)  # expect error: TypeError: SGD() expects tensors; item 1 is int
SGD([{'params': [w]}, {'params': [w]}], lr=0.1)  # expect error: ValueError: some parameters appear in more than one parameter group
SGD([{'lr': 0.1}], lr=0.1)  # expect error: KeyError: 'params'
SGD([w], lr=-1.0)  # expect error: ValueError
Adam([w], betas=0.9)  # expect error: TypeError: Adam betas must be a pair (beta1, beta2)
opt.lr = -0.1  # expect error: ValueError
opt.param_groups[0]['amsgrad'] = True
opt.step()  # expect error: ValueError: Adam: parameter group 0 cannot change amsgrad after the optimizer is built
opt.param_groups[0]['amsgrad'] = False
opt.betas = (0.8, 0.9)  # expect error: AttributeError: cannot set 'betas' of an optimizer
opt.state(5, 'exp_avg')  # expect error: IndexError: parameter index 5 is out of range (1 parameters)
opt.state(0, 'velocity')  # expect error: ValueError

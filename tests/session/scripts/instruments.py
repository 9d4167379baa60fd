# Training instruments: gradcheck catches a wrong derivative and names the tensor and index,
# stats/track against hand-computed ratios, activations' saturation and dead units,
# profile counts, live_plot, module dtype conversion. (Against PyTorch: tests/diff/instruments.nn.)
manual_seed(0)  # expect: <torch._C.Generator at ...
x = randn(2, 3, requires_grad=True)
r = gradcheck(lambda a: _test_wrong_grad(a).sum(), x)
print(bool(r), r.passed)  # expect: False False
print(r.rows[0].name, r.rows[0].shape, r.rows[0].worst_index, r.rows[0].passed)  # expect: x (2, 3) (0, 2) False
print(f"{r.rows[0].analytic - r.rows[0].numeric:.6f}")  # expect: 1.000000
print(r.rows[0].checked, r.calls)  # expect: 6 13
ok = gradcheck(lambda a: (a * a).sum(), x)
print(bool(ok), ok.rows[0].max_abs_err < 1e-8)  # expect: True True
s = gradcheck(lambda a: _test_wrong_grad(a), x, samples=3, seed=1)
print(s.rows[0].checked)  # expect: 3
print(gradcheck(lambda a: tanh(a) * 2, (x,)))  # expect: True
gradcheck(lambda a: _test_wrong_grad(a), (x,))  # expect error: RuntimeError: Jacobian mismatch: gradcheck: FAILED (1 of 1 tensors)
gradcheck(lambda a: a.sum(), randn(3))  # expect error: ValueError: gradcheck: nothing to check
gradcheck(lambda a: 3, x)  # expect error: TypeError: the function returned int; it must return a Tensor
gradcheck(lambda a: undefined_thing, x)  # expect error: NameError
gradcheck(lambda a: a.sum(), x, eps=0)  # expect error: ValueError: gradcheck: eps must be > 0
# A module: every parameter, named by its path; the module is float32 again afterwards.
mlp = Sequential(Linear(3, 4), Tanh(), Linear(4, 2))
g = gradcheck(mlp, randn(5, 3))
print(bool(g), [row.name for row in g.rows])  # expect: True ['mlp.0.weight', 'mlp.0.bias', 'mlp.2.weight', 'mlp.2.bias']
print(mlp[0].weight.dtype, mlp[0].weight.grad)  # expect: torch.float32 None
# stats and track: one SGD step on w = [1, 2, 3] with gradient [1, 2, 4].
model = Linear(3, 1, bias=False)
with no_grad():
    model.weight.copy_(tensor([[1.0, 2.0, 3.0]]))
opt = SGD(model.parameters(), lr=0.1)
t = track(model, opt)
model(tensor([[1.0, 2.0, 4.0]])).sum().backward()
st = stats(model, opt)
row = st.rows[0]
print(row.name, row.shape, row.data_mean, row.data_std)  # expect: model.weight (1, 3) 2.0 1.0
print(f"{row.grad_std:.4f} {row.grad_data:.4f}", row.update_data)  # expect: 1.5275 1.5275 None
opt.step()
t.loss(1.5)
print(f"{stats(model, opt).rows[0].update_data:.4f}")  # expect: 0.1796
print(f"{stats(model).rows[0].update_data:.4f}")  # expect: 0.1796
print(t.steps, t.losses, f"{t.ratios['model.weight'][0]:.4f}")  # expect: 1 [1.5] -0.7457
t.loss(tensor(0.5))
print(t.losses)  # expect: [1.5, 0.5]
t
# expect: track: 1 step, 2 losses; last log10 update:data:
# expect:   model.weight               -0.7457
t.plot()  # a display (the runner checks printed text only): it must not fail
track(model, opt).plot()  # expect error: ValueError: track: nothing to plot yet: the optimizer has not stepped
print(stats(Linear(2, 2)).rows[0].grad_std)  # expect: None
stats(3)  # expect error: TypeError: stats() needs a Module, not int
# activations: tanh(10 x) saturates for |x| = 1, not for |x| = 0.01; a ReLU unit that is never positive is dead.
sat = Sequential(Linear(1, 1), Tanh())
with no_grad():
    sat[0].weight.fill_(10.0)
    sat[0].bias.fill_(0.0)
a = activations(sat, tensor([[-1.0], [-0.01], [0.01], [1.0]]))
print([(r.layer, r.kind, r.saturated) for r in a.rows])  # expect: [('sat.0', 'Linear', None), ('sat.1', 'Tanh', 0.5)]
relu = Sequential(Linear(1, 2), ReLU())
with no_grad():
    relu[0].weight.copy_(tensor([[1.0], [-1.0]]))
    relu[0].bias.copy_(tensor([0.0, -10.0]))
a = activations(relu, tensor([[1.0], [2.0], [3.0]]))
print(a.rows[1].kind, a.rows[1].dead, a.rows[1].mean)  # expect: ReLU 0.5 1.0
a = activations(relu, tensor([[1.0], [2.0], [3.0]]), tensor([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]).view(3, 2), loss_fn=mse_loss)
print(a.rows[1].grad_mean is None, relu[0].weight.grad)  # expect: False None
activations(relu, tensor([[1.0]]), tensor([[0.0, 0.0]]))  # expect error: TypeError: activations(model, x, y) needs loss_fn= too
# dependencies: a clean model, and one that normalises over the batch.
net = Sequential(Linear(3, 4), ReLU(), Linear(4, 2))
xb = randn(5, 3)
print(dependencies(net, xb, i=2).rows, bool(dependencies(net, xb)))  # expect: [] True
leak = dependencies(lambda b: net(b - b.mean(0)), xb, i=2)
print(leak.rows, leak.leaks, bool(leak))  # expect: [0, 1, 3, 4] True False
dependencies(net, xb, i=7)  # expect error: IndexError: dependencies: example 7 is out of range for a batch of 5
# profile: Linear(3, 4) on [5, 3] is 2*5*4*3 + 5*4 = 140 FLOPs forward; it reads 60 + 48 + 16 bytes
# and writes 80; backward (x needs no gradient) computes dW (120) and db (20).
lin = Linear(3, 4)
xp = randn(5, 3)
p = profile(lambda: lin(xp).sum().backward())
fwd = [r for r in p.ops if r.key == 'linear' and r.phase == 'forward'][0]
bwd = [r for r in p.ops if r.key == 'linear' and r.phase == 'backward'][0]
print(fwd.calls, fwd.flops, fwd.bytes_read, fwd.bytes_written, bwd.flops)  # expect: 1 140.0 124.0 80.0 140.0
print(sorted([r.key for r in p.modules if r.phase == 'forward']))  # expect: ['', 'lin']
print(p.peak_gflops > 0)  # expect: True
# live_plot: values by position or by name; at most ten redraws a second.
c = live_plot("train", "val", logy=True)
for i in range(50):
    c.add(1.0 / (i + 1), val=None if i % 10 else 2.0)
print(len(c.train), c.val[:2], 1 <= c.draws < 50)  # expect: 50 [2.0, nan] True
c.add(3)
c.add(nope=1)  # expect error: KeyError: "add(): no series 'nope' (the series are given to live_plot(...))"
live_plot(3)  # expect error: TypeError: live_plot(): series names are str, not int
# Module.double(), float(), to(dtype).
m = Linear(2, 2)
o2 = SGD(m.parameters(), lr=0.1)
print(m.double() is m, m.weight.dtype)  # expect: True torch.float64
print(m.to(float32).weight.dtype)  # expect: torch.float32
# As in PyTorch, the parameters keep their identity: an optimizer made
# before the conversion steps them in the new dtype.
_ = m.double()
w_before = m.weight.clone()
m(randn(1, 2, dtype=float64)).sum().backward()
o2.step()
print(m.weight.dtype, (m.weight != w_before).any().item(), o2.param_groups[0]['params'][0] is m.weight)  # expect: torch.float64 True True
m.to(int64)  # expect error: TypeError: nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.int64
# lr_find: an exponential sweep that restores the model; a regression diverges at a large lr.
manual_seed(0)  # expect: <torch._C.Generator at ...
reg = Linear(1, 1)
w_before = reg.weight.clone()
xs = linspace(-1.0, 1.0, 16).reshape(16, 1)
ys = 3 * xs + 1
f = lr_find(reg, mse_loss, (xs, ys), SGD, start=1e-3, end=1e3, steps=61)
print(f"{f.lrs[0]:.3g} {f.lrs[10]:.3g} {f.lrs[20]:.3g}")  # expect: 0.001 0.01 0.1
print(f.diverged_at is not None, f.diverged_at > 1, len(f.lrs) < 61)  # expect: True True True
print((reg.weight == w_before).all().item(), reg.weight.grad)  # expect: True None
print(f.suggestion < f.diverged_at)  # expect: True
lr_find(reg, mse_loss, (xs, ys), SGD, start=1.0, end=0.5)  # expect error: ValueError: lr_find(): needs 0 < start < end
lr_find(reg, mse_loss, (xs, ys), len)  # expect error: TypeError
# Bad input: clear errors, the session goes on.
gradcheck()  # expect error: TypeError: gradcheck() missing 1 required positional argument: 'f'
gradcheck(lambda a: a, randn(2, requires_grad=True), samples=0)  # expect error: ValueError: gradcheck: samples must be >= 1
gradcheck(lambda a: a, randn(2, requires_grad=True), bogus=1)  # expect error: TypeError: gradcheck() got an unexpected keyword argument 'bogus'
gradcheck(Linear(2, 2), randn(3, 3))  # expect error: RuntimeError: mat1 and mat2 shapes cannot be multiplied (3x3 and 2x2)
gradcheck(lambda a: a.long(), randn(2, requires_grad=True))  # expect error: TypeError: gradcheck: the function returned a int64 tensor
gradcheck(lambda a: a.detach(), randn(2, requires_grad=True))  # expect error: ValueError: gradcheck: the output does not depend on any checked tensor
print(gradcheck(lambda a: (a, 3, a * 2), randn(2, requires_grad=True)).passed)  # expect: True
activations(Linear(2, 2), 5)  # expect error: TypeError: activations(model, x) needs a Module and a Tensor, not Linear and int
dependencies(Linear(2, 2), randn(0, 2))  # expect error: RuntimeError: dependencies: the batch needs a first (batch) dim; got a 0-dim or empty tensor
dependencies(lambda b: b.sum(), randn(3, 2))  # expect error: RuntimeError: dependencies: the output's first dim must be the batch (3); the output has 0 dims
dependencies(Linear(2, 2), tensor([True, False]))  # expect error: TypeError: dependencies: the batch must be float (features) or int64 (token ids), not bool
# profile() without a function is the block form.
with profile() as pb:
    lin(xp)
print([(r.key, r.phase, r.calls) for r in pb.ops])  # expect: [('linear', 'forward', 1)]
profile(1)  # expect error: TypeError
live_plot().add(1, 2)  # expect error: TypeError: add(): 2 values for 1 series
track(1, 2)  # expect error: TypeError: track(model, opt) needs a Module and an optimizer, not int and int
lr_find(Linear(2, 1), mse_loss, [], SGD)  # expect error: ValueError: lr_find(): the data gave no batch
%stats  # expect error: UsageError: %stats needs a model: %stats model[, opt]
%profile  # expect error: UsageError: %profile needs a statement: %profile STATEMENT
print(len(gradcheck(lambda a: a * 3, randn(4, requires_grad=True)).rows))  # expect: 1
# %stats and %profile on a statement that succeeds: the magic hands its
# parsed argument to the evaluator, which releases it (the tables are
# displays, which this runner does not print; the ASan run catches a second
# release).
pm = Sequential(Linear(2, 3))
%stats pm  # nndb's own magics: a comment is not part of the argument
%stats pm, SGD(pm.parameters(), lr=0.1)
%profile py = pm(ones(4, 2))  # the statement may end with a comment
print(py.shape)  # expect: torch.Size([4, 3])
%memory  # expect error: UsageError: %memory needs a statement: %memory loss.backward()
%memory big = zeros(1000, 1000)  # the statement runs in the cell's namespace
print(big.shape)  # expect: torch.Size([1000, 1000])
memory_report(1, None, 1)  # expect error: TypeError: memory_report() needs a Module, not int
memory_report(pm)  # expect error: TypeError: memory_report(model, optimizer, batch): give a batch to step on, e.g. (x, y)
print(memory_report(pm, SGD(pm.parameters(), lr=0.1), ones(4, 2)).parameter_bytes)  # expect: 36
# A torch.autograd.Function in a profiled step: its node runs Python and has
# no FLOP model, so the profile counts its bytes (it used to abort nndb).
class _Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return 2 * a * g
xs = ones(3, requires_grad=True)
pc = profile(lambda: _Square.apply(xs).sum().backward())
print(sorted((r.phase, r.calls) for r in pc.ops if r.key == "custom"), xs.grad)  # expect: [('backward', 1), ('forward', 1)] tensor([2., 2., 2.])

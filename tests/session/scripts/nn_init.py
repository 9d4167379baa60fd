# torch.nn.init (the prelude's init) functions: in place, returning the tensor;
# calculate_gain as torch.
manual_seed(0)  # expect: <torch._C.Generator at ...
print(init.calculate_gain('linear'), init.calculate_gain('sigmoid'), init.calculate_gain('tanh'))  # expect: 1 1 1.6666666666666667
print(init.calculate_gain('relu'), init.calculate_gain('leaky_relu'), init.calculate_gain('leaky_relu', 0.2))
# expect: 1.4142135623730951 1.4141428569978354 1.3867504905630728
print(init.calculate_gain('selu'))  # expect: 0.75
w = zeros(200, 300)
print(init.xavier_uniform_(w) is w)  # expect: True
bound = (6 / 500) ** 0.5
print(w.abs().max().item() <= bound, w.abs().max().item() > 0.95 * bound)  # expect: True True
_ = init.xavier_normal_(w, gain=2.0)
print(abs(w.std().item() - 2.0 * (2 / 500) ** 0.5) < 0.01)  # expect: True
_ = init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')
print(abs(w.std().item() - (2 / 200) ** 0.5) < 0.01)  # expect: True
_ = init.kaiming_uniform_(w, a=0, nonlinearity='relu')
print(w.abs().max().item() <= (6 / 300) ** 0.5)  # expect: True
_ = init.trunc_normal_(w, std=0.02)
print(w.abs().max().item() <= 2.0, abs(w.std().item() - 0.02) < 0.002)  # expect: True True
q = init.orthogonal_(zeros(4, 4))
print(allclose(q @ q.T, eye(4), atol=1e-5))  # expect: True
layer = Linear(3, 3)
_ = init.xavier_uniform_(layer.weight)
print(layer.weight.requires_grad, layer.weight.grad_fn)  # expect: True None
init.xavier_uniform_(zeros(3))  # expect error: ValueError: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions
init.kaiming_normal_(zeros(2, 2), mode='fan_mid')  # expect error: ValueError: Mode fan_mid not supported, please use one of ['fan_in', 'fan_out']
init.calculate_gain('swish')  # expect error: ValueError: Unsupported nonlinearity swish
init.xavier_uniform_([1, 2])  # expect error: AttributeError: 'list' object has no attribute 'dim'

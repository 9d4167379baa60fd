# torch.nn.init functions: in place, returning the tensor; calculate_gain as torch.
manual_seed(0)  # expect: <torch._C.Generator object at ...
print(calculate_gain('linear'), calculate_gain('sigmoid'), calculate_gain('tanh'))  # expect: 1 1 1.6666666666666667
print(calculate_gain('relu'), calculate_gain('leaky_relu'), calculate_gain('leaky_relu', 0.2))
# expect: 1.4142135623730951 1.4141428569978354 1.3867504905630728
print(calculate_gain('selu'))  # expect: 0.75
w = zeros(200, 300)
print(xavier_uniform_(w) is w)  # expect: True
bound = (6 / 500) ** 0.5
print(w.abs().max().item() <= bound, w.abs().max().item() > 0.95 * bound)  # expect: True True
_ = xavier_normal_(w, gain=2.0)
print(abs(w.std().item() - 2.0 * (2 / 500) ** 0.5) < 0.01)  # expect: True
_ = kaiming_normal_(w, mode='fan_out', nonlinearity='relu')
print(abs(w.std().item() - (2 / 200) ** 0.5) < 0.01)  # expect: True
_ = kaiming_uniform_(w, a=0, nonlinearity='relu')
print(w.abs().max().item() <= (6 / 300) ** 0.5)  # expect: True
_ = trunc_normal_(w, std=0.02)
print(w.abs().max().item() <= 2.0, abs(w.std().item() - 0.02) < 0.002)  # expect: True True
q = orthogonal_(zeros(4, 4))
print(allclose(q @ q.T, eye(4), atol=1e-5))  # expect: True
layer = Linear(3, 3)
_ = xavier_uniform_(layer.weight)
print(layer.weight.requires_grad, layer.weight.grad_fn)  # expect: True None
xavier_uniform_(zeros(3))  # expect error: ValueError
kaiming_normal_(zeros(2, 2), mode='fan_mid')  # expect error: ValueError: Mode fan_mid not supported, please use one of fan_in, fan_out
calculate_gain('swish')  # expect error: ValueError
xavier_uniform_([1, 2])  # expect error: TypeError: xavier_uniform_() expects a Tensor, not list

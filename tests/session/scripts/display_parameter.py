# A module's parameters print as torch.nn.Parameter does; tensors made from them do not.
lin = Linear(2, 1)
with no_grad():
    lin.weight.fill_(0.5)
    lin.bias.zero_()
print(lin.weight)
# expect: Parameter containing:
# expect: tensor([[0.5000, 0.5000]], requires_grad=True)
print(lin.weight.data, lin.weight.detach(), lin.weight.grad)
# expect: tensor([[0.5000, 0.5000]]) tensor([[0.5000, 0.5000]]) None
print(lin.bias * 1, lin.bias[0])
# expect: tensor([0.], grad_fn=<MulBackward0>) tensor(0., grad_fn=<SelectBackward0>)
print([p for _, p in lin.named_parameters()][1])
# expect: Parameter containing:
# expect: tensor([0.], requires_grad=True)
print(f"{lin.bias}|{str(lin.bias)[:9]}|{repr(lin.bias)[:9]}")
# expect: Parameter containing:
# expect: tensor([0.], requires_grad=True)|Parameter|Parameter

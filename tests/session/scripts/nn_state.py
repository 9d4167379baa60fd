# state_dict / load_state_dict: names, sharing, all-or-nothing loads, strict=False.
manual_seed(0)  # expect: <torch._C.Generator at ...
a = MLP([2, 4, 3])
b = MLP([2, 4, 3])
sd = a.state_dict()
print(list(sd.keys()))  # expect: ['0.weight', '0.bias', '2.weight', '2.bias']
print(sd['0.weight'].requires_grad, sd['0.weight'].shape)  # expect: False torch.Size([4, 2])
b.load_state_dict(sd)  # expect: <All keys matched successfully>
print((b[0].weight == a[0].weight).all().item(), b[0].weight is a[0].weight)  # expect: True False
# The optimizer built before a load keeps updating the same tensors.
w0 = b[0].weight
b.load_state_dict(MLP([2, 4, 3]).state_dict())  # expect: <All keys matched successfully>
print(b[0].weight is w0)  # expect: True
# Errors are RuntimeErrors listing every problem; as in torch, the tensors
# that fit are copied before the error is raised.
before = b[2].bias.clone()
bad = a.state_dict()
bad['2.bias'] = zeros(5)
b.load_state_dict(bad)  # expect error: RuntimeError: Error(s) in loading state_dict for MLP:
# expect traceback: size mismatch for 2.bias: copying a param with shape torch.Size([5]) from checkpoint, the shape in current model is torch.Size([3]).
print((b[2].bias == before).all().item(), (b[0].weight == a[0].weight).all().item())  # expect: True True
del bad['2.bias']
b.load_state_dict(bad)  # expect error: RuntimeError: Error(s) in loading state_dict for MLP:
# expect traceback: Missing key(s) in state_dict: "2.bias".
r = b.load_state_dict(bad, strict=False)
print(r.missing_keys, r.unexpected_keys)  # expect: ['2.bias'] []
r  # expect: _IncompatibleKeys(missing_keys=['2.bias'], unexpected_keys=[])
extra = a.state_dict()
extra['3.weight'] = zeros(1)
b.load_state_dict(extra, strict=False)  # expect: _IncompatibleKeys(missing_keys=[], unexpected_keys=['3.weight'])
b.load_state_dict({'0.weight': 1})  # expect error: RuntimeError: Error(s) in loading state_dict for MLP:
# expect traceback: While copying the parameter named "0.weight", expected torch.Tensor or Tensor-like object from checkpoint but received <class 'int'>
b.load_state_dict([1])  # expect error: TypeError: Expected state_dict to be dict-like, got <class 'list'>.

# state_dict / load_state_dict: names, sharing, all-or-nothing loads, strict=False.
manual_seed(0)  # expect: <torch._C.Generator object at ...
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
# Errors leave the module unchanged.
before = b[2].bias.clone()
bad = a.state_dict()
bad['2.bias'] = zeros(5)
b.load_state_dict(bad)  # expect error: ShapeError: load_state_dict: size mismatch for '2.bias': the state has shape [5], the module [3]; the module is unchanged
print((b[2].bias == before).all().item())  # expect: True
del bad['2.bias']
b.load_state_dict(bad)  # expect error: ValueError: load_state_dict: missing key '2.bias'
r = b.load_state_dict(bad, strict=False)
print(r.missing_keys, r.unexpected_keys)  # expect: ['2.bias'] []
r  # expect: _IncompatibleKeys(missing_keys=['2.bias'], unexpected_keys=[])
extra = a.state_dict()
extra['3.weight'] = zeros(1)
b.load_state_dict(extra, strict=False)  # expect: _IncompatibleKeys(missing_keys=[], unexpected_keys=['3.weight'])
b.load_state_dict({'0.weight': 1})  # expect error: TypeError: state_dict['0.weight'] must be a Tensor, not int
b.load_state_dict([1])  # expect error: TypeError: state_dict must be a dict of name -> Tensor, not list

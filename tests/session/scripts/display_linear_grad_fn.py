# A Linear layer's output shows torch 1.13's grad_fn name for each input rank, with and without bias.
for b in [True, False]:
    l = Linear(2, 2, bias=b)
    print(b, *[l(ones(*shape)).grad_fn.name() for shape in [(2,), (3, 2), (4, 3, 2), (5, 4, 3, 2)]])
# expect: True AddBackward0 AddmmBackward0 ViewBackward0 AddBackward0
# expect: False SqueezeBackward3 MmBackward0 UnsafeViewBackward0 UnsafeViewBackward0
print(Linear(2, 2)(ones(2)).grad_fn)  # expect: <AddBackward0 object at ...
l = Linear(2, 2, bias=False)
with no_grad():
    l.weight.fill_(0.5)
print(l(tensor([1.0, 3.0])))
# expect: tensor([2., 2.], grad_fn=<SqueezeBackward3>)

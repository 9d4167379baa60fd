# An in-place operator on a separate view of a tensor with history would
# change the base's values but not its gradient, so nndb refuses it with a
# way out; x[i] op= y (recorded on the base) and v = v * 2 work.
x = ones(3, requires_grad=True)
h = x * 1
v = h[0]
v *= 2  # expect error: RuntimeError: mul_: this tensor is a view (select) of a tensor with autograd history
v.add_(1)  # expect error: RuntimeError: add_: this tensor is a view (select) of a tensor with autograd history
h[0] *= 2
v = v * 2
h.sum().backward()
print(x.grad)  # expect: tensor([2., 1., 1.])
print(h)  # expect: tensor([2., 1., 1.], grad_fn=<CopySlices>)
# A transpose's node keeps a husk of its input (its backward reads no
# values), and still knows the view shares the input's storage.
m = ones(2, 3, requires_grad=True) * 1
w = m.t()
w.add_(1)  # expect error: RuntimeError: add_: this tensor is a view (permute) of a tensor with autograd history

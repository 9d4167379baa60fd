# An in-place operator on a view of a tensor with history is recorded as
# PyTorch records it: the base takes a CopySlices history whose backward
# sends the view's part of the gradient through the write, and the view
# becomes a view of that history (AsStridedBackward0). x[i] op= y is the
# same write.
x = ones(3, requires_grad=True)
h = x * 1
v = h[0]
v *= 2
v.add_(1)  # expect: tensor(3., grad_fn=<AsStridedBackward0>)
h[1] *= 2
h.sum().backward()
print(x.grad)  # expect: tensor([2., 2., 1.])
print(h)  # expect: tensor([3., 2., 1.], grad_fn=<CopySlices>)
# PyTorch's refusals stay: a view of a leaf that requires grad, an output
# of unbind (one node's several views).
x[0].add_(1)  # expect error: RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.
m = ones(2, 3, requires_grad=True) * 1
a, b = m.unbind(0)
a.add_(1)  # expect error: RuntimeError: Output 0 of UnbindBackward0 is a view and is being modified inplace.
# A transpose's node keeps a husk of its input (its backward reads no
# values); the write through it still reaches m and its history.
w = m.t()
w += 1
print(m.sum())  # expect: tensor(12., grad_fn=<SumBackward0>)
print(m.grad_fn)  # expect: <CopySlices object at ...

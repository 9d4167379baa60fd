# Writing into a leaf that requires grad needs no_grad(), as in torch.
w = zeros(2, requires_grad=True)
w[0] = 1.0
# expect error: RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.

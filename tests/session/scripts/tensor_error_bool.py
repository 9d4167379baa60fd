x = tensor([1.0, 2.0])
if x:
# expect error: RuntimeError: Boolean value of Tensor with more than one value is ambiguous
    print("unreachable")

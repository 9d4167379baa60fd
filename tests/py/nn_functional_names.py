# torch.nn.functional's non-function names (typing aliases, dispatch
# helpers, docstring notes) behave as PyTorch's for plain tensors; the count
# of public names nndb's F has that PyTorch's F has.
import torch
import torch.nn.functional as F

x = torch.ones(2)
print(F.has_torch_function((x,)), F.has_torch_function_unary(x),
      F.has_torch_function_variadic(x, x), F.DType, F.Optional[int])
print(sorted(F.reproducibility_notes), sorted(F.sparse_support_notes), sorted(F.tf32_notes))
f = F.boolean_dispatch("flag", 1, False, lambda a, flag=False: ("true", a),
                       lambda a, flag=False: ("false", a), "mymod", "f")
print(f(1), f(1, True), f(1, flag=True), f.__name__, f.__module__)
F.assert_int_or_pair(3, "k", "{} bad")
F.assert_int_or_pair((3, 4), "k", "{} bad")
try:
    F.assert_int_or_pair((3, 4, 5), "k", "{} must be an int or a pair")
except AssertionError as e:
    print("AssertionError", e)
print(F.BroadcastingList2[int])

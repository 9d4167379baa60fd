# Docstrings of the builtins written in C: every torch function and Tensor
# method below has one whose first line is its signature ("sum(dim=None,
# ...) -> Tensor"), as PyTorch's do, so help(), name? and Jupyter's Shift-Tab
# show what it takes. The lists are the names both PyTorch and nndb document
# (nndb's text is in torch/_torch_docs.py and torch/_tensor_docs.py); a name
# that loses its docstring, or whose docstring loses its signature line,
# fails here.
import doctest

import torch

FUNCTIONS = """
abs absolute acos add addcdiv addcmul all allclose amax amin any arange arccos arcsin arctan
arctan2 argmax argmin argsort argwhere as_tensor asin atan atan2 bernoulli bincount bitwise_and
bitwise_not bitwise_or bitwise_xor bmm broadcast_tensors broadcast_to cat ceil chunk clamp clip
clone concat concatenate cos cosh count_nonzero cumprod cumsum diag diagonal div divide dot
einsum empty empty_like eq equal erf exp expm1 eye fix flatten flip fliplr flipud float_power
floor floor_divide fmod frac from_numpy full full_like gather ge ger get_default_dtype
get_num_threads greater greater_equal gt histc hstack index_select inner is_grad_enabled isclose
isfinite isinf isnan kthvalue le lerp less less_equal linspace log log10 log1p log2 logical_and
logical_not logical_or logical_xor logsumexp lt masked_select matmul max maximum mean median min
minimum mm movedim msort mul multinomial multiply mv nan_to_num narrow ne neg negative nonzero
normal not_equal numel ones ones_like outer permute positive pow prod rand rand_like randint
randn randn_like randperm ravel reciprocal remainder repeat_interleave reshape roll round rsqrt
scatter scatter_add select set_num_threads sgn sigmoid sign sin sinh sort sqrt square squeeze
stack std std_mean sub subtract sum swapaxes swapdims t tan tanh tensor tile topk trace
transpose tril triu true_divide trunc unbind unflatten unique unsqueeze var var_mean vstack
where zeros zeros_like
""".split()

METHODS = """
abs abs_ absolute acos acos_ add add_ addcdiv addcdiv_ addcmul addcmul_ all allclose amax amin
any arccos arcsin arctan arctan2 argmax argmin argsort argwhere asin asin_ atan atan2 atan2_
atan_ bernoulli bernoulli_ bfloat16 bincount bitwise_and bitwise_and_ bitwise_not bitwise_not_
bitwise_or bitwise_or_ bitwise_xor bitwise_xor_ bmm bool broadcast_to byte ceil ceil_ char chunk
clamp clamp_ clip clip_ clone contiguous copy_ cos cos_ cosh cosh_ count_nonzero cumprod
cumprod_ cumsum cumsum_ data_ptr diag diagonal dim div div_ divide divide_ dot double
element_size eq eq_ equal erf erf_ exp exp_ expand expand_as expm1 expm1_ exponential_ fill_ fix
flatten flip fliplr flipud float float_power float_power_ floor floor_ floor_divide
floor_divide_ fmod fmod_ frac frac_ gather ge ge_ ger greater greater_equal gt gt_ half histc
index_select inner int is_contiguous is_floating_point isclose isfinite isinf isnan item
kthvalue le le_ lerp lerp_ less_equal log log10 log10_ log1p log1p_ log2 log2_ log_ logical_and
logical_and_ logical_not logical_not_ logical_or logical_or_ logical_xor logical_xor_ logsumexp
long lt lt_ masked_fill masked_fill_ masked_select matmul max maximum mean median min minimum mm
movedim msort mul mul_ multinomial multiply multiply_ mv nan_to_num nan_to_num_ narrow
ndimension ne ne_ neg neg_ negative nelement new_empty new_full new_ones new_tensor new_zeros
nonzero normal_ not_equal numel numpy outer permute positive pow pow_ prod random_ ravel
reciprocal reciprocal_ remainder remainder_ repeat repeat_interleave requires_grad_ reshape
reshape_as retain_grad roll round round_ rsqrt rsqrt_ scatter scatter_ scatter_add scatter_add_
select sgn short sigmoid sigmoid_ sign sign_ sin sin_ sinh sinh_ size sort sqrt sqrt_ square
square_ squeeze squeeze_ std storage_offset stride sub sub_ subtract subtract_ sum swapaxes
swapdims t t_ tan tan_ tanh tanh_ tile to tolist topk trace transpose transpose_ tril tril_ triu
triu_ true_divide true_divide_ trunc trunc_ type_as unbind unflatten uniform_ unsqueeze
unsqueeze_ var view view_as where zero_
""".split()


def signed(obj, name):
    doc = getattr(obj, "__doc__", None)
    return isinstance(doc, str) and doc.strip().startswith(name + "(")


print("functions", len(FUNCTIONS), "without a signed docstring:",
      [n for n in FUNCTIONS if not signed(getattr(torch, n, None), n)])
print("methods", len(METHODS), "without a signed docstring:",
      [n for n in METHODS if not signed(getattr(torch.Tensor, n, None), n)])

# nndb's tables (PyTorch's _torch_docs and _tensor_docs keep no dict, so this
# part checks nothing there): each docstring is attached, and each example
# runs and prints what the docstring shows, as a doctest.
from torch import _tensor_docs, _torch_docs  # noqa: E402

# PY_DOCS: the functions and methods written in Python, whose __doc__ the
# same modules set.
tables = [(getattr(_torch_docs, "DOCS", {}), torch._C),
          (getattr(_tensor_docs, "DOCS", {}), torch._C._TensorBase),
          (getattr(_torch_docs, "PY_DOCS", {}), torch),
          (getattr(_tensor_docs, "PY_DOCS", {}), torch.Tensor),
          (getattr(_torch_docs, "LINALG_DOCS", {}), torch.linalg),
          (getattr(_torch_docs, "FFT_DOCS", {}), torch.fft),
          (getattr(_torch_docs, "SPECIAL_DOCS", {}), torch.special)]
parser = doctest.DocTestParser()
runner = doctest.DocTestRunner(verbose=False)
detached, failing = [], []
for docs, owner in tables:
    for name, text in docs.items():
        if getattr(owner, name).__doc__ != text:
            detached.append(name)
        test = parser.get_doctest(text, {"torch": torch}, name, None, 0)
        report = []
        if runner.run(test, out=report.append).failed:
            failing.append(name)
            print("".join(report))
print("docstrings not attached:", detached)
print("examples that fail:", failing)

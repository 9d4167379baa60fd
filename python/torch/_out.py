"""out= for the functions PyTorch writes in C with an out= overload and nndb
writes in Python.

Each is wrapped once, at import, by torch._C._takes_out: a builtin that
passes a call without out= (or with out=None) straight to the Python
function, and runs a call with out= through binding/py_out.c, the code
every function of torch._C takes out= through (its checks in PyTorch's
words, the resize warning, torch.return_types.NAME_out for tuple
results). Only the torch.NAME spelling is wrapped: the Tensor methods of
the same name take no out=, as in PyTorch. The lists are PyTorch 1.13's
functions with an out= overload, as tests/opinfo/out_check.py measures
them; docs/python.md says what else takes out=.
"""

from torch import _C

# torch.NAME whose PyTorch function has an out= overload
TORCH = (
    "addbmm", "addmm", "addmv", "addr", "aminmax", "angle", "baddbmm", "bucketize", "column_stack",
    "conj_physical", "copysign", "cross", "cummax", "cummin", "deg2rad", "diff", "dstack",
    "fmax", "fmin", "frexp", "heaviside", "histogram", "hypot", "index_add", "index_copy", "index_reduce",
    "isin", "isneginf", "isposinf", "kron", "ldexp", "logspace", "logaddexp", "logaddexp2", "logcumsumexp",
    "matrix_power", "mode", "mvlgamma", "nanmean", "nanmedian", "nanquantile", "nansum", "narrow_copy", "nextafter", "norm",
    "quantile", "rad2deg", "renorm", "row_stack", "scatter_reduce", "searchsorted", "sgn", "signbit", "take",
    "take_along_dim", "vdot",
)

# torch.nn.functional.NAME: PyTorch's are torch._C._nn functions with out=
# (named there as the messages name them)
FUNCTIONAL = {
    "avg_pool2d": "avg_pool2d", "avg_pool3d": "avg_pool3d", "gelu": "gelu",
    "hardshrink": "hardshrink", "logsigmoid": "log_sigmoid", "softplus": "softplus",
    "softshrink": "softshrink",
}

LINALG = ("lstsq",)


def _wrap(names, mapping, module):
    # [module]: the wrapper's __module__, PyTorch's function's (torch.addmm's
    # is "torch", F.gelu's "torch._C._nn")
    for attr, name in mapping:
        fn = names.get(attr)
        if fn is not None and not isinstance(fn, type(_C._takes_out)):
            names[attr] = _C._takes_out(fn, name)
            names[attr].__module__ = module


def install(torch_names):
    _wrap(torch_names, [(n, n) for n in TORCH], "torch")
    import torch.nn.functional as F
    _wrap(vars(F), FUNCTIONAL.items(), "torch._C._nn")
    import torch.linalg as linalg
    _wrap(vars(linalg), [(n, "linalg_" + n) for n in LINALG], "torch._C._linalg")

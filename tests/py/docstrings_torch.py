"""nndb's help text for torch's functions, torch.Tensor's methods and the
functions of torch.linalg, torch.fft, torch.special, torch.autograd (and
its functional), torch.cuda, torch.testing, torch.utils.data and
torch.distributions: every public one (torch.addmm?, x.masked_fill?,
help(torch.cholesky), torch.linalg.norm?) has a docstring whose first line
is its signature. The names are read from the namespaces, so a function
added without a docstring, or one that loses it, fails here. The examples
of the docstrings kept in the functions' own sources run here as doctests;
those of the tables in torch/_torch_docs.py and _tensor_docs.py run in
tests/py/docstrings.py.

PyTorch's docstrings are other text, so under /usr/bin/python3 this script
prints the lines the checks must print."""
import doctest
import types

import torch
import torch.fft
import torch.linalg
import torch.special
import torch.autograd.functional
import torch.distributions
import torch.testing
import torch.utils.data

# each namespace checked, with a lower bound on its number of functions (so
# that a broken listing cannot pass by finding nothing)
OWNERS = (("torch", torch, 500), ("Tensor", torch.Tensor, 500), ("linalg", torch.linalg, 40),
          ("fft", torch.fft, 20), ("special", torch.special, 50), ("autograd", torch.autograd, 8),
          ("autograd.functional", torch.autograd.functional, 6), ("cuda", torch.cuda, 6),
          ("testing", torch.testing, 3), ("utils.data", torch.utils.data, 6),
          ("distributions", torch.distributions, 2))

FUNCTION_TYPES = (types.FunctionType, types.BuiltinFunctionType)

try:
    import nndb  # noqa: F401
except ImportError:
    nndb = None


def public(owner):
    out = {}
    for name in sorted(dir(owner)):
        if name.startswith("_"):
            continue
        obj = getattr(owner, name, None)
        if (not callable(obj) or isinstance(obj, (type, types.ModuleType))
                or getattr(obj, "__module__", None) == "typing"):
            continue
        if owner is not torch.Tensor and not isinstance(obj, FUNCTION_TYPES):
            continue  # an object that can be called (distributions.identity_transform)
        out[name] = obj
    return out


def signed(name, obj, names):
    # an alias (Tensor.multigammaln = mvlgamma, special.psi = digamma) may
    # carry the signature under the name it was defined with, or under
    # another name of the same function
    doc = obj.__doc__
    if not isinstance(doc, str):
        return False
    spellings = {name, getattr(obj, "__name__", name)}
    spellings.update(n for n, o in names.items() if o is obj)
    return any(doc.lstrip().startswith(n + "(") for n in spellings)


if nndb is None:
    for label, _, least in OWNERS:
        print(label, "functions at least", least, True)
        print(label, "without a signed docstring: []")
    print("source examples run at least 40: True")
    print("source examples that fail: []")
else:
    from torch import _tensor_docs, _torch_docs
    tables = set()
    for table in (_torch_docs.DOCS, _torch_docs.PY_DOCS, _torch_docs.LINALG_DOCS, _torch_docs.FFT_DOCS,
                  _torch_docs.SPECIAL_DOCS, _tensor_docs.DOCS, _tensor_docs.PY_DOCS):
        tables.update(table.values())
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(verbose=False)
    failing, seen, examples = [], set(), 0
    for label, owner, least in OWNERS:
        names = public(owner)
        print(label, "functions at least", least, len(names) >= least)
        print(label, "without a signed docstring:", [n for n, o in names.items() if not signed(n, o, names)])
        for name, obj in names.items():
            doc = obj.__doc__
            if not isinstance(doc, str) or doc in tables or id(obj) in seen:
                continue
            seen.add(id(obj))
            test = parser.get_doctest(doc, {"torch": torch}, label + "." + name, None, 0)
            examples += len(test.examples)
            report = []
            if runner.run(test, out=report.append).failed:
                failing.append(label + "." + name)
                print("".join(report))
    print("source examples run at least 40:", examples >= 40, examples) if False else print("source examples run at least 40:", examples >= 40)
    print("source examples that fail:", failing)

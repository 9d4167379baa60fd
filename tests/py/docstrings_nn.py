"""nndb's help text for torch.nn.functional, torch.nn.init and torch.nn.utils:
every public function of them (F.softmax?, help(F.cross_entropy), Jupyter's
Shift-Tab) has a docstring whose first line is its signature, and the
examples in them run and print what they show (as doctests, with torch, F
and nn imported). The names are read from the modules, so a function added
without a docstring, or one that loses it, fails here; the fixed list below
makes sure the names courses use are among them.

PyTorch's docstrings are other text (many do not start with a signature),
so under /usr/bin/python3 this script prints the lines the checks must
print."""
import doctest
import types

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
import torch.nn.utils as utils

try:
    import nndb  # noqa: F401
except ImportError:
    nndb = None

COURSE_NAMES = """
F.cross_entropy F.nll_loss F.mse_loss F.l1_loss F.binary_cross_entropy
F.binary_cross_entropy_with_logits F.softmax F.log_softmax F.relu F.gelu F.silu F.tanh
F.sigmoid F.dropout F.linear F.conv1d F.conv2d F.max_pool2d F.avg_pool2d
F.adaptive_avg_pool2d F.batch_norm F.layer_norm F.group_norm F.embedding F.one_hot F.pad
F.interpolate F.normalize F.cosine_similarity F.kl_div F.smooth_l1_loss F.huber_loss
init.calculate_gain init.kaiming_uniform_ init.kaiming_normal_ init.xavier_uniform_
init.xavier_normal_ init.orthogonal_ init.trunc_normal_ init.normal_ init.uniform_
init.zeros_ init.ones_ init.constant_ init.uniform utils.clip_grad_norm_ utils.clip_grad_value_
""".split()


def public(mod, prefix):
    """The module's public functions (builtins too), not the classes, the
    submodules nor the typing names functional imports."""
    out = {}
    for name in sorted(dir(mod)):
        obj = getattr(mod, name)
        if (name.startswith("_") or not callable(obj) or isinstance(obj, (type, types.ModuleType))
                or getattr(obj, "__module__", None) == "typing"):
            continue
        out[prefix + name] = obj
    return out


def signed(name, obj):
    # an alias (native_channel_shuffle = channel_shuffle) may carry the
    # signature under the name it was defined with
    doc = obj.__doc__
    short = name.split(".")[-1]
    return isinstance(doc, str) and (doc.lstrip().startswith(short + "(")
                                     or doc.lstrip().startswith(obj.__name__ + "("))


if nndb is None:
    print("course names listed: True")
    print("public functions at least 150: True")
    print("without a signed docstring: []")
    print("examples run at least 100: True")
    print("examples that fail: []")
else:
    names = {**public(F, "F."), **public(init, "init."), **public(utils, "utils.")}
    print("course names listed:", all(n in names for n in COURSE_NAMES))
    print("public functions at least 150:", len(names) >= 150)
    print("without a signed docstring:", [n for n, o in names.items() if not signed(n, o)])
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(verbose=False, optionflags=doctest.ELLIPSIS)
    failing, seen, examples = [], set(), 0
    for name, obj in names.items():
        if id(obj) in seen or not isinstance(obj.__doc__, str):
            continue
        seen.add(id(obj))
        test = parser.get_doctest(obj.__doc__, {"torch": torch, "F": F, "nn": nn}, name, None, 0)
        examples += len(test.examples)
        report = []
        if runner.run(test, out=report.append).failed:
            failing.append(name)
            print("".join(report))
    print("examples run at least 100:", examples >= 100)
    print("examples that fail:", failing)

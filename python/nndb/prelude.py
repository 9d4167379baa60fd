"""The bare names of an interactive nndb session.

A notebook or the REPL starts with PyTorch's names at hand, as nndb's own
language had them: `x = randn(64, 2)`, `Sequential(Linear(2, 64), Tanh())`,
`cross_entropy(model(x), y)`, `Adam(model.parameters())`. fill() puts in
the session's namespace what `from torch import *` would (torch's functions
and dtypes), then the classes of torch.nn, the functions of
torch.nn.functional, the optimizers and schedulers of torch.optim and the
datasets and loaders of torch.utils.data, plus the modules torch, nn, F and
optim. A name that would hide a Python builtin (torch.int, torch.max) is
left out, and so is any name already taken; earlier sources win (torch.relu
before F.relu), except the torch.* spellings with ATen's argument orders
(torch.batch_norm, torch.embedding, torch.dropout): there F's. Scripts (`nndb run`) do not get the prelude: they import
what they use, as under python3.

nndb's own tools come first, under the names the drills and lessons use:
the datasets of nndb.data (spirals, copy_task, words, ...), plot, hist,
progress, lr_find, MLP, num_params and GPT (with Block and
CausalSelfAttention), and, where their modules have them,
the instruments (gradcheck, stats, activations, dependencies, ...), the GPU
probe (gpus, doctor) and the distributed helpers (dist_check, dist_run,
DistributedDataParallel, DistributedSampler). A name a module does not have
(yet) is left out.
"""

import builtins
import importlib
import types

_SOURCES = ["torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.optim.lr_scheduler",
            "torch.utils.data"]
_MODULES = {"torch": "torch", "nn": "torch.nn", "F": "torch.nn.functional",
            "optim": "torch.optim", "dist": "torch.distributed", "init": "torch.nn.init",
            "random": "random", "math": "math"}
# nndb's own names, by module.
_NNDB = [
    ("nndb.data", ["spirals", "moons", "blobs", "xor", "regression", "copy_task", "words",
                   "text"]),
    ("nndb.plot", ["plot", "hist"]),
    ("nndb.images", ["show_images", "show_feature_maps"]),
    ("nndb.progress", ["progress", "live_plot"]),
    ("nndb.lr_find", ["lr_find"]),
    ("nndb.models", ["MLP", "num_params", "GPT", "Block", "CausalSelfAttention"]),
    ("nndb.instruments", ["gradcheck", "stats", "activations", "dependencies", "profile",
                          "memory_report",
                          "track", "live_plot", "_test_wrong_grad"]),
    ("nndb.probe", ["gpus", "doctor"]),
    ("nndb.dist_run", ["dist_run"]),
    ("torch.distributed", ["dist_check"]),
    ("torch.nn.parallel", ["DistributedDataParallel"]),
    ("torch.utils.data.distributed", ["DistributedSampler"]),
]


def names():
    """{name: value} of the prelude (the modules that exist only)."""
    out = {}
    for modname, wanted in _NNDB:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        for name in wanted:
            value = getattr(module, name, None)
            if value is not None:
                out.setdefault(name, value)
    for alias, modname in _MODULES.items():
        try:
            out[alias] = importlib.import_module(modname)
        except ImportError:
            pass
    for modname in _SOURCES:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        # torch's own __all__ leaves the dtypes out (they would shadow
        # float, int and bool); the prelude wants float32 and int64 bare.
        listed = None if modname == "torch" else getattr(module, "__all__", None)
        for name in listed or dir(module):
            if name.startswith("_") or name in out or hasattr(builtins, name):
                continue
            value = getattr(module, name, None)
            if value is None or isinstance(value, types.ModuleType):
                continue
            # what a torch module imported for itself (typing, math) stays out
            origin = getattr(value, "__module__", None)
            if isinstance(origin, str) and not origin.startswith("torch"):
                continue
            # torch.batch_norm, torch.embedding, torch.dropout, ... take
            # ATen's argument order: the bare name is nn.functional's
            if origin == "torch._aliases" and hasattr(out.get("F"), name):
                continue
            out[name] = value
    return out


def fill(ns):
    """Add the prelude's names to [ns], keeping names already there."""
    for name, value in names().items():
        ns.setdefault(name, value)

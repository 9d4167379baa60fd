"""Import hooks nndb installs before any user code runs.

`torch` and `torchvision` are nndb's packages (python/torch and
python/torchvision, next to this file's package). Debian's python3-torch may be installed in dist-packages
too; it stays the reference for nndb's tests under /usr/bin/python3, and this
finder makes sure that inside nndb the names resolve to nndb's own, whatever
a script does to sys.path. torch._C is the engine, built into the nndb
binary.
"""

import importlib.machinery
import os
import sys

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_OURS = ("torch", "torchvision")


class NndbFinder:
    """Resolves torch, torchvision and their submodules to nndb's files."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname == "torch._C":
            return importlib.machinery.ModuleSpec(
                fullname, importlib.machinery.BuiltinImporter, origin="built-in")
        top = fullname.partition(".")[0]
        if top not in _OURS:
            return None
        if path is None:
            path = [_HERE]
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None and fullname == top:
            # Never fall through to Debian's package: it is built against
            # PyTorch's binary and fails half-way inside nndb.
            raise ModuleNotFoundError(
                f"No module named '{fullname}': nndb's {fullname} is missing from {_HERE} "
                f"(Debian's {fullname} is built for PyTorch's binary and is not used)",
                name=fullname)
        return spec

    @classmethod
    def invalidate_caches(cls):
        pass


if not any(f is NndbFinder or getattr(f, "__name__", "") == "NndbFinder"
           for f in sys.meta_path):
    sys.meta_path.insert(0, NndbFinder)


def _pythonpath():
    """PYTHONPATH's folders, as python3 puts them: absolute, after the
    script's folder (which the interpreter adds later) and before the
    standard library; nndb's own packages stay ahead of them. (nndb starts
    CPython isolated from the environment, so it reads the variable here.)"""
    value = os.environ.get("PYTHONPATH")
    if not value:
        return
    at = sys.path.index(_HERE) + 1 if _HERE in sys.path else 0
    for i, entry in enumerate(value.split(os.pathsep)):
        sys.path.insert(at + i, os.path.abspath(entry))


_pythonpath()

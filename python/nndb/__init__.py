"""nndb's Python side: the session (session, magics, display), and the
instruments and probes users call as nndb.NAME.

The names are loaded on first use (PEP 562): the import hook in
nndb/_boot.py runs at every start of the interpreter, and importing this
package must not pull the instruments (and re, html, ...) into
`nndb python`'s start-up.
"""

import importlib

_LAZY = {
    "activations": "nndb.instruments", "dependencies": "nndb.instruments",
    "gradcheck": "nndb.instruments", "profile": "nndb.instruments", "stats": "nndb.instruments",
    "doctor": "nndb.probe", "show_images": "nndb.images", "show_feature_maps": "nndb.images",
}


def __getattr__(name):
    if name == "probe":
        # callable: nndb.probe() is `nndb probe`
        value = importlib.import_module("nndb.probe")
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'nndb' has no attribute '{name}'")
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_LAZY) + ["probe"])

"""torch.nn.utils.stateless.functional_call: call a module with some of its
parameters and buffers replaced by the given tensors, for that call only."""

from contextlib import contextmanager

import torch

__all__ = ["functional_call"]


def _split(module, name):
    *path, leaf = name.split(".")
    for p in path:
        module = getattr(module, p)
    return module, leaf


@contextmanager
def _reparametrize_module(module, parameters_and_buffers):
    saved = []
    try:
        for name, tensor in parameters_and_buffers.items():
            mod, leaf = _split(module, name)
            for kind in ("_parameters", "_buffers"):
                d = mod.__dict__[kind]
                if leaf in d:
                    saved.append((d, leaf, d[leaf]))
                    d[leaf] = tensor
                    break
            else:
                if hasattr(mod, leaf):
                    old = getattr(mod, leaf)
                    saved.append((mod, leaf, old))
                    setattr(mod, leaf, tensor)
                else:
                    raise AttributeError(
                        f"'{type(mod).__name__}' object has no attribute '{leaf}'")
        yield
    finally:
        for holder, leaf, old in reversed(saved):
            if isinstance(holder, dict):
                holder[leaf] = old
            else:
                setattr(holder, leaf, old)


def functional_call(module, parameters_and_buffers, args, kwargs=None):
    if kwargs is None:
        kwargs = {}
    with _reparametrize_module(module, parameters_and_buffers):
        if isinstance(args, tuple):
            out = module(*args, **kwargs)
        else:
            out = module(args, **kwargs)
    return out


del torch

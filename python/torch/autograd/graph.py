"""torch.autograd.graph: hooks on the tensors autograd saves for backward.

nndb's engine keeps the saved tensors itself and has no pack/unpack hook,
so saved_tensors_hooks raises NotImplementedError rather than silently not
calling the hooks. save_on_cpu is provided: it moves saved tensors to the
CPU, where nndb's tensors always are, so it changes nothing, exactly as it
changes nothing on a CPU-only PyTorch."""

import contextlib  # noqa: F401
from typing import Any, Callable  # noqa: F401

import torch  # noqa: F401

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks"]


class saved_tensors_hooks:
    def __init__(self, pack_hook, unpack_hook):
        raise NotImplementedError(
            "torch.autograd.graph.saved_tensors_hooks: nndb's engine keeps the tensors saved "
            "for backward itself and cannot pass them through pack/unpack hooks")


class save_on_cpu:
    def __init__(self, pin_memory=False):
        self.pin_memory = pin_memory

    def __enter__(self):
        return None

    def __exit__(self, *args):
        return False


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """No saved-tensor hooks can be registered in nndb, so there are none to
    disable; the block runs as it is."""
    yield

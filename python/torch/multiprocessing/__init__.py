"""torch.multiprocessing: Python's multiprocessing under torch's name (as in
PyTorch, every name of `multiprocessing` is here), its sharing-strategy
switches, and spawn(fn, args, nprocs), which runs fn(i, *args) in nprocs
processes and joins them.

nndb's processes are forked: a spawned child would start nndb's binary,
which is not a Python interpreter, so start_method "spawn" and
"forkserver" also fork (the child inherits the parent's modules and
globals, which a spawn-started child would import again). Tensors passed to
a child are copied by pickling, not shared: nndb has no shared-memory
tensors (share_memory_() is accepted and does nothing), so what a child
changes stays in the child."""
import multiprocessing
from multiprocessing import *  # noqa: F401,F403

from .spawn import (  # noqa: F401
    ProcessContext, ProcessExitedException, ProcessRaisedException, SpawnContext, spawn,
    start_processes)

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies",
           "spawn", "start_processes", "ProcessContext", "SpawnContext",
           "ProcessRaisedException", "ProcessExitedException"] + list(multiprocessing.__all__)

_strategies = {"file_descriptor", "file_system"}
_strategy = "file_descriptor"


def set_sharing_strategy(new_strategy):
    """Accepted for PyTorch's names; nndb shares no tensor memory between
    processes, so the strategy changes nothing."""
    global _strategy
    assert new_strategy in _strategies
    _strategy = new_strategy


def get_sharing_strategy():
    return _strategy


def get_all_sharing_strategies():
    return set(_strategies)

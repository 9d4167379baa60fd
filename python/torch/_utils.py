"""The rebuild functions PyTorch's pickles name (torch._utils.*): a loaded
checkpoint calls them to make its tensors and parameters.

A storage here is the 1-D tensor torch.load made from the storage's bytes;
a tensor is a view of it, so tensors that shared a storage when they were
saved share memory again after loading.
"""

from collections import OrderedDict

from torch import _C


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    t = _C._view_of_storage(storage, storage_offset, tuple(size), tuple(stride))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_tensor(storage, storage_offset, size, stride):
    """The pre-1.0 form (no requires_grad)."""
    return _C._view_of_storage(storage, storage_offset, tuple(size), tuple(stride))


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    from torch.nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = _rebuild_parameter(data, requires_grad, backward_hooks)
    for k, v in (state or {}).items():
        setattr(param, k, v)
    return param


def _empty_hooks():
    """What torch pickles as a tensor's backward hooks: OrderedDict()."""
    return OrderedDict()



_WRAPPERS = ("/torch/amp/_lists.py",)


def _warn_caller(message, category=UserWarning, depth=2):
    """warnings.warn(message, category, stacklevel=depth + 1) as the
    function [depth] frames up sees it in PyTorch: autocast's wrappers
    around the functional ops (torch/amp/_lists.py) are frames PyTorch does
    not have, so they are passed over; a fixed stacklevel would name them
    (the user's F.mse_loss(...) line would read as _lists.py's)."""
    import sys
    import warnings
    f = sys._getframe(depth)
    while f is not None and f.f_code.co_filename.endswith(_WRAPPERS):
        f = f.f_back
    if f is None:
        warnings.warn(message, category, stacklevel=2)
        return
    g = f.f_globals
    name = f.f_code.co_filename
    # module_globals lets the warning show its source line through the
    # module's loader; code from -c or stdin ("<string>", "<stdin>") has
    # BuiltinImporter as __main__'s loader, whose get_source raises
    warnings.warn_explicit(message, category, name, f.f_lineno,
                           module=g.get("__name__", "<string>"),
                           registry=g.setdefault("__warningregistry__", {}),
                           module_globals=None if name.startswith("<") else g)


_WARNED_ONCE = set()


def _warn_once(key, message, depth=2):
    """PyTorch's TORCH_WARN_ONCE: [message] the first time [key] is met in
    the process, pointing at the line [depth] frames up (as _warn_caller),
    never again, whatever the warnings filters say."""
    if key in _WARNED_ONCE:
        return
    _WARNED_ONCE.add(key)
    _warn_caller(message, UserWarning, depth + 1)

"""torch.nn.utils.skip_init."""

import inspect

import torch


def skip_init(module_cls, *args, **kwargs):
    """skip_init(module_cls, *args, **kwargs) -> Module

    Build module_cls(*args, **kwargs) without initializing its parameters,
    for when they are about to be overwritten (loading a checkpoint); the
    class must take a device argument. PyTorch builds it on the 'meta'
    device and then allocates it uninitialised; nndb has one device and
    builds it normally, then puts the random generator back as it was
    (PyTorch's meta build draws nothing), so the values are arbitrary but
    the stream is untouched.
    """
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = final_device
    state = torch.get_rng_state()
    try:
        return module_cls(*args, **kwargs)
    finally:
        torch.set_rng_state(state)

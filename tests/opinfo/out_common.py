"""What tests/opinfo/out_gen.py (under PyTorch) and out_check.py (under
nndb) both do: make outs for a result, and say what a call raised or
returned in a form the two sides can compare. Imports torch, whichever
torch the interpreter has."""

import torch


def outs_like(x, dtype=None, shape=None):
    """Fresh outs for the eager result [x]: a tensor, or a tuple of them;
    [dtype]/[shape] replace the first tensor's."""
    if isinstance(x, torch.Tensor):
        return torch.empty(x.shape if shape is None else shape, dtype=dtype or x.dtype)
    outs = [torch.empty(t.shape, dtype=t.dtype) for t in x]
    if dtype is not None or shape is not None:
        outs[0] = outs_like(x[0], dtype, shape)
    return tuple(outs)


def err(e):
    return (type(e).__name__, str(e).split("\n")[0][:400])


def returned(r, out):
    """What an out= call returned, said in a way both sides can compare."""
    if r is out:
        return ("out",)
    if isinstance(out, tuple) and isinstance(r, tuple) and len(r) == len(out):
        return ("tuple", type(r).__module__ + "." + type(r).__name__,
                [a is b for a, b in zip(r, out)], list(getattr(type(r), "__match_args__", ())))
    return ("other", type(r).__name__)

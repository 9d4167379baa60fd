"""What gen.py (under PyTorch) and check.py (under nndb) share: each
imports it with its own torch."""

import torch


def flat_tensors(x, out):
    """Every tensor in [x] (nested lists, tuples, dicts), in order, appended to [out]."""
    if isinstance(x, torch.Tensor):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            flat_tensors(v, out)
    elif isinstance(x, dict):
        for v in x.values():
            flat_tensors(v, out)
    return out

"""torch.random: the CPU generator's seed and state under the names PyTorch
also gives them here, and fork_rng, which runs a block with the generator's
state put back afterwards."""
import contextlib

import torch
from torch import (  # noqa: F401
    Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices"):
    """Run the block, then put the random state back as it was before it:
    draws inside do not change what draws after it see. nndb has no CUDA
    devices, so only the CPU generator is saved ([devices] is accepted and
    has nothing to name)."""
    if not enabled:
        yield
        return
    state = torch.get_rng_state()
    try:
        yield
    finally:
        torch.set_rng_state(state)

"""torch's random streams: the default CPU generator and torch.Generator,
over the engine's mt19937 (the same numbers PyTorch's CPU generator draws)."""

from torch import _C


class Generator:
    __module__ = "torch._C"

    def __init__(self, device="cpu", _engine=None):
        self._engine = _engine if _engine is not None else _C._new_rng()
        self._seed = 67280421310721

    def manual_seed(self, seed):
        seed = int(seed)
        # torch keeps the seed as a uint64: manual_seed(-1) reads back 2**64 - 1
        self._seed = seed & 0xFFFFFFFFFFFFFFFF
        _C._rng_seed(self._engine, self._seed)
        return self

    def seed(self):
        import random
        s = random.getrandbits(63)
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return self._seed

    def get_state(self):
        return _C._rng_get_state(self._engine)

    def set_state(self, state):
        _C._rng_set_state(self._engine, state)
        return self

    @property
    def device(self):
        from torch._device import _CPU
        return _CPU


default_generator = Generator(_engine=_C._default_rng())


def manual_seed(seed):
    default_generator.manual_seed(seed)
    return default_generator


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None):
    """randint_like(input, high) or randint_like(input, low, high): integers
    drawn as torch.randint draws them, in input's shape and dtype."""
    import torch
    if high is None:
        low, high = 0, low
    return torch.randint(low, high, tuple(input.shape),
                         dtype=input.dtype if dtype is None else dtype,
                         requires_grad=requires_grad)

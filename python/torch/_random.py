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
        # the state's first 8 bytes are the seed it started from (PyTorch's
        # layout), which initial_seed() then reports, as in PyTorch
        self._seed = int.from_bytes(bytes(state[:8].tolist()), "little")
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


def poisson(input, generator=None):
    """poisson(input, generator=None): counts drawn with rates input (ATen's
    sampler, so a seeded call gives PyTorch's numbers); the gradient with
    respect to the rates is zero, as PyTorch defines it."""
    from torch._tensor_ops import _with_zero_grad
    return _with_zero_grad("PoissonBackward0", _C._poisson, (input,),
                           {} if generator is None else {"generator": generator})


def _binomial_backward(ctx, grad):
    raise RuntimeError("derivative for aten::binomial is not implemented")


def binomial(count, prob, generator=None):
    """binomial(count, prob, generator=None): successes out of count trials
    with probability prob (ATen's BTRS / inversion sampler). Not
    differentiable: backward through it raises, as in PyTorch."""
    import torch
    from torch._tensor_more import _lazy_function
    for pos, (name, arg) in enumerate((("count", count), ("prob", prob)), 1):
        if not isinstance(arg, torch.Tensor):
            raise TypeError(f"binomial(): argument '{name}' (position {pos}) must be Tensor, "
                            f"not {type(arg).__name__}")
    shape = torch.broadcast_shapes(count.shape, prob.shape)
    with torch.no_grad():
        out = _C._binomial(count.detach().expand(shape).contiguous(),
                           prob.detach().expand(shape).contiguous(), generator)
    inputs = [t for t in (count, prob) if t.requires_grad]
    if not inputs or not torch.is_grad_enabled():
        return out
    from torch._tensor_ops import _zero_grad_forward
    return _lazy_function("NotImplemented", _zero_grad_forward,
                          _binomial_backward).apply(out, *inputs)

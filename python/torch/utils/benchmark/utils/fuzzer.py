"""Fuzzer: random benchmark inputs (sizes, strides, layouts) from a seed.

The draws come from a numpy RandomState seeded with the Fuzzer's seed, in
PyTorch's order (the torch seed first, then per set the parameters, and per
tensor its values and its layout), so a seed gives the same parameters and
the same tensors as under PyTorch.
"""

import functools
import itertools
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

import torch

__all__ = ["Fuzzer", "FuzzedParameter", "ParameterAlias", "FuzzedTensor"]

_DISTRIBUTIONS = ("loguniform", "uniform")


class FuzzedParameter:
    """A named random value: "uniform" between minval and maxval (an int
    when both bounds are ints, upper bound included), "loguniform" (an int,
    uniform in log2, clamped to the bounds), or a dict {value: probability}.
    A strict parameter keeps its first draw while the Fuzzer retries a set
    that failed its constraints."""

    def __init__(
        self,
        name: str,
        minval: Optional[Union[int, float]] = None,
        maxval: Optional[Union[int, float]] = None,
        distribution: Optional[Union[str, Dict[Any, float]]] = None,
        strict: bool = False,
    ):
        self._name = name
        self._minval = minval
        self._maxval = maxval
        if isinstance(distribution, dict):
            assert not any(p < 0 for p in distribution.values()), "Probabilities cannot be negative"
            assert abs(sum(distribution.values()) - 1) <= 1e-5, "Distribution is not normalized"
            assert minval is None
            assert maxval is None
        else:
            assert distribution in _DISTRIBUTIONS
        self._distribution = distribution
        self.strict = strict

    @property
    def name(self) -> str:
        return self._name

    def sample(self, state: np.random.RandomState) -> Any:
        d = self._distribution
        if isinstance(d, dict):
            index = state.choice(np.arange(len(d)), p=tuple(d.values()))
            return list(d.keys())[index]
        lo, hi = self._minval, self._maxval
        if d == "uniform":
            if isinstance(lo, int) and isinstance(hi, int):
                return int(state.randint(low=lo, high=hi + 1))
            return state.uniform(low=lo, high=hi)
        value = int(2 ** state.uniform(
            low=np.log2(lo) if lo is not None else None,
            high=np.log2(hi) if hi is not None else None,
        ))
        if lo is not None and value < lo:
            return lo
        if hi is not None and value > hi:
            return hi
        return value


class ParameterAlias:
    """A parameter whose value is another parameter's (say, k = n)."""

    def __init__(self, alias_to: str):
        self.alias_to = alias_to

    def __repr__(self) -> str:
        return f"ParameterAlias[alias_to: {self.alias_to}]"


def dtype_size(dtype: torch.dtype) -> int:
    if dtype == torch.bool:
        return 1
    if dtype.is_floating_point or dtype.is_complex:
        return int(torch.finfo(dtype).bits / 8)
    return int(torch.iinfo(dtype).bits / 8)


def prod(values, base=1) -> int:
    return functools.reduce(lambda a, b: int(a) * int(b), values, base)


class FuzzedTensor:
    """A random tensor whose sizes (and steps: a step s keeps every s-th
    element, making the tensor strided) are ints or parameter names. With
    probability 1 - probability_contiguous its dimensions are laid out in a
    random order in memory. min_elements, max_elements and
    max_allocation_bytes reject parameter sets; dim_parameter names the
    parameter that gives the number of dimensions (size is cut or padded
    with 1s)."""

    def __init__(
        self,
        name: str,
        size: Tuple[Union[str, int], ...],
        steps: Optional[Tuple[Union[str, int], ...]] = None,
        probability_contiguous: float = 0.5,
        min_elements: Optional[int] = None,
        max_elements: Optional[int] = None,
        max_allocation_bytes: Optional[int] = None,
        dim_parameter: Optional[str] = None,
        roll_parameter: Optional[str] = None,
        dtype=torch.float32,
        cuda=False,
        tensor_constructor: Optional[Callable] = None,
    ):
        self._name = name
        self._size = size
        self._steps = steps
        self._probability_contiguous = probability_contiguous
        self._min_elements = min_elements
        self._max_elements = max_elements
        self._max_allocation_bytes = max_allocation_bytes
        self._dim_parameter = dim_parameter
        self._dtype = dtype
        self._cuda = cuda
        self._tensor_constructor = tensor_constructor

    @property
    def name(self) -> str:
        return self._name

    @staticmethod
    def default_tensor_constructor(size, dtype, **kwargs):
        # size goes positionally: nndb's torch.rand(size=..., dtype=...)
        # makes float32 whatever the dtype (the same call otherwise).
        if dtype.is_floating_point or dtype.is_complex:
            return torch.rand(size, dtype=dtype, device="cpu")
        return torch.randint(1, 127, size, dtype=dtype, device="cpu")

    def _get_size_and_steps(self, params):
        ndim = params[self._dim_parameter] if self._dim_parameter is not None else len(self._size)

        def resolve(values):
            values = tuple(params.get(v, v) for v in values)[:ndim]
            return values + (1,) * (ndim - len(values))

        size = resolve(self._size)
        steps = resolve(self._steps or ())
        return size, steps, tuple(n * s for n, s in zip(size, steps))

    def satisfies_constraints(self, params) -> bool:
        size, _, allocation = self._get_size_and_steps(params)
        numel = prod(size)
        assert numel >= 0
        nbytes = prod(allocation, base=dtype_size(self._dtype))

        def over(value, limit):
            return value is not None and limit is not None and value > limit

        return not (over(numel, self._max_elements) or over(self._min_elements, numel)
                    or over(nbytes, self._max_allocation_bytes))

    def _make_tensor(self, params, state):
        size, steps, allocation = self._get_size_and_steps(params)
        make = self._tensor_constructor or self.default_tensor_constructor
        raw = make(size=allocation, dtype=self._dtype, **params)
        if self._cuda:
            raw = raw.cuda()

        # A random memory order: permute, copy, permute back; the values
        # stay where they were, the strides change.
        ndim = len(size)
        order = np.arange(ndim)
        if state.rand() > self._probability_contiguous:
            while ndim > 1 and np.all(order == np.arange(ndim)):
                order = state.permutation(raw.dim())
            raw = raw.permute(tuple(order)).contiguous()
            raw = raw.permute(tuple(np.argsort(order)))

        tensor = raw[tuple(slice(0, n * s, s) for n, s in zip(size, steps))]
        properties = {
            "numel": int(tensor.numel()),
            "order": order,
            "steps": steps,
            "is_contiguous": tensor.is_contiguous(),
            "dtype": str(self._dtype),
        }
        return tensor, properties


class Fuzzer:
    """Draws parameter sets until one passes every constraint (callables
    of the parameter dict, then each tensor's limits; 1000 tries), and
    makes the tensors from it. take(n) yields (tensors, properties, params)
    dicts n times; the same seed gives the same sets."""

    def __init__(
        self,
        parameters: List[Union[FuzzedParameter, List[FuzzedParameter]]],
        tensors: List[Union[FuzzedTensor, List[FuzzedTensor]]],
        constraints: Optional[List[Callable]] = None,
        seed: Optional[int] = None,
    ):
        if seed is None:
            seed = np.random.RandomState().randint(0, 2**63)
        self._seed = seed
        self._parameters = _flatten(parameters, FuzzedParameter)
        self._tensors = _flatten(tensors, FuzzedTensor)
        self._constraints = constraints or ()
        overlap = {p.name for p in self._parameters} & {t.name for t in self._tensors}
        if overlap:
            raise ValueError(f"Duplicate names in parameters and tensors: {overlap}")
        self._rejections = 0
        self._total_generated = 0

    def take(self, n: int):
        state = np.random.RandomState(self._seed)
        torch.manual_seed(state.randint(low=0, high=2**63))
        for _ in range(n):
            params = self._generate(state)
            tensors, properties = {}, {}
            for t in self._tensors:
                tensors[t.name], properties[t.name] = t._make_tensor(params, state)
            yield tensors, properties, params

    @property
    def rejection_rate(self) -> float:
        return self._rejections / self._total_generated if self._total_generated else 0.0

    def _generate(self, state):
        kept: Dict[str, Any] = {}  # strict parameters' first draws
        for _ in range(1000):
            params: Dict[str, Any] = {}
            for p in self._parameters:
                if p.strict and p.name in kept:
                    params[p.name] = kept[p.name]
                else:
                    params[p.name] = p.sample(state)
                    if p.strict:
                        kept[p.name] = params[p.name]
            params = _resolve_aliases(params)
            self._total_generated += 1
            if all(f(params) for f in self._constraints) and all(
                    t.satisfies_constraints(params) for t in self._tensors):
                return params
            self._rejections += 1
        raise ValueError("Failed to generate a set of valid parameters.")


def _flatten(values, cls) -> tuple:
    return tuple(itertools.chain(*[[v] if isinstance(v, cls) else v for v in values]))


def _resolve_aliases(params):
    """Aliases replaced by their targets' values, chains included."""
    params = dict(params)

    def pending():
        return sum(isinstance(v, ParameterAlias) for v in params.values())

    left = pending()
    while left:
        for k, v in list(params.items()):
            if isinstance(v, ParameterAlias):
                params[k] = params[v.alias_to]
        now = pending()
        if now == left:
            raise ValueError(f"ParameterAlias cycle detected\n{params}")
        left = now
    return params

"""torch.nn.utils.prune: zeroing parameters by a rule, as PyTorch 1.13 does.

Pruning `name` of a module reparametrizes it: the parameter moves to
`name + "_orig"`, a buffer `name + "_mask"` (1 keeps, 0 prunes) is added,
and a forward pre-hook (the pruning method object itself) recomputes
`module.name = name_orig * name_mask` before every forward. Pruning the same
parameter again combines the masks through a PruningContainer, each new
method acting only on what is still unpruned. `remove` makes the pruning
permanent: `name` is a plain parameter again, holding the masked values.

The masks are PyTorch's, element for element: the same topk, kthvalue and
norms (ties included), and the random methods draw from torch's generator
in PyTorch's order (tests/py/nn_prune.py checks both).
"""

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import torch

__all__ = ["BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured",
           "L1Unstructured", "RandomStructured", "LnStructured", "CustomFromMask", "identity",
           "random_unstructured", "l1_unstructured", "random_structured", "ln_structured",
           "global_unstructured", "custom_from_mask", "remove", "is_pruned"]


# ---- amounts and checks (PyTorch's messages) ----

def _check_amount(amount):
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    integral = isinstance(amount, numbers.Integral)
    if (integral and amount < 0) or (not integral and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _how_many(amount, size):
    """Entries (or channels) to prune out of [size]."""
    if isinstance(amount, numbers.Integral):
        if amount > size:
            raise ValueError(f"amount={amount} should be smaller than the number of parameters "
                             f"to prune={size}")
        return amount
    return round(amount * size)


def _check_structured(t, dim):
    if t.dim() <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. "
                         f"Found tensor of shape {t.shape} with {t.dim()} dims")
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _zero_extremes(default_mask, scores, k, largest):
    """A copy of [default_mask] with the entries of the [k] largest (or
    smallest) [scores] set to 0 (topk's choice among ties, as PyTorch)."""
    mask = default_mask.clone()
    if k:
        mask.view(-1)[torch.topk(scores.view(-1), k=k, largest=largest).indices] = 0
    return mask


def _channel_norms(t, n, dim):
    """The L[n] norm of each slice of [t] along [dim]."""
    dim = dim % t.dim()
    others = [d for d in range(t.dim()) if d != dim]
    return torch.norm(t, p=n, dim=others)


def _channels_mask(t, dim, keep):
    """Ones on the channels [keep] (indices or a boolean row) of [dim]."""
    mask = torch.zeros_like(t)
    where = [slice(None)] * t.dim()
    where[dim] = keep
    mask[tuple(where)] = 1
    return mask


# ---- the methods ----

class BasePruningMethod(ABC):
    """A pruning rule: compute_mask(t, default_mask) says what to zero.
    As a forward pre-hook it writes name_orig * name_mask into module.name."""

    _tensor_name: str

    def __init__(self):
        pass

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The mask for [t] (importance scores), on top of [default_mask]."""

    def apply_mask(self, module):
        assert self._tensor_name is not None, f"Module {module} has to be pruned"
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune module.name with this rule: reparametrize it (first time)
        or combine with the pruning it has, and register the hook."""
        method = cls._compose(module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif importance_scores.shape != orig.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter "
                                 f"{name} of {module}")
        first = not isinstance(method, PruningContainer)
        if first:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:  # leave the module as it was
                orig = getattr(module, name + "_orig")
                module.register_parameter(name, orig)
                del module._parameters[name + "_orig"]
            raise
        return method

    @classmethod
    def _compose(cls, module, name, *args, **kwargs):
        """This rule, combined with the one already pruning module.name."""
        old = [(k, h) for k, h in module._forward_pre_hooks.items()
               if isinstance(h, BasePruningMethod) and h._tensor_name == name]
        if len(old) > 1:
            raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} "
                                 f"of module {module}. Use a PruningContainer.")
        for k, _ in old:
            del module._forward_pre_hooks[k]
        method = cls(*args, **kwargs)
        method._tensor_name = name
        if not old:
            return method
        previous = old[0][1]
        if isinstance(previous, PruningContainer):
            previous.add_pruning_method(method)
            return previous
        container = PruningContainer(previous)
        container.add_pruning_method(method)
        return container

    def prune(self, t, default_mask=None, importance_scores=None):
        """[t] with this rule's mask applied (nothing is registered)."""
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError("importance_scores should have the same shape as tensor t")
        if default_mask is None:
            default_mask = torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module):
        """Make the pruning permanent: module.name becomes a parameter holding
        the masked values; name_orig and name_mask go."""
        assert self._tensor_name is not None, \
            f"Module {module} has to be pruned before pruning can be removed"
        name = self._tensor_name
        weight = self.apply_mask(module)
        if hasattr(module, name):
            delattr(module, name)
        orig = module._parameters[name + "_orig"]
        orig.data = weight.data
        del module._parameters[name + "_orig"]
        del module._buffers[name + "_mask"]
        setattr(module, name, orig)


class PruningContainer(BasePruningMethod):
    """The rules applied to one parameter, in order; the newest one acts
    on what the earlier ones kept."""

    def __init__(self, *args):
        self._pruning_methods = tuple()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method):
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        kind = method.PRUNING_TYPE
        mask = default_mask.to(dtype=t.dtype)
        if kind == "unstructured":
            where = default_mask == 1  # the entries still kept
        elif kind == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have '
                                     "the attribute `dim` defined.")
            nd = t.dim()
            dim = method.dim + nd if method.dim < 0 else method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor with dimensions {nd}")
            alive = default_mask.sum(dim=[d for d in range(nd) if d != dim]) != 0
            where = [slice(None)] * nd
            where[dim] = alive
            where = tuple(where)
        elif kind == "global":
            where = tuple([slice(None)] * t.dim())
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {kind}")
        part = method.compute_mask(t[where], default_mask=default_mask[where])
        mask[where] = part.to(dtype=mask.dtype)
        return mask


class Identity(BasePruningMethod):
    """Prunes nothing: the reparametrization alone (a mask of ones)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class RandomUnstructured(BasePruningMethod):
    """Prunes [amount] entries chosen at random (torch's generator)."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _check_amount(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        k = _how_many(self.amount, t.nelement())
        # the draws happen only when something is pruned, as in PyTorch
        return _zero_extremes(default_mask, torch.rand_like(t) if k else None, k, largest=True)

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    """Prunes the [amount] entries of smallest absolute value."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _check_amount(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        k = _how_many(self.amount, t.nelement())
        return _zero_extremes(default_mask, torch.abs(t) if k else None, k, largest=False)

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes [amount] whole channels along [dim], chosen at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1):
        _check_amount(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        k = _how_many(self.amount, channels)
        if k == 0:
            return default_mask
        draws = torch.rand(channels)
        cut = torch.kthvalue(draws, k=k).values
        mask = _channels_mask(t, self.dim, draws > cut)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the [amount] channels along [dim] of smallest L[n] norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1):
        _check_amount(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        k = _how_many(self.amount, channels)
        keep = torch.topk(_channel_norms(t, self.n, self.dim), k=channels - k, largest=True)
        if k == 0:
            return default_mask
        mask = _channels_mask(t, self.dim, keep.indices)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where a given mask is 0."""

    PRUNING_TYPE = "global"

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        assert default_mask.shape == self.mask.shape
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


# ---- the functions ----

def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """Prune across several parameters at once, as if they were one vector:
    e.g. the 20% smallest weights of the whole network (L1Unstructured)."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = {} if importance_scores is None else importance_scores
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    parameters = list(parameters)
    from torch.nn.utils import parameters_to_vector
    scores = parameters_to_vector([importance_scores.get((m, n), getattr(m, n))
                                   for m, n in parameters])
    start = parameters_to_vector([getattr(m, n + "_mask", torch.ones_like(getattr(m, n)))
                                  for m, n in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    final = container.compute_mask(scores, start)
    at = 0
    for m, n in parameters:
        p = getattr(m, n)
        custom_from_mask(m, n, mask=final[at:at + p.numel()].view_as(p))
        at += p.numel()


def remove(module, name):
    """Make the pruning of module.name permanent (see the module's doc)."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module):
    """Whether any submodule of [module] has a pruning hook."""
    return any(isinstance(h, BasePruningMethod)
               for _, sub in module.named_modules() for h in sub._forward_pre_hooks.values())

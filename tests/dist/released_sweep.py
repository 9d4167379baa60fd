"""Every torch.*, Tensor.* and torch.nn.functional.* callable, given a tensor
whose bytes are released (an FSDP weight between uses: torch._C._dist_flat_free),
raises or returns but never crashes nor reads the freed memory (run under the
ASan build too). One process, no MPI. Prints "swept N calls"."""
import torch
import torch._C as _C
import torch.nn.functional as F


def released():
    """A (3, 4) view of a flat parameter whose bytes are given back (fresh for
    every call: resize_, set_, as_strided_ would change a shared one)."""
    flat = _C._dist_flat_new(16)
    flat.copy_(torch.arange(16.0))
    k = flat[4:].view(3, 4)
    _C._dist_flat_free(flat)
    return k


SKIP = {"__del__", "__init__", "__new__", "__init_subclass__", "__subclasshook__", "__reduce_ex__",
        "__reduce__", "__getstate__", "__setstate__", "__class__", "__delattr__", "__setattr__",
        "__dir__", "__sizeof__", "register_hook", "backward", "save", "load", "set_default_dtype",
        "set_num_threads", "manual_seed", "set_rng_state", "compile", "set_printoptions",
        "set_default_tensor_type", "set_grad_enabled", "use_deterministic_algorithms"}


def tensor_attr(n):
    return lambda k, *a: getattr(k, n)(*a)  # a property raises or returns on access


def module_attr(mod, n):
    return lambda k, *a: getattr(mod, n)(k, *a)


K = object()  # stands for another released tensor in an argument list
groups = [
    ([tensor_attr(n) for n in dir(torch.Tensor) if n not in SKIP], [(), (K,), (0,), (1.0,)]),
    ([module_attr(torch, n) for n in dir(torch) if n not in SKIP and not n[0].isupper()],
     [(), (K,), (0,), ([K, K],)]),
    ([module_attr(F, n) for n in dir(F) if not n[0].isupper()], [(), (K,), (K, K)]),
]
calls = 0
for fns, argsets in groups:
    for fn in fns:
        for args in argsets:
            calls += 1
            args = [released() if a is K else [released(), released()] if isinstance(a, list)
                    else a for a in args]
            try:
                fn(released(), *args)
            except BaseException:  # noqa: B036 (SystemExit from odd callables included)
                pass
torch.set_grad_enabled(True)
print(f"swept {calls} calls")

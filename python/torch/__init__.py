"""nndb's torch: PyTorch's API over nndb's C engine.

The native core is torch._C (the engine, built into the nndb binary); what
PyTorch writes in Python (nn.Module and the layers, optimizers, schedulers,
data loading) is Python here too, in this package.
"""

from torch import _C
from torch._C import (  # noqa: F401
    Size, dtype, float32, float, float64, double, int64, long, int32, int, int16, short,
    int8, uint8, bool, float16, half, bfloat16, complex64, cfloat, complex128, cdouble,
    tensor, as_tensor, from_numpy, zeros, ones, empty, rand, randn, full,
    zeros_like, ones_like, empty_like, rand_like, randn_like, full_like,
    arange, linspace, eye, randint, randperm,
    is_grad_enabled, get_default_dtype, set_default_dtype, set_num_threads,
    get_num_threads, is_tensor, numel,
)
from torch._tensor import Tensor  # noqa: F401
from torch._memory_format import (  # noqa: F401
    memory_format, contiguous_format, preserve_format, channels_last, channels_last_3d,
    legacy_contiguous_format, layout, strided)
from torch._device import device  # noqa: F401
from torch.autograd.grad_mode import (  # noqa: F401
    no_grad, enable_grad, set_grad_enabled, inference_mode)
from torch.autograd.anomaly_mode import (  # noqa: F401
    is_anomaly_enabled, set_anomaly_enabled, is_anomaly_check_nan_enabled)
from torch._ops_table import *  # noqa: F401,F403
# After the op table: torch.manual_seed is the one that returns the generator.
from torch._random import (  # noqa: F401
    Generator, manual_seed, seed, initial_seed, get_rng_state, set_rng_state, default_generator,
    randint_like, poisson, binomial)
from torch.storage import *  # noqa: F401,F403
from torch.serialization import save, load  # noqa: F401
from torch._tensor_str import set_printoptions, get_printoptions  # noqa: F401
from torch._type_info import finfo, iinfo  # noqa: F401
from torch._legacy_tensor import *  # noqa: F401,F403
from torch._histogram import histogram  # noqa: F401,E402
from torch import linalg  # noqa: F401,E402
from torch._linalg_legacy import *  # noqa: F401,F403,E402
from torch._promotion import (  # noqa: F401
    promote_types, result_type, can_cast, is_floating_point, is_complex, is_nonzero,
    is_same_size, is_storage, typename, broadcast_shapes, use_deterministic_algorithms,
    are_deterministic_algorithms_enabled, is_deterministic_algorithms_warn_only_enabled,
    set_flush_denormal, is_inference_mode_enabled)


def _add_tensor_functions():
    # torch.NAME for the Tensor methods written in Python (torch._tensor_more),
    # where torch._C has no function of that name.
    from torch import _tensor_more
    names = globals()
    for name in _tensor_more.TORCH_FUNCTIONS:
        if name not in names:
            names[name] = getattr(Tensor, name)
    from torch import _tensor_ops
    for name, fn in _tensor_ops.FUNCTIONS.items():
        names.setdefault(name, fn)
    names.update(_tensor_ops.OVERRIDES)
    _tensor_ops._add_surface(names)
    names.setdefault("real", _tensor_more.real)
    names.setdefault("imag", _tensor_more.imag)


_add_tensor_functions()
del _add_tensor_functions

from torch import _complex  # noqa: E402
_complex.install(Tensor, globals())
from torch import _aliases  # noqa: E402
_aliases.install(Tensor, globals())
from torch import fft  # noqa: F401,E402

# The docstrings of the functions and methods written in C, as PyTorch attaches them.
from torch import _torch_docs, _tensor_docs  # noqa: F401,E402
from torch import _tensor_ops  # noqa: E402
_tensor_ops.copy_docs()  # the Python wrappers over C functions take the C docstrings
_complex.copy_docs()

from torch.torch_version import __version__  # noqa: E402  (a str that compares as a version)

# Mixed precision: autocast's state (binding/py_autocast.c) under PyTorch's names.
from torch._C import (  # noqa: F401,E402
    set_autocast_cpu_enabled, is_autocast_cpu_enabled, set_autocast_cpu_dtype,
    get_autocast_cpu_dtype, set_autocast_enabled, is_autocast_enabled, set_autocast_gpu_dtype,
    get_autocast_gpu_dtype, autocast_increment_nesting, autocast_decrement_nesting,
    clear_autocast_cache, is_autocast_cache_enabled, set_autocast_cache_enabled,
)
from torch.amp.grad_scaler import (  # noqa: F401,E402
    _amp_foreach_non_finite_check_and_unscale_, _amp_update_scale_)
# Quantized dtypes and schemes by name; torch/_qtensor.py says what they are.
from torch._qtensor import (  # noqa: F401,E402
    qint8, quint8, qint32, per_tensor_affine, per_tensor_symmetric, per_channel_affine,
    per_channel_symmetric, quantize_per_tensor)


def _import_optional():
    # Subpackages that PyTorch imports with torch; they are cheap here.
    import torch.autograd  # noqa: F401
    import torch.nn  # noqa: F401
    import torch.optim  # noqa: F401
    import torch.utils  # noqa: F401
    import torch.utils.data  # noqa: F401
    import torch.cuda  # noqa: F401
    import torch.backends  # noqa: F401
    import torch.masked  # noqa: F401
    import torch.testing  # noqa: F401
    import torch.special  # noqa: F401
    import torch.amp  # noqa: F401
    import torch.cpu  # noqa: F401
    import torch.cuda.amp  # noqa: F401
    import torch.quantization  # noqa: F401
    import torch.distributions  # noqa: F401
    import torch.jit  # noqa: F401
    import torch.profiler  # noqa: F401
    global autocast
    from torch.amp import autocast


_import_optional()
del _import_optional

# The docstrings of the functions and methods written in Python, set last:
# autocast (torch.amp, imported above) wraps some of them, and torch.addmm
# is Tensor.addmm until it does, while their texts differ.
_torch_docs.attach_python(globals())
_tensor_docs.attach_python(Tensor)

# out= for the functions written in Python that take it in PyTorch
# (torch/_out.py); after the docstrings, which the wrappers keep
from torch import _out  # noqa: E402
_out.install(globals())


def _set_builtin_modules():
    # PyTorch sets __module__ = "torch" on the functions of torch._C it
    # puts in torch (torch/__init__.py), so torch.add.__module__ is "torch".
    for value in list(globals().values()):
        if type(value) is type(_C.add) and value.__module__ == "torch._C":
            value.__module__ = "torch"


_set_builtin_modules()
del _set_builtin_modules


def _public_names():
    # `from torch import *` takes functions and classes, as PyTorch's
    # __all__ does: never the dtype objects (torch.float, torch.int and
    # torch.bool would shadow Python's float, int and bool) nor submodules.
    import types
    return sorted(name for name, value in globals().items()
                  if not name.startswith("_")
                  and not isinstance(value, (types.ModuleType, dtype)))


__all__ = _public_names()
del _public_names

# Submodules PyTorch's `import torch` makes attributes (after __all__, which
# takes no modules).
from torch import version, random, return_types, functional  # noqa: F401,E402


def _lazy_submodule(name):
    """torch.NAME as a module that runs on its first attribute access
    (importlib's LazyLoader): torch.multiprocessing imports Python's
    multiprocessing, about 20 ms that `import torch` need not pay."""
    import importlib.util
    import sys
    spec = importlib.util.find_spec(f"torch.{name}")
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


multiprocessing = _lazy_submodule("multiprocessing")
del _lazy_submodule

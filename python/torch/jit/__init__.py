"""torch.jit in nndb: TorchScript's decorators and entry points, run
eagerly.

nndb has no TorchScript compiler: `torch.jit.script` and `torch.jit.trace`
give back the module or function they were handed (trace runs it once on
the example inputs first, so a wrong shape fails where the learner called
trace), and the decorators (`ignore`, `unused`, `export`, ...) leave what
they decorate as it is. So course code that scripts a model for speed runs
unchanged and computes the same values; what it cannot do is write or
read a TorchScript archive: `save` and `load` say so and point to
`torch.save` of the state_dict. docs/python.md ("torch.jit") has the
list."""
import torch

__all__ = ["script", "trace", "trace_module", "ignore", "unused", "export", "interface",
           "is_scripting", "is_tracing", "annotate", "Final", "Attribute", "fork", "wait",
           "save", "load", "freeze", "optimize_for_inference", "ScriptModule", "ScriptFunction",
           "Error"]

_NO_ARCHIVE = ("nndb has no TorchScript: torch.jit.{} cannot {} a TorchScript archive. Save "
               "the weights with torch.save(model.state_dict(), path) and load them into the "
               "model with model.load_state_dict(torch.load(path)).")


class Error(RuntimeError):
    """torch.jit.Error: what TorchScript raises for a failed assert or raise."""


class ScriptModule(torch.nn.Module):
    """The type TorchScript's modules have in PyTorch; nndb never makes one
    (script gives the module back), so isinstance(m, ScriptModule) is
    False, as it is for an eager module in PyTorch."""


class ScriptFunction:
    """The type of a scripted function in PyTorch; never made in nndb."""


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """torch.jit.script: [obj] itself (a module, function or class), which
    then runs eagerly."""
    return obj


def _as_tuple(inputs):
    return inputs if isinstance(inputs, tuple) else (inputs,)


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None):
    """torch.jit.trace: runs [func] once on [example_inputs] without
    recording gradients, as tracing does, and gives [func] back."""
    if example_inputs is None and example_kwarg_inputs is None:
        raise RuntimeError("example_inputs or example_kwarg_inputs must be given to trace")
    with torch.no_grad():
        if example_kwarg_inputs is not None:
            func(**example_kwarg_inputs)
        else:
            func(*_as_tuple(example_inputs))
    return func


def trace_module(mod, inputs, **kwargs):
    """torch.jit.trace_module: runs each named method once on its inputs
    and gives the module back."""
    with torch.no_grad():
        for name, args in inputs.items():
            getattr(mod, name)(*_as_tuple(args))
    return mod


def ignore(drop=False, **kwargs):
    """@torch.jit.ignore and @torch.jit.ignore(drop=...): the function as
    it is."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def interface(obj):
    return obj


def is_scripting():
    """False: nndb runs everything eagerly."""
    return False


def is_tracing():
    return False


def annotate(the_type, the_value):
    return the_value


class _FinalType:
    def __getitem__(self, item):
        return item


Final = _FinalType()


def Attribute(value, type=None):  # noqa: N802 (PyTorch's name)
    return value


class _Future:
    def __init__(self, value):
        self._value = value

    def wait(self):
        return self._value

    def value(self):
        return self._value

    def done(self):
        return True


def fork(func, *args, **kwargs):
    """torch.jit.fork: runs [func] now and returns a future holding its
    result (TorchScript's fork may run it on another thread; the result is
    the same)."""
    return _Future(func(*args, **kwargs))


def wait(future):
    return future.wait()


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    return mod


def optimize_for_inference(mod, other_methods=None):
    return mod


def save(m, f, _extra_files=None):
    raise RuntimeError(_NO_ARCHIVE.format("save", "write"))


def load(f, map_location=None, _extra_files=None):
    raise RuntimeError(_NO_ARCHIVE.format("load", "read"))

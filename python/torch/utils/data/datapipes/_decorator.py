"""functional_datapipe and the determinism/validation decorators of
torch.utils.data.datapipes (type validation is not done in nndb: see
datapipe.py)."""

import inspect
from functools import wraps

from torch.utils.data.datapipes.datapipe import IterDataPipe, MapDataPipe


class functional_datapipe(object):
    def __init__(self, name, enable_df_api_tracing=False):
        self.name = name
        self.enable_df_api_tracing = enable_df_api_tracing

    def __call__(self, cls):
        if isinstance(cls, type) and issubclass(cls, IterDataPipe):
            IterDataPipe.register_datapipe_as_function(self.name, cls)
        elif isinstance(cls, non_deterministic):
            IterDataPipe.register_datapipe_as_function(self.name, cls)
        elif isinstance(cls, type) and issubclass(cls, MapDataPipe):
            MapDataPipe.register_datapipe_as_function(self.name, cls)
        else:
            raise TypeError("`functional_datapipe` can only decorate IterDataPipe")
        return cls


_determinism = False


class guaranteed_datapipes_determinism(object):
    def __init__(self):
        global _determinism
        self.prev = _determinism
        _determinism = True

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        global _determinism
        _determinism = self.prev


class non_deterministic(object):
    cls = None

    def __init__(self, arg):
        if isinstance(arg, type):
            if not issubclass(arg, IterDataPipe):
                raise TypeError("Only `IterDataPipe` can be decorated with `non_deterministic`"
                                ", but {} is found".format(arg.__name__))
            self.cls = arg
        elif callable(arg):
            self.deterministic_fn = arg
        else:
            raise TypeError("{} can not be decorated by non_deterministic".format(arg))

    def __call__(self, *args, **kwargs):
        if self.cls is not None:
            if _determinism:
                raise TypeError("{} is non-deterministic, but you set "
                                "'guaranteed_datapipes_determinism'. You can turn off "
                                "determinism for this DataPipe if that is acceptable for your "
                                "application".format(self.cls.__name__))
            return self.cls(*args, **kwargs)
        if not (isinstance(args[0], type) and issubclass(args[0], IterDataPipe)):
            raise TypeError("Only `IterDataPipe` can be decorated, but {} is found"
                            .format(args[0].__name__))
        self.cls = args[0]
        return self.deterministic_wrapper_fn

    def deterministic_wrapper_fn(self, *args, **kwargs):
        res = self.deterministic_fn(*args, **kwargs)
        if not isinstance(res, bool):
            raise TypeError("deterministic_fn of `non_deterministic` decorator is required "
                            "to return a boolean value, but {} is found".format(type(res)))
        if _determinism and res:
            raise TypeError("{} is non-deterministic with the inputs, but you set "
                            "'guaranteed_datapipes_determinism'. You can turn off determinism "
                            "for this DataPipe if that is acceptable for your application"
                            .format(self.cls.__name__))
        return self.cls(*args, **kwargs)


def argument_validation(f):
    """argument_validation(f) -> Callable

    A decorator: checks that the arguments of f annotated with an
    IterDataPipe type are IterDataPipes (the element types are not checked
    in nndb).
    """
    signature = inspect.signature(f)
    hints = getattr(f, "__annotations__", {})

    @wraps(f)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        for name, value in bound.arguments.items():
            hint = hints.get(name)
            origin = getattr(hint, "__origin__", hint)
            if isinstance(origin, type) and issubclass(origin, IterDataPipe) and \
                    not isinstance(value, IterDataPipe):
                raise TypeError("Expected argument '{}' as a IterDataPipe, but found {}"
                                .format(name, type(value)))
        return f(*args, **kwargs)
    return wrapper


_runtime_validation_enabled = True


class runtime_validation_disabled(object):
    def __init__(self):
        global _runtime_validation_enabled
        self.prev = _runtime_validation_enabled
        _runtime_validation_enabled = False

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        global _runtime_validation_enabled
        _runtime_validation_enabled = self.prev


def runtime_validation(f):
    """runtime_validation(f) -> Callable

    A decorator for a DataPipe's __iter__: PyTorch checks each item against
    the DataPipe's declared element type, nndb passes them through.
    """
    if f.__name__ != "__iter__":
        raise TypeError("Can not decorate function {} with 'runtime_validation'"
                        .format(f.__name__))

    @wraps(f)
    def wrapper(self):
        yield from f(self)
    return wrapper

"""IterDataPipe and MapDataPipe, as PyTorch 1.13 has them.

A DataPipe wraps another and is chained by name: dp.map(f).filter(g).batch(4)
calls the classes registered with @functional_datapipe. As in PyTorch,
starting an iteration over an IterDataPipe calls its reset() when the first
element is asked for (the Shuffler draws its seed there). What nndb leaves
out: the type annotations are not checked at run time (runtime_validation
passes items through), and a second iterator over the same DataPipe does
not invalidate the first.
"""

import functools
from typing import Generic, Iterator, TypeVar

from torch.utils.data.dataset import Dataset, IterableDataset

__all__ = ["DataChunk", "DFIterDataPipe", "IterDataPipe", "MapDataPipe"]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


def _reset_on_start(iter_fn):
    """Wrap a generator __iter__ so that reset() runs when iteration starts,
    as PyTorch's iterator hook does."""
    import inspect
    if not inspect.isgeneratorfunction(iter_fn):
        return iter_fn

    @functools.wraps(iter_fn)
    def wrapper(self):
        self._valid_iterator_id = 0 if self._valid_iterator_id is None \
            else self._valid_iterator_id + 1
        self.reset()
        self._number_of_samples_yielded = 0
        for item in iter_fn(self):
            self._number_of_samples_yielded += 1
            yield item
    wrapper._nndb_hooked = True
    return wrapper


class IterDataPipe(IterableDataset[T_co]):
    functions = {}
    reduce_ex_hook = None
    getstate_hook = None
    str_hook = None
    repr_hook = None
    _valid_iterator_id = None
    _number_of_samples_yielded = 0

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fn = cls.__dict__.get("__iter__")
        if fn is not None and not getattr(fn, "_nndb_hooked", False):
            cls.__iter__ = _reset_on_start(fn)

    def __getattr__(self, attribute_name):
        if attribute_name in IterDataPipe.functions:
            return functools.partial(IterDataPipe.functions[attribute_name], self)
        raise AttributeError("'{0}' object has no attribute '{1}".format(
            self.__class__.__name__, attribute_name))

    @classmethod
    def register_function(cls, function_name, function):
        cls.functions[function_name] = function

    @classmethod
    def register_datapipe_as_function(cls, function_name, cls_to_register,
                                      enable_df_api_tracing=False):
        if function_name in cls.functions:
            raise Exception("Unable to add DataPipe function name {} as it is already "
                            "taken".format(function_name))

        def class_function(source_dp, *args, **kwargs):
            return cls_to_register(source_dp, *args, **kwargs)
        cls.functions[function_name] = class_function

    def __getstate__(self):
        state = self.__dict__
        if IterDataPipe.getstate_hook is not None:
            return IterDataPipe.getstate_hook(state)
        return state

    def __reduce_ex__(self, *args, **kwargs):
        if IterDataPipe.reduce_ex_hook is not None:
            try:
                return IterDataPipe.reduce_ex_hook(self)
            except NotImplementedError:
                pass
        return super().__reduce_ex__(*args, **kwargs)

    @classmethod
    def set_getstate_hook(cls, hook_fn):
        if IterDataPipe.getstate_hook is not None and hook_fn is not None:
            raise Exception("Attempt to override existing getstate_hook")
        IterDataPipe.getstate_hook = hook_fn

    @classmethod
    def set_reduce_ex_hook(cls, hook_fn):
        if IterDataPipe.reduce_ex_hook is not None and hook_fn is not None:
            raise Exception("Attempt to override existing reduce_ex_hook")
        IterDataPipe.reduce_ex_hook = hook_fn

    def __repr__(self):
        if self.repr_hook is not None:
            return self.repr_hook(self)
        return str(self.__class__.__qualname__)

    def __str__(self):
        if self.str_hook is not None:
            return self.str_hook(self)
        return str(self.__class__.__qualname__)

    def __dir__(self):
        return list(super().__dir__()) + list(self.functions.keys())

    def reset(self):
        pass


class DFIterDataPipe(IterDataPipe):
    def _is_dfpipe(self):
        return True


class MapDataPipe(Dataset[T_co]):
    functions = {}
    reduce_ex_hook = None
    getstate_hook = None
    str_hook = None
    repr_hook = None

    def __getattr__(self, attribute_name):
        if attribute_name in MapDataPipe.functions:
            return functools.partial(MapDataPipe.functions[attribute_name], self)
        raise AttributeError("'{0}' object has no attribute '{1}".format(
            self.__class__.__name__, attribute_name))

    @classmethod
    def register_function(cls, function_name, function):
        cls.functions[function_name] = function

    @classmethod
    def register_datapipe_as_function(cls, function_name, cls_to_register):
        if function_name in cls.functions:
            raise Exception("Unable to add DataPipe function name {} as it is already "
                            "taken".format(function_name))

        def class_function(source_dp, *args, **kwargs):
            return cls_to_register(source_dp, *args, **kwargs)
        cls.functions[function_name] = class_function

    def __getstate__(self):
        state = self.__dict__
        if MapDataPipe.getstate_hook is not None:
            return MapDataPipe.getstate_hook(state)
        return state

    def __reduce_ex__(self, *args, **kwargs):
        if MapDataPipe.reduce_ex_hook is not None:
            try:
                return MapDataPipe.reduce_ex_hook(self)
            except NotImplementedError:
                pass
        return super().__reduce_ex__(*args, **kwargs)

    @classmethod
    def set_getstate_hook(cls, hook_fn):
        if MapDataPipe.getstate_hook is not None and hook_fn is not None:
            raise Exception("Attempt to override existing getstate_hook")
        MapDataPipe.getstate_hook = hook_fn

    @classmethod
    def set_reduce_ex_hook(cls, hook_fn):
        if MapDataPipe.reduce_ex_hook is not None and hook_fn is not None:
            raise Exception("Attempt to override existing reduce_ex_hook")
        MapDataPipe.reduce_ex_hook = hook_fn

    def __repr__(self):
        if self.repr_hook is not None:
            return self.repr_hook(self)
        return str(self.__class__.__qualname__)

    def __str__(self):
        if self.str_hook is not None:
            return self.str_hook(self)
        return str(self.__class__.__qualname__)

    def __dir__(self):
        return list(super().__dir__()) + list(self.functions.keys())


class DataChunk(list, Generic[T]):
    def __init__(self, items):
        super().__init__(items)
        self.items = items

    def as_str(self, indent=""):
        return indent + "[" + ", ".join(str(i) for i in iter(self)) + "]"

    def __iter__(self) -> Iterator[T]:
        for i in super().__iter__():
            yield i

    def raw_iterator(self):
        for i in self.items:
            yield i

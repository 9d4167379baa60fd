"""Grad mode: no_grad, enable_grad, set_grad_enabled and inference_mode, as
context managers and decorators (of functions, methods and generator
functions, with or without the call parentheses), over the engine's
per-session flag."""

import functools
import inspect

from torch import _C

# How many inference_mode(True) blocks are open (is_inference_mode_enabled).
_inference_depth = 0


class _DecoratorContextManager:
    def __new__(cls, *args, **kwargs):
        # @torch.no_grad without parentheses: the class gets the function.
        if len(args) == 1 and not kwargs and callable(args[0]) and cls._bare_decorator:
            return cls()(args[0])
        return super().__new__(cls)

    _bare_decorator = False

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException as e:
                        with self.clone():
                            response = gen.throw(e)
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as e:
                return e.value
        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    """Ops inside do not record autograd history."""

    _bare_decorator = True

    def __enter__(self):
        self.prev = _C._set_grad_enabled(False)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)
        return False


class enable_grad(_DecoratorContextManager):
    _bare_decorator = True

    def __enter__(self):
        self.prev = _C._set_grad_enabled(True)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)
        return False


class inference_mode(_DecoratorContextManager):
    """no_grad, as nndb has no separate inference tensors."""

    _bare_decorator = True

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        global _inference_depth
        self.prev = _C._set_grad_enabled(not self.mode)
        self.prev_depth = _inference_depth
        _inference_depth = _inference_depth + 1 if self.mode else 0

    def __exit__(self, *exc):
        global _inference_depth
        _C._set_grad_enabled(self.prev)
        _inference_depth = self.prev_depth
        return False

    def clone(self):
        return self.__class__(self.mode)


class set_grad_enabled(_DecoratorContextManager):
    def __init__(self, mode):
        self.prev = _C._set_grad_enabled(mode)
        self.mode = mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.prev)
        return False

    def __call__(self, func):
        _C._set_grad_enabled(self.prev)
        return super().__call__(func)

    def clone(self):
        return self.__class__(self.mode)

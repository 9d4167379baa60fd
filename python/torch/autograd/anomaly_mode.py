"""torch.autograd's anomaly mode, as nndb's NaN hunt.

PyTorch's anomaly mode checks each backward function's results and names
the function whose output held a NaN. nndb's (nndb/debugger.py over the
engine's executor hook) checks every forward and backward node and stops
at the one where a NaN or an infinity is *born*, with an AnomalyError that
names the op, its module path, the user's source line and the input values
there (docs/debugger.md). With the mode off no hook is registered.
"""

import warnings


def _debugger():
    from nndb import debugger
    return debugger


def is_anomaly_enabled():
    """is_anomaly_enabled() -> bool

    Whether autograd's anomaly detection is on (torch.autograd.detect_anomaly,
    set_detect_anomaly, set_anomaly_enabled).

    Example::

        >>> torch.is_anomaly_enabled()
        False
    """
    return _debugger().is_anomaly_enabled()


# PyTorch keeps check_nan as its own flag (True until someone sets it)
_check_nan = [True]


def is_anomaly_check_nan_enabled():
    """is_anomaly_check_nan_enabled() -> bool

    Whether anomaly detection also checks each backward result for nan (the
    check_nan of the last detect_anomaly, set_detect_anomaly or
    set_anomaly_enabled).
    """
    return _check_nan[0]


def set_anomaly_enabled(enabled, check_nan=True):
    """set_anomaly_enabled(enabled, check_nan=True) -> None

    Turn autograd's anomaly detection on or off (what
    torch.autograd.set_detect_anomaly does): backward then says which forward
    operation made a failing gradient, and with check_nan raises where a
    gradient becomes nan.
    """
    _check_nan[0] = bool(check_nan)
    _debugger().set_anomaly(bool(enabled) and check_nan)


class detect_anomaly:
    """A context manager (or decorator) that turns anomaly mode on for its
    block and restores it afterwards."""

    def __init__(self, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = _check_nan[0]
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        _check_nan[0] = bool(self.check_nan)
        _debugger().set_anomaly(self.check_nan)

    def __exit__(self, *args):
        _check_nan[0] = self.prev_check_nan
        _debugger().set_anomaly(self.prev)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper


class set_detect_anomaly:
    """set_detect_anomaly(mode): turn anomaly mode on or off; as a context
    manager, restore the previous mode on exit."""

    def __init__(self, mode, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = _check_nan[0]
        _check_nan[0] = bool(check_nan)
        _debugger().set_anomaly(bool(mode) and check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        _check_nan[0] = self.prev_check_nan
        _debugger().set_anomaly(self.prev)
        return False

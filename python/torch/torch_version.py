"""torch.__version__ as PyTorch gives it: a str that also compares as a
version, so `torch.__version__ >= (1, 10)` and `torch.__version__ < "1.9"`
mean what they say (a plain str compares "1.13.1" < "1.9"). Comparisons use
Debian's `packaging` where it is installed (matplotlib needs it), else the
numbers of the release; what neither can read compares as a str, as in
PyTorch."""
from collections.abc import Iterable

_packaging = None  # packaging.version, imported at the first comparison


def _versions():
    """(Version, InvalidVersion) of Debian's packaging, or (None, ValueError)
    where it is not installed."""
    global _packaging
    if _packaging is None:
        try:
            from packaging import version as _packaging
        except ImportError:  # pragma: no cover - packaging comes with matplotlib
            _packaging = False
    return (_packaging.Version, _packaging.InvalidVersion) if _packaging else (None, ValueError)


def _release(text):
    """The version as a tuple of ints, without trailing zeros; ValueError for
    anything but dot-separated numbers."""
    parts = str(text).split(".")
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(text)
    nums = [int(p) for p in parts]
    while len(nums) > 1 and nums[-1] == 0:
        nums.pop()
    return tuple(nums)


def _parse(inp):
    Version, InvalidVersion = _versions()
    if Version is not None and isinstance(inp, Version):
        return inp
    if isinstance(inp, str):
        return Version(inp) if Version is not None else _release(inp)
    if isinstance(inp, Iterable):
        text = ".".join(str(item) for item in inp)
        return Version(text) if Version is not None else _release(text)
    raise InvalidVersion(inp)


class TorchVersion(str):
    """A str that compares with versions, tuples and strs as versions."""

    def _cmp(self, other, method):
        try:
            return getattr(_parse(str(self)), method)(_parse(other))
        except _versions()[1]:
            return getattr(super(), method)(other)

    def __gt__(self, other):
        return self._cmp(other, "__gt__")

    def __ge__(self, other):
        return self._cmp(other, "__ge__")

    def __lt__(self, other):
        return self._cmp(other, "__lt__")

    def __le__(self, other):
        return self._cmp(other, "__le__")

    def __eq__(self, other):
        return self._cmp(other, "__eq__")

    def __ne__(self, other):
        return self._cmp(other, "__ne__")

    __hash__ = str.__hash__


__version__ = TorchVersion("1.13.1")

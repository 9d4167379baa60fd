"""torch.testing.assert_close: compare tensors, numbers and containers of
them with dtype-based tolerances, and fail with PyTorch 1.13's messages.

Containers are walked in step (sequences by position, mappings by sorted
key); each leaf pair is compared by the first rule that accepts it: None,
booleans, numbers, then tensors (and numpy arrays). Values are compared in
float64 (int64 for integers), as torch promotes them for the comparison.
"""

import cmath
import collections.abc
import math

import torch

# (rtol, atol) by dtype; other dtypes compare exactly.
_DTYPE_PRECISIONS = {
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}

_NUMBER_DTYPES = {int: torch.int64, float: torch.float64}


class _Failure(Exception):
    """One comparison failed: the exception type to raise and its message,
    and where in the containers it happened."""

    def __init__(self, exc_type, msg, where=()):
        super().__init__(msg)
        self.exc_type = exc_type
        self.msg = msg
        self.where = where

    def to_error(self, msg=None):
        if isinstance(msg, str):
            return self.exc_type(msg)
        text = self.msg
        if self.where:
            text += "\n\nThe failure occurred for item {}".format(
                ''.join(str([item]) for item in self.where))
        return self.exc_type(msg(text) if callable(msg) else text)


class _Unsupported(Exception):
    """This rule does not handle these inputs; try the next."""


def default_tolerances(*inputs):
    """default_tolerances(*inputs) -> Tuple[float, float]

    The (rtol, atol) assert_close uses for these inputs (tensors or dtypes):
    the loosest among their dtypes.

    Example::

        >>> torch.testing._comparison.default_tolerances(torch.float32)
        (1.3e-06, 1e-05)
    """
    dtypes = []
    for x in inputs:
        if isinstance(x, torch.Tensor):
            dtypes.append(x.dtype)
        elif isinstance(x, torch.dtype):
            dtypes.append(x)
        else:
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(x)} instead.")
    rtols, atols = zip(*[_DTYPE_PRECISIONS.get(dt, (0.0, 0.0)) for dt in dtypes])
    return max(rtols), max(atols)


def _tolerances(*inputs, rtol, atol, where):
    if (rtol is None) != (atol is None):
        raise _Failure(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, "
                       "but got no {}.".format('rtol' if rtol is None else 'atol'), where)
    if rtol is not None:
        return rtol, atol
    return default_tolerances(*inputs)


def _mismatch_msg(default_identifier, identifier, extra, abs_diff, abs_idx, atol, rel_diff,
                  rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff_line(kind, diff, idx, tol):
        if idx is None:
            line = f"{kind.title()} difference: {diff}"
        else:
            line = f"Greatest {kind} difference: {diff} at index {idx}"
        if not equality:
            line += f" (up to {tol} allowed)"
        return line + "\n"

    if identifier is None:
        identifier = default_identifier
    elif callable(identifier):
        identifier = identifier(default_identifier)
    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += diff_line("absolute", abs_diff, abs_idx, atol)
    msg += diff_line("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_msg(actual, expected, rtol, atol, identifier=None):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", identifier, None, abs_diff, None, atol, rel_diff, None, rtol)


def _is_close(a, b, rtol, atol, equal_nan):
    """torch.isclose on two Python numbers (float64 or int64 values)."""
    if a == b:
        return True
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return equal_nan and math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return False
    return abs(a - b) <= atol + rtol * abs(b)


def _nan_max(values):
    """(value, index) of the largest, NaN winning, first one on ties (as
    torch.max over a dim)."""
    best, at = None, 0
    for i, v in enumerate(values):
        if best is None or v != v or (best == best and v > best):
            best, at = v, i
            if v != v:
                break
    return best, at


def _unravel(flat, shape):
    if not shape:
        return ()
    idx = []
    for size in reversed(shape):
        flat, mod = divmod(flat, size)
        idx.append(mod)
    return tuple(reversed(idx))


def _flat_values(t, floating):
    vals = t.reshape(-1).tolist()
    return [float(v) for v in vals] if floating else [int(v) for v in vals]


class _NonePair:
    def __init__(self, actual, expected, where, **options):
        if not (actual is None or expected is None):
            raise _Unsupported()
        self.actual, self.expected, self.where = actual, expected, where

    def compare(self):
        if not (self.actual is None and self.expected is None):
            raise _Failure(AssertionError,
                           f"None mismatch: {self.actual} is not {self.expected}", self.where)


class _BooleanPair:
    def __init__(self, actual, expected, where, **options):
        if not (_is_bool(actual) and _is_bool(expected)):
            raise _Unsupported()
        self.actual, self.expected, self.where = bool(actual), bool(expected), where

    def compare(self):
        if self.actual is not self.expected:
            raise _Failure(AssertionError,
                           f"Booleans mismatch: {self.actual} is not {self.expected}", self.where)


def _is_bool(x):
    return isinstance(x, bool) or type(x).__name__ == 'bool_'


def _is_number(x):
    if isinstance(x, (int, float, complex)) and not isinstance(x, bool):
        return True
    return type(x).__module__ == 'numpy' and hasattr(x, 'item') and getattr(x, 'shape', None) == ()


class _NumberPair:
    def __init__(self, actual, expected, where, rtol=None, atol=None, equal_nan=False,
                 check_dtype=False, **options):
        if not (_is_number(actual) and _is_number(expected)):
            raise _Unsupported()
        actual = actual.item() if hasattr(actual, 'item') else actual
        expected = expected.item() if hasattr(expected, 'item') else expected
        self.actual, self.expected, self.where = actual, expected, where
        dtypes = [_NUMBER_DTYPES.get(type(x), torch.float64) for x in (actual, expected)]
        self.rtol, self.atol = _tolerances(*dtypes, rtol=rtol, atol=atol, where=where)
        self.equal_nan = equal_nan
        self.check_dtype = check_dtype

    def compare(self):
        a, b = self.actual, self.expected
        if self.check_dtype and type(a) is not type(b):
            raise _Failure(AssertionError,
                           f"The (d)types do not match: {type(a)} != {type(b)}.", self.where)
        if a == b:
            return
        if self.equal_nan and cmath.isnan(a) and cmath.isnan(b):
            return
        abs_diff = abs(a - b)
        if cmath.isfinite(abs_diff) and abs_diff <= self.atol + self.rtol * abs(b):
            return
        raise _Failure(AssertionError, _scalar_msg(a, b, self.rtol, self.atol), self.where)


class _TensorPair:
    def __init__(self, actual, expected, where, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, **options):
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not related:
            raise _Unsupported()
        if not allow_subclasses and type(actual) is not type(expected):
            raise _Unsupported()
        actual, expected = self._to_tensor(actual), self._to_tensor(expected)
        self.actual, self.expected, self.where = actual, expected, where
        self.rtol, self.atol = _tolerances(actual, expected, rtol=rtol, atol=atol, where=where)
        self.equal_nan = equal_nan
        self.check_device = check_device
        self.check_dtype = check_dtype
        self.check_stride = check_stride

    @staticmethod
    def _to_tensor(x):
        if isinstance(x, torch.Tensor):
            return x
        try:
            return torch.as_tensor(x)
        except Exception:
            raise _Unsupported()

    def _attribute_mismatch(self, name, a, b):
        raise _Failure(AssertionError,
                       f"The values for attribute '{name}' do not match: {a} != {b}.", self.where)

    def compare(self):
        a, b = self.actual, self.expected
        if a.shape != b.shape:
            self._attribute_mismatch('shape', a.shape, b.shape)
        if self.check_stride and a.stride() != b.stride():
            self._attribute_mismatch('stride()', a.stride(), b.stride())
        if self.check_dtype and a.dtype != b.dtype:
            self._attribute_mismatch('dtype', a.dtype, b.dtype)
        self.compare_values(a, b, self.rtol, self.atol, self.equal_nan)

    def compare_values(self, a, b, rtol, atol, equal_nan, identifier=None):
        floating = a.is_floating_point() or b.is_floating_point()
        av, bv = _flat_values(a, floating), _flat_values(b, floating)
        mismatched = [not _is_close(x, y, rtol, atol, equal_nan) for x, y in zip(av, bv)]
        if not any(mismatched):
            return
        if a.dim() == 0:
            raise _Failure(AssertionError, _scalar_msg(av[0], bv[0], rtol, atol, identifier),
                           self.where)
        total = sum(mismatched)
        n = len(mismatched)
        extra = f"Mismatched elements: {total} / {n} ({total / n:.1%})"
        abs_diffs = [abs(x - y) if bad else 0 for x, y, bad in zip(av, bv, mismatched)]
        rel_diffs = [_ratio(d, abs(y)) if bad else 0
                     for d, y, bad in zip(abs_diffs, bv, mismatched)]
        max_abs, abs_at = _nan_max(abs_diffs)
        max_rel, rel_at = _nan_max(rel_diffs)
        shape = tuple(a.shape)
        raise _Failure(AssertionError,
                       _mismatch_msg("Tensor-likes", identifier, extra, max_abs,
                                     _unravel(abs_at, shape), atol, float(max_rel),
                                     _unravel(rel_at, shape), rtol), self.where)


def _ratio(num, den):
    # torch's float64 division: x / 0 is inf, 0 / 0 is nan.
    if den == 0:
        return math.nan if num == 0 or num != num else math.inf
    return num / den


_PAIRS = (_NonePair, _BooleanPair, _NumberPair, _TensorPair)


def _originate(actual, expected, where, options):
    seq = collections.abc.Sequence
    if (isinstance(actual, seq) and not isinstance(actual, str) and isinstance(expected, seq)
            and not isinstance(expected, str)):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, "The length of the sequences mismatch: "
                           f"{len(actual)} != {len(expected)}", where)
        pairs = []
        for i in range(len(actual)):
            pairs.extend(_originate(actual[i], expected[i], (*where, i), options))
        return pairs
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        akeys, ekeys = set(actual.keys()), set(expected.keys())
        if akeys != ekeys:
            raise _Failure(AssertionError,
                           "The keys of the mappings do not match:\n"
                           f"Missing keys in the actual mapping: {sorted(ekeys - akeys)}\n"
                           f"Additional keys in the actual mapping: {sorted(akeys - ekeys)}",
                           where)
        keys = akeys
        try:
            keys = sorted(keys)
        except Exception:
            pass
        pairs = []
        for k in keys:
            pairs.extend(_originate(actual[k], expected[k], (*where, k), options))
        return pairs
    for pair_type in _PAIRS:
        try:
            return [pair_type(actual, expected, where, **options)]
        except _Unsupported:
            continue
    raise _Failure(TypeError, "No comparison pair was able to handle inputs of type "
                   f"{type(actual)} and {type(expected)}.", where)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False, check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None) -> None

    Raise AssertionError unless actual and expected (tensors, numbers, or
    nested sequences and dicts of them) have the same shape and dtype and are
    close element by element: |actual - expected| <= atol + rtol * |expected|.
    The default tolerances depend on the dtype (float32: rtol 1.3e-6, atol
    1e-5; float64: 1e-7 and 1e-7; integers: exact). equal_nan=True counts nan
    as equal to nan. The message says how many elements differ and by how
    much.

    Example::

        >>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
    """
    __tracebackhide__ = True
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_device=check_device, check_dtype=check_dtype,
                   check_layout=check_layout, check_stride=check_stride)
    try:
        pairs = _originate(actual, expected, (), options)
    except _Failure as failure:
        raise failure.to_error() from None
    failures = []
    for pair in pairs:
        try:
            pair.compare()
        except _Failure as failure:
            failures.append(failure)
    if failures:
        raise failures[0].to_error(msg)

"""torch.testing: assert_close (and the deprecated assert_allclose), as
PyTorch 1.13 has them."""

import warnings

import torch
from ._comparison import assert_close, default_tolerances  # noqa: F401

__all__ = ['assert_close', 'assert_allclose']

# The legacy function's tolerances (rtol, atol) by dtype.
_LEGACY_TOLERANCES = {
    torch.float16: (1e-3, 1e-3),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=''):
    """assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg='') -> None

    Deprecated since PyTorch 1.12 (with a warning): assert_close with the old
    defaults (dtypes may differ, nan equals nan). Use
    torch.testing.assert_close.
    """
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be "
                  "removed in 1.14. Use `torch.testing.assert_close()` instead.", FutureWarning)
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        pairs = [_LEGACY_TOLERANCES.get(t.dtype, (0.0, 0.0)) for t in (actual, expected)]
        rtol = max(p[0] for p in pairs)
        atol = max(p[1] for p in pairs)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_device=True, check_dtype=False, check_stride=False, msg=msg or None)

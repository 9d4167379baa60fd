"""torch.set_printoptions: how tensors print. The values live here
(PRINT_OPTS, as in PyTorch); the C formatter reads its copy, which
_C._set_printoptions updates on every change."""

import contextlib
import math

from torch import _C


class __PrinterOptions:
    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None


PRINT_OPTS = __PrinterOptions()

_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None) -> None

    Set how tensors print, for the rest of the session:

    - precision: digits after the decimal point (default 4).
    - threshold: above this many elements, print a summary with '...'
      (default 1000).
    - edgeitems: elements shown at each end of a summarized dimension
      (default 3).
    - linewidth: characters per line before wrapping (default 80).
    - profile: 'default', 'short' or 'full' (never summarize), applied first.
    - sci_mode: True or False forces or forbids scientific notation; None
      (what every call sets when it is not given) lets torch choose.

    Example::

        >>> torch.set_printoptions(precision=2)
        >>> torch.tensor([1/3, 2/3])
        tensor([0.33, 0.67])
        >>> torch.set_printoptions(profile='default')
    """
    # Set the options for printing tensors, as torch 1.13 does: a profile ('default', 'short',
    # 'full') first, then each option given; sci_mode is set on every call (None: torch's
    # automatic choice).
    if profile is not None and profile in _PROFILES:
        (PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems,
         PRINT_OPTS.linewidth) = _PROFILES[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode
    _sync()


def get_printoptions():
    """get_printoptions() -> dict

    The current tensor print options (precision, threshold, edgeitems,
    linewidth, sci_mode) as a dict, as set by set_printoptions. (PyTorch 2's
    function; PyTorch 1.13 has none.)

    Example::

        >>> torch.get_printoptions()['precision']
        4
    """
    return {name: getattr(PRINT_OPTS, name)
            for name in ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")}


@contextlib.contextmanager
def printoptions(**kwargs):
    """Within the block, print with these options; restore them after."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


def _sync():
    t = PRINT_OPTS.threshold
    threshold = 2 ** 63 - 1 if t >= 2 ** 63 - 1 else int(t)
    sci = PRINT_OPTS.sci_mode
    _C._set_printoptions(int(PRINT_OPTS.precision), threshold, int(PRINT_OPTS.edgeitems),
                         int(PRINT_OPTS.linewidth), 0 if sci is None else 1 if sci else 2)

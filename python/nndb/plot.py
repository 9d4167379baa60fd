"""plot() and hist(): curves and distributions, shown as they are called.

Each call sends one display bundle: the picture and its text form
(text/plain: Unicode sparklines with min/max/last, or histogram bars, drawn
by the engine, engine/nn_plot.c). When matplotlib is installed the picture
is matplotlib's (a PNG, or what %config InlineBackend.figure_format asks),
drawn on a figure of its own (pyplot's current figure is not touched), so
plot(), hist() and live_plot() look like the figures of plt.plot; the REPL
saves it as a PNG file and prints its path after the text form. Without
matplotlib the engine draws an SVG. Outside a session (a script under
`nndb python`) the text form is printed.

use_matplotlib: None (the default) uses matplotlib when it can be
imported; False always draws with the engine.
"""

import math
import numbers

import torch
from torch import _C

__all__ = ["plot", "hist", "Figure"]

_MAX_SERIES = 16
use_matplotlib = None


def _matplotlib():
    """(Figure, FigureCanvasAgg) of matplotlib, or None: not installed, or
    use_matplotlib is False."""
    if use_matplotlib is False:
        return None
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure as MplFigure
    except ImportError:
        return None
    return MplFigure, FigureCanvasAgg


def _finite(values):
    return [v if math.isfinite(v) else math.nan for v in values]


def mpl_curves(values, names, title=None, xlabel=None, ylabel=None, logy=False):
    """matplotlib's picture of curves (a bundle without text/plain), or None
    without matplotlib."""
    mpl = _matplotlib()
    if mpl is None:
        return None
    fig = mpl[0]()
    mpl[1](fig)
    ax = fig.add_subplot()
    for v, name in zip(values, names):
        v = _finite(v)
        if logy:
            v = [x if x > 0 else math.nan for x in v]
        ax.plot(v, label=name)
    if logy:
        ax.set_yscale("log")
    if any(names):
        ax.legend()
    _labels(ax, title, xlabel, ylabel)
    return _bundle(fig)


def mpl_hist(values, bins, title=None):
    mpl = _matplotlib()
    if mpl is None:
        return None
    fig = mpl[0]()
    mpl[1](fig)
    ax = fig.add_subplot()
    ax.hist([v for v in values if math.isfinite(v)], bins)
    _labels(ax, title, None, None)
    return _bundle(fig)


def _labels(ax, title, xlabel, ylabel):
    if title:
        ax.set_title(title)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)


def _bundle(fig):
    from nndb import display
    bundle = display._figure_bundle(fig)
    bundle.pop("text/plain", None)
    return bundle


class Figure:
    """What plot() and hist() show: the text and the picture (matplotlib's
    bundle, or the engine's SVG). Kept by the caller, it shows again as a
    cell's value or with display()."""

    def __init__(self, text, svg=None, pictures=None):
        self.text = text
        self.svg = svg
        self.pictures = pictures if pictures is not None else {"image/svg+xml": svg}

    def __repr__(self):
        return self.text.rstrip("\n")

    def _repr_mimebundle_(self, include=None, exclude=None):
        return dict(self.pictures, **{"text/plain": self.text.rstrip("\n")})


def _show(fig):
    from nndb import display
    display.display(fig)


def _number(v, fname, position):
    if isinstance(v, torch.Tensor) and v.numel() == 1:
        return float(v.item())
    if isinstance(v, numbers.Real):
        return float(v)
    raise TypeError(f"{fname}() wants numbers or one-element tensors in a series, got "
                    f"{type(v).__name__} at position {position}")


def _values(series, fname):
    """A series as a list of floats: a tensor (flattened) or a sequence of
    numbers and one-element tensors."""
    if isinstance(series, torch.Tensor):
        return series.detach().reshape(-1).double().tolist()
    if isinstance(series, (list, tuple)) or hasattr(series, "__array_interface__"):
        return [_number(v, fname, i) for i, v in enumerate(series)]
    raise TypeError(f"{fname}() takes lists of numbers or tensors, not {type(series).__name__}")


def _is_list_of_series(v):
    """Whether [v] is a list whose items are themselves series (several curves
    passed as one list)."""
    if not isinstance(v, (list, tuple)) or not v:
        return False
    return all(isinstance(s, (list, tuple)) or
               (isinstance(s, torch.Tensor) and s.dim() >= 1 and s.numel() != 1) for s in v)


def _opt_str(value, name):
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def plot(*series, labels=None, label=None, logy=False, title=None, xlabel=None, ylabel=None):
    """Show one or more curves (lists of numbers or 1-D tensors, one point per
    step): an SVG chart in Jupyter, Unicode sparklines with min/max/last in
    the terminal. Series share one y scale; logy=True plots log10 of the
    values. Non-finite points are skipped and counted. Returns None.

        plot(losses, val_losses, labels=['train', 'val'], logy=True, title='loss')
    """
    curves = []
    for s in series:
        curves.extend(s if _is_list_of_series(s) else [s])
    if not curves:
        raise TypeError("plot() needs at least one series: plot(losses)")
    curves = curves[:_MAX_SERIES]
    names = [None] * len(curves)
    if isinstance(label, str):
        names[0] = label
    if isinstance(labels, str):
        names[0] = labels
    elif isinstance(labels, (list, tuple)):
        for i, name in enumerate(labels[:len(curves)]):
            if not isinstance(name, str):
                raise TypeError(f"labels must be strings, not {type(name).__name__}")
            names[i] = name
    elif labels is not None:
        raise TypeError(f"labels must be a list of str, not {type(labels).__name__}")
    values = [_values(s, "plot") for s in curves]
    title, xlabel, ylabel = (_opt_str(title, "title"), _opt_str(xlabel, "xlabel"),
                             _opt_str(ylabel, "ylabel"))
    text, svg = _C._plot(values, names, title, xlabel, ylabel, bool(logy))
    pictures = mpl_curves(values, names, title, xlabel, ylabel, bool(logy))
    _show(Figure(text, None if pictures else svg, pictures))


def hist(input, bins=30, title=None):
    """Show the distribution of a tensor's (or a list's) finite values in
    [bins] equal bins between its min and max: an SVG histogram in Jupyter,
    horizontal bars in the terminal, with n, mean and std. Returns None.

        hist(model[0].weight.grad, bins=20, title='layer 0 grads')
    """
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral):
        raise TypeError(f"bins must be an int, not {type(bins).__name__}")
    if not 1 <= bins <= 1000:
        raise ValueError(f"hist(): bins must be between 1 and 1000, got {bins}")
    values = _values(input, "hist")
    title = _opt_str(title, "title")
    text, svg = _C._hist(values, int(bins), title)
    pictures = mpl_hist(values, int(bins), title)
    _show(Figure(text, None if pictures else svg, pictures))

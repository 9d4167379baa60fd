"""plot() and hist(): curves and distributions, shown as they are called.

The drawing is the engine's (engine/nn_plot.c), the same code the old
interpreter draws with: each call sends one display bundle with an SVG
picture (image/svg+xml, for Jupyter) and its text form (text/plain:
Unicode sparklines with min/max/last, or histogram bars, for the terminal).
Nothing here needs matplotlib; a user who wants matplotlib imports it, and
nndb.display shows its figures inline too. Outside a session (a script
under `nndb python`) the text form is printed.
"""

import numbers

import torch
from torch import _C

__all__ = ["plot", "hist", "Figure"]

_MAX_SERIES = 16


class Figure:
    """What plot() and hist() show: the text and the SVG of one picture.
    Kept by the caller, it shows again as a cell's value or with display()."""

    def __init__(self, text, svg):
        self.text = text
        self.svg = svg

    def __repr__(self):
        return self.text.rstrip("\n")

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": self.text.rstrip("\n"), "image/svg+xml": self.svg}


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
    text, svg = _C._plot(values, names, _opt_str(title, "title"), _opt_str(xlabel, "xlabel"),
                         _opt_str(ylabel, "ylabel"), bool(logy))
    _show(Figure(text, svg))


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
    text, svg = _C._hist(_values(input, "hist"), int(bins), _opt_str(title, "title"))
    _show(Figure(text, svg))

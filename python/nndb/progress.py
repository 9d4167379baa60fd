"""progress(iterable) and live_plot(*names): watching a loop as it runs.

Iterating a progress object iterates the inner iterable and reports
(done, total, desc) to the session's front end, which draws it: a bar on
stderr in the terminal REPL, an output that updates in place in Jupyter.
Reports go at most every 100 ms, and once at the end (also when a loop
leaves early, when the object goes away). Outside a session (a script
under `nndb python`) nothing is drawn.

A live_plot is one display (a chart drawn as plot() draws it: matplotlib's
picture when it is installed, else the engine's SVG; and its text form)
shown under a display id and updated in place, at most ten times a second;
the picture itself is redrawn only as often as keeps its drawing under a
tenth of the loop's time (a matplotlib PNG takes tens of milliseconds), the
text every time, and show() redraws both: Jupyter replaces the output; the terminal REPL
redraws the text's first line on stderr while the statement runs and
prints the last update once when it ends.
"""

import itertools
import math
import numbers
import time

__all__ = ["progress", "live_plot", "LivePlot"]

_ids = itertools.count(1)
_EVERY = 0.1


class progress:
    """progress(iterable, total=None, desc=None): iterate over [iterable] and
    show progress as you go. total defaults to len(iterable) when it has one.

        for step in progress(range(1000), desc='train'):
            ...
    """

    def __init__(self, iterable, total=None, desc=None):
        if desc is not None and not isinstance(desc, str):
            raise TypeError("progress(): desc must be a str")
        if total is None:
            try:
                total = len(iterable)
            except TypeError:
                total = 0
        self.total = max(0, int(total))
        self.desc = desc or ""
        self.done = 0
        self._inner = iter(iterable)
        self._id = f"progress-{next(_ids)}"
        self._finished = False
        self._last = time.monotonic()
        self._report(False)

    def _report(self, final):
        from nndb import session
        s = session.active()
        if s is None or s.closed:
            return
        s.fe.progress(self._id, self.done, self.done if final else self.total, self.desc)

    def __iter__(self):
        return self

    def __next__(self):
        try:
            value = next(self._inner)
        except StopIteration:
            self.close()
            raise
        self.done += 1
        now = time.monotonic()
        if now - self._last >= _EVERY:
            self._last = now
            self._report(False)
        return value

    def __len__(self):
        return self.total

    def close(self):
        """End the bar where it stands (the end of a loop does this)."""
        if not self._finished:
            self._finished = True
            self._report(True)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return f"<progress {self.done}/{self.total}>"


_LIVE_MAX_SERIES = 8
_live_ids = itertools.count(1)


class LivePlot:
    """What live_plot() returns: add() a step's values, show() the final
    state. Each series' values so far are an attribute of its name
    (curve.loss), `draws` counts the redraws."""

    def __init__(self, names, logy):
        self._names = list(names)
        self._values = {name: [] for name in self._names}
        self._logy = logy
        self._id = f"nndb-live-plot-{next(_live_ids)}"
        self._shown = False
        self._last = 0.0
        self._picture = None  # the last picture drawn, and when
        self._drawn = 0.0
        self._gap = 0.0
        self.draws = 0

    def __getattr__(self, name):
        values = self.__dict__.get("_values", {})
        if name in values:
            return list(values[name])
        raise AttributeError(f"'LivePlot' object has no attribute '{name}'")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._names))

    @staticmethod
    def _number(value, name):
        if value is None:
            return math.nan  # a gap: no value this step
        item = getattr(value, "item", None)
        if item is not None and not isinstance(value, numbers.Number):
            value = item()
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"add(): the value for '{name}' must be a number, not "
                            f"{type(value).__name__}")
        return float(value)

    def add(self, *values, **by_name):
        """Append this step's values (one per series, in order, or by series
        name) and redraw, at most ten times a second.

            curve.add(loss.item())
        """
        if len(values) > len(self._names):
            raise TypeError(f"add(): {len(values)} values for {len(self._names)} series")
        for name in by_name:
            if name not in self._values:
                raise KeyError(f"add(): no series '{name}' (the series are given to "
                               f"live_plot(...))")
        new = [(name, self._number(v, name)) for name, v in zip(self._names, values)]
        new += [(name, self._number(v, name)) for name, v in by_name.items()]
        for name, v in new:
            self._values[name].append(v)
        if not self._shown or time.monotonic() - self._last >= _EVERY:
            self._draw()

    def show(self):
        """Redraw now, with every value so far (call it after the loop)."""
        self._draw(force=True)

    def _figure(self):
        from torch import _C
        names = list(self._names)
        return _C._plot([self._values[n] for n in names], names, None, "step", None,
                        self._logy)

    def _draw(self, force=False):
        """The first draw shows the chart alone (a terminal shows nothing
        yet); later ones are updates, with the text form."""
        from nndb import display
        text, svg = self._figure()
        now = time.monotonic()
        if self._picture is None or force or now - self._drawn >= self._gap:
            self._picture = self._pictures(svg)
            took = time.monotonic() - now
            self._drawn = time.monotonic()
            # The first picture pays for importing matplotlib: not counted.
            self._gap = 9 * took if self.draws else 0.0
        bundle = dict(self._picture)
        if self._shown:
            bundle["text/plain"] = text.rstrip("\n")
        display.display(bundle, raw=True, display_id=self._id, update=self._shown)
        self._shown = True
        self._last = time.monotonic()
        self.draws += 1

    def _pictures(self, svg):
        from nndb.plot import mpl_curves
        names = list(self._names)
        pictures = mpl_curves([self._values[n] for n in names], names, None, "step", None,
                              self._logy)
        return pictures if pictures is not None else {"image/svg+xml": svg}

    def __repr__(self):
        return self._figure()[0].rstrip("\n")

    def _repr_mimebundle_(self, include=None, exclude=None):
        text, svg = self._figure()
        return dict(self._pictures(svg), **{"text/plain": text.rstrip("\n")})


def live_plot(*names, logy=False):
    """A plot that updates in place while a loop runs: make it before the
    loop, add() each step's values in it. Several series: live_plot("train",
    "val"), then curve.add(t, v) or curve.add(val=v) (None leaves a gap);
    logy=True for a log scale. With no names, one series called "loss".

        curve = live_plot("loss")
        for step in range(100):
            ...
            curve.add(loss.item())
    """
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"live_plot(): series names are str, not {type(name).__name__}")
    if len(names) > _LIVE_MAX_SERIES:
        raise ValueError(f"live_plot(): at most {_LIVE_MAX_SERIES} series")
    if len(set(names)) != len(names):
        raise ValueError("live_plot(): the series names must differ")
    return LivePlot(names or ("loss",), bool(logy))

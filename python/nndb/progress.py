"""progress(iterable): a tqdm-like bar drawn by the front end.

Iterating a progress object iterates the inner iterable and reports
(done, total, desc) to the session's front end, which draws it: a bar on
stderr in the terminal REPL, an output that updates in place in Jupyter.
Reports go at most every 100 ms, and once at the end (also when a loop
leaves early, when the object goes away). Outside a session (a script
under `nndb python`) nothing is drawn.
"""

import itertools
import time

__all__ = ["progress"]

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

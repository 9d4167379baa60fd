"""Compare: many Measurements printed as tables, one per label.

Rows are the sub_labels (or stmts), grouped by thread count and env;
columns are the descriptions; cells are medians in the unit of the
table's fastest result. The layout is PyTorch's, character for character.
"""

import enum
from typing import Dict, List, Optional, Tuple

import torch
from torch.utils.benchmark.utils import common

__all__ = ["Colorize", "Compare"]

# ANSI escapes. Every colored cell ends with two resets, as PyTorch's do.
BEST = "\033[92m"
GOOD = "\033[34m"
BAD = "\033[2m\033[91m"
VERY_BAD = "\033[31m"
BOLD = "\033[1m"
TERMINATE = "\033[0m"


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _leading_digits(x: float) -> int:
    # float32, as PyTorch computes it
    return int(torch.tensor(x).log10().ceil())


class _Column:
    """How one column writes its numbers: a common width and number of
    decimals for every cell in it."""

    def __init__(self, cells: List[Optional[common.Measurement]], scale: float, trim: bool, highlight: bool):
        self.cells = cells
        self.trim = trim
        # The "(! NN%)" suffix only where some cell of the column is noisy.
        self.highlight = highlight and any(m.has_warnings for m in cells if m)
        present = [m for m in cells if m is not None]
        digits = [_leading_digits(m.median / scale) for m in present]
        if trim:
            decimals = min(max(m.significant_figures - d, 0) for m, d in zip(present, digits))
        else:
            decimals = 1
        self.decimals = decimals
        self.width = max(digits) + decimals + (1 if decimals else 0)

    def text(self, value: Optional[float], sigfigs: int, spread: Optional[float]) -> str:
        if value is None:
            return " " * len(self.text(1, sigfigs, None))
        if self.trim:
            value = common.trim_sigfig(value, sigfigs)
        number = f"{value:>{self.width}.{self.decimals}f}"
        if not self.highlight:
            return number
        return number + (f" (! {spread * 100:.0f}%)" if spread is not None else "").rjust(7)


def _paint(text: str, value: float, best: float) -> str:
    """Green within 1% (or 100 ns) of the best, blue within 10%, dim red at
    twice, red at five times; otherwise plain."""
    if value <= best * 1.01 or value <= best + 100e-9:
        color = BEST + BOLD
    elif value <= best * 1.1:
        color = GOOD + BOLD
    elif value >= best * 5:
        color = VERY_BAD + BOLD
    elif value >= best * 2:
        color = BAD
    else:
        return text
    return color + text + TERMINATE * 2


class _Table:
    """One label's measurements, laid out."""

    def __init__(self, results: List[common.Measurement], colorize: Colorize, trim: bool, highlight: bool):
        self.results = results
        self.label = results[0].label
        self.colorize = colorize
        self.highlight = highlight
        self.unit, self.scale = common.select_unit(min(m.median for m in results))

        # Rows: (threads, env, name) in first-seen order, then stably
        # sorted by threads and env; columns: descriptions, first-seen.
        self.row_keys = common.ordered_unique(self._row_key(m) for m in results)
        self.row_keys.sort(key=lambda k: k[:2])
        self.col_keys = common.ordered_unique(m.description for m in results)
        grid: Dict[Tuple, List[Optional[common.Measurement]]] = {k: [None] * len(self.col_keys) for k in self.row_keys}
        col_of = {k: j for j, k in enumerate(self.col_keys)}
        for m in results:
            grid[self._row_key(m)][col_of[m.description]] = m
        self.grid = [grid[k] for k in self.row_keys]

        envs = {m.env for m in results}
        self.show_env = len(envs) > 1
        self.env_width = max(len(e) for e in envs) if self.show_env else 0

        # A thread count starts a group: a separator line above it, and
        # columnwise colors compare within it.
        self.group_of: List[int] = []
        self.group_starts: List[bool] = []
        group, last_threads = -1, None
        for threads, _, _ in self.row_keys:
            start = threads != last_threads
            group += start
            last_threads = threads
            self.group_of.append(group)
            self.group_starts.append(start)

        self.columns = [
            _Column([row[j] for row in self.grid], self.scale, trim, highlight) for j in range(len(self.col_keys))
        ]

    @staticmethod
    def _row_key(m: common.Measurement):
        return m.num_threads, m.env, m.as_row_name

    def _row_texts(self, i: int) -> List[str]:
        row = self.grid[i]
        first = next(m for m in row if m is not None)
        # The env is written where it changes within a thread group (the
        # env before a group's first row counts as "").
        before = "" if self.group_starts[i] else self.row_keys[i - 1][1]
        env = f"({first.env})" if self.show_env and self.row_keys[i][1] != before else ""
        texts = ["  " + env.ljust(self.env_width + 4) + first.as_row_name]
        for m, col in zip(row, self.columns):
            if m is None:
                texts.append(col.text(None, 1, None))
            else:
                spread = m.iqr / m.median if m.has_warnings else None
                texts.append(col.text(m.median / self.scale, m.significant_figures, spread))
        return texts

    def _best(self, i: int) -> List[Optional[float]]:
        row = self.grid[i]
        if self.colorize == Colorize.ROWWISE:
            return [min(m.median for m in row if m is not None)] * len(row)
        best = []
        for j in range(len(row)):
            same_group = [self.grid[k][j] for k in range(len(self.grid)) if self.group_of[k] == self.group_of[i]]
            medians = [m.median for m in same_group if m is not None]
            best.append(min(medians) if medians else None)
        return best

    def render(self) -> str:
        cells = [[""] + list(self.col_keys)] + [self._row_texts(i) for i in range(len(self.grid))]
        ncols = max(len(r) for r in cells)
        for r in cells:
            r.extend([""] * (ncols - len(r)))
        widths = [max(len(r[j]) for r in cells) for j in range(ncols)]

        header = "  |  ".join(c.center(w) for c, w in zip(cells[0], widths))
        lines = [header]
        for i, texts in enumerate(cells[1:]):
            if self.group_starts[i]:
                lines.append(f"{self.row_keys[i][0]} threads: ".ljust(len(header), "-"))
            out = [texts[0].ljust(widths[0])]
            best = self._best(i) if self.colorize != Colorize.NONE else [None] * len(self.grid[i])
            for text, w, m, b in zip(texts[1:], widths[1:], self.grid[i], best):
                text = text.center(w)
                if m is not None and b is not None:
                    text = _paint(text, m.median, b)
                out.append(text)
            lines.append("  |  ".join(out))

        title = f" {self.label or ''} ".center(len(header) - 2, "-")
        noisy = self.highlight and any(m.has_warnings for m in self.results)
        tail = "(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n" if noisy else ""
        english = common.unit_to_english(self.unit)
        return f"[{title}]\n" + "\n".join(lines) + f"\n\nTimes are in {english}s ({self.unit}).\n" + tail


class Compare:
    """Tables of Measurements: replicates of one TaskSpec are merged first,
    then one table per label."""

    def __init__(self, results: List[common.Measurement]):
        self._results: List[common.Measurement] = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def extend_results(self, results) -> None:
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self) -> None:
        """Print only the figures each median supports (see
        Measurement.significant_figures)."""
        self._trim_significant_figures = True

    def colorize(self, rowwise: bool = False) -> None:
        """Color cells by how they compare with the best of their column
        (within a thread group), or of their row."""
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self) -> None:
        """Mark noisy cells with "(! NN%)", their IQR over median."""
        self._highlight_warnings = True

    def _render(self) -> List[str]:
        by_label: Dict[Optional[str], List[common.Measurement]] = {}
        for m in common.Measurement.merge(self._results):
            by_label.setdefault(m.label, []).append(m)
        return [
            _Table(group, self._colorize, self._trim_significant_figures, self._highlight_warnings).render()
            for group in by_label.values()
        ]

    def __str__(self) -> str:
        return "\n".join(self._render())

    def print(self) -> None:
        print(str(self))

"""TaskSpec, Measurement and the number helpers Timer and Compare share.

Where PyTorch computes a statistic with torch ops (float32 for the unit and
significant-figure choices, float64 for the quantiles) this module does the
same, so a value at a boundary (a median of exactly 1 us, say) lands on the
side PyTorch puts it and the printed text is PyTorch's.
"""

import collections
import contextlib
import dataclasses
import textwrap
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import torch

__all__ = [
    "TaskSpec",
    "Measurement",
    "select_unit",
    "unit_to_english",
    "trim_sigfig",
    "ordered_unique",
    "set_torch_threads",
]

# Compare never shows more than this many significant figures, and a
# confidence interval narrower than 25 ns is not believed (timer jitter).
_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9

# IQR / median above these marks a measurement as noisy (repr's WARNING).
_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25

_UNITS = (("ns", 1e-9, "nanosecond"), ("us", 1e-6, "microsecond"),
          ("ms", 1e-3, "millisecond"), ("s", 1, "second"))


def _f32(x: float) -> float:
    """x rounded to float32, as torch.tensor(x) stores it."""
    return torch.tensor(x).item()


def _log10_f32(x: float) -> float:
    return torch.tensor(x).log10().item()


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    """What a Timer runs and how it is named (everything but its globals).

    Frozen, so it is hashable: Measurement.merge groups replicates by it.
    """

    stmt: str
    setup: str
    global_setup: str = ""
    label: Optional[str] = None
    sub_label: Optional[str] = None
    description: Optional[str] = None
    env: Optional[str] = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        """The label (or a one-line stmt), with the sub_label after it."""
        tail = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + tail
        if "\n" not in self.stmt:
            return self.stmt + tail
        head = f"stmt: ({self.sub_label})" if self.sub_label else "stmt:"
        return head + "\n" + textwrap.indent(self.stmt, "  ")

    def setup_str(self) -> str:
        if not self.setup or self.setup == "pass":
            return ""
        if "\n" in self.setup:
            return "setup:\n" + textwrap.indent(self.setup, "  ")
        return "setup: " + self.setup

    def summarize(self) -> str:
        """The task's lines of a Measurement's repr: title, description,
        setup; a block of several lines is followed by an empty line."""
        parts = [self.title, self.description or "", self.setup_str()]
        return "\n".join(p + "\n" if "\n" in p else p for p in parts if p)


_TASKSPEC_FIELDS = frozenset(f.name for f in dataclasses.fields(TaskSpec))


def _quantiles(sorted_times: Tuple[float, ...]) -> Tuple[float, float, float, float]:
    """(p25, median, p75, mean) by torch.quantile's linear interpolation,
    in float64 as PyTorch computes them."""
    t = torch.tensor(sorted_times, dtype=torch.float64)
    return (t.quantile(0.25).item(), t.quantile(0.5).item(),
            t.quantile(0.75).item(), t.mean().item())


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """The times of one statement: raw_times[i] is the wall time of
    number_per_run executions. The statistics (median, iqr, ...) are per
    execution and computed on first use."""

    number_per_run: int
    raw_times: List[float]
    task_spec: TaskSpec
    metadata: Optional[Dict[Any, Any]] = None  # the caller's, untouched

    def __post_init__(self) -> None:
        self._stats: Optional[Tuple[float, float, float, float]] = None
        self._sorted: Tuple[float, ...] = ()
        self._warning_lines: Tuple[str, ...] = ()

    def __getattr__(self, name: str) -> Any:
        # stmt, label, num_threads, ... read through to the TaskSpec. Only
        # reached when normal lookup failed.
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _ensure_stats(self) -> None:
        if self._stats is not None or not self.raw_times:
            return
        self._sorted = tuple(sorted(self.times))
        self._stats = _quantiles(self._sorted)
        for limit, why in ((_IQR_GROSS_WARN_THRESHOLD, "This suggests significant environmental influence."),
                           (_IQR_WARN_THRESHOLD, "This could indicate system fluctuation.")):
            if not self.meets_confidence(limit):
                pct = self.iqr / self.median * 100
                self._warning_lines = (f"  WARNING: Interquartile range is {pct:.1f}% of the median "
                                       f"measurement.\n           {why}",)
                break

    def _stat(self, i: int) -> float:
        self._ensure_stats()
        return -1.0 if self._stats is None else self._stats[i]

    @property
    def times(self) -> List[float]:
        """Per-execution times: each raw time over number_per_run."""
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        return self._stat(1)

    @property
    def mean(self) -> float:
        return self._stat(3)

    @property
    def iqr(self) -> float:
        return self._stat(2) - self._stat(0)

    @property
    def has_warnings(self) -> bool:
        self._ensure_stats()
        return bool(self._warning_lines)

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        return self.iqr / self.median < threshold

    @property
    def significant_figures(self) -> int:
        """How many figures of the median to trust (1 to 4), from a rough
        90% confidence interval of the middle half of the times. Compare's
        trim_significant_figures uses it; the repr does not."""
        self._ensure_stats()
        n = len(self._sorted)
        middle = self._sorted[n // 4:int(torch.tensor(3 * n / 4).ceil())]
        # float32, as torch.tensor(list of floats) makes it in PyTorch
        spread = torch.tensor(middle).std(unbiased=False).item()
        root_n = torch.tensor(len(middle)).sqrt().item()
        interval = max(1.645 * spread / root_n, _MIN_CONFIDENCE_INTERVAL)
        figures = int(torch.tensor(_log10_f32(self.median / interval)).floor())
        return min(max(figures, 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def title(self) -> str:
        return self.task_spec.title

    @property
    def env(self) -> Optional[str]:
        return self.task_spec.env

    @property
    def as_row_name(self) -> str:
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self) -> str:
        self._ensure_stats()
        n = len(self._sorted)
        unit, scale = select_unit(self.median)
        lines = [object.__repr__(self)]
        lines.extend(self.task_spec.summarize().split("\n"))
        value = f"{self.median / scale:.2f} {unit}"
        lines.append("  Median: " + value if n > 1 else "  " + value)
        if n >= 4:
            p25, p75 = self._stats[0], self._stats[2]
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} ({p25 / scale:.2f} to {p75 / scale:.2f})")
        threads = f"{self.num_threads} thread{'s' if self.num_threads > 1 else ''}"
        if n > 1:
            lines.append(f"  {n} measurements, {self.number_per_run} runs per measurement, {threads}")
        else:
            # PyTorch's layout leaves a space before this comma.
            lines.append(f"  {n} measurement, {self.number_per_run} runs , {threads}")
        lines.extend(self._warning_lines)
        return "\n".join(lines).strip()

    @staticmethod
    def merge(measurements: Iterable["Measurement"]) -> List["Measurement"]:
        """One Measurement per distinct TaskSpec, holding all its
        replicates' per-execution times (number_per_run=1, no metadata)."""
        groups: Dict[TaskSpec, List[float]] = {}
        for m in measurements:
            groups.setdefault(m.task_spec, []).extend(m.times)
        return [Measurement(number_per_run=1, raw_times=times, task_spec=spec, metadata=None)
                for spec, times in groups.items()]


def select_unit(t: float) -> Tuple[str, float]:
    """The unit (ns, us, ms or s) to print t seconds in, and its scale.

    The decade is floor(log10(t) / 3) of the float32 log; under 1 ns it is
    "s", as in PyTorch."""
    decade = int(_log10_f32(t) // 3)
    name, scale, _ = _UNITS[decade + 3] if -3 <= decade <= -1 else _UNITS[3]
    return name, scale


def unit_to_english(u: str) -> str:
    for name, _, english in _UNITS:
        if name == u:
            return english
    raise KeyError(u)


def trim_sigfig(x: float, n: int) -> float:
    """x rounded to n significant figures (3.14159, 2 -> 3.1), in float32
    arithmetic as PyTorch rounds it."""
    assert n == int(n)
    digits = int(torch.tensor(x).abs().log10().ceil().item())
    step = 10 ** (digits - n)
    return float(torch.tensor(x / step).round() * step)


def ordered_unique(elements: Iterable[Any]) -> List[Any]:
    return list(dict.fromkeys(elements))


@contextlib.contextmanager
def set_torch_threads(n: int) -> Iterator[None]:
    """torch's intra-op threads set to n inside the block, restored after."""
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(n)
        yield
    finally:
        torch.set_num_threads(before)

"""Timer: timeit.Timer with torch's thread count pinned, warm-up runs and
block sizes chosen so the timer's own cost is negligible."""

import enum
import textwrap
import timeit
from typing import Any, Callable, Dict, List, Optional, Union

import torch
from torch.utils.benchmark.utils import common

__all__ = ["Timer", "timer", "Language"]

# nndb has no GPU, so there is no device to synchronize before reading the
# clock: the default timer is timeit's (time.perf_counter).
timer = timeit.default_timer


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


# PyTorch refuses block sizes past this (its C++ timer takes an int32).
_MAX_NUMBER = 2147483647


class Timer:
    """Times a Python statement the way torch.utils.benchmark.Timer does.

    stmt and setup are strings (setup runs once per timeit call, stmt is
    compiled once into timeit's loop); globals are copied, and `torch` is
    added when absent. num_threads (default 1, not torch's default) is set
    with torch.set_num_threads while measuring and restored afterwards.
    label, sub_label, description and env only name the result (its repr
    and Compare's rows and columns).
    """

    def __init__(
        self,
        stmt: str = "pass",
        setup: str = "pass",
        global_setup: str = "",
        timer: Callable[[], float] = timer,
        globals: Optional[Dict[str, Any]] = None,
        label: Optional[str] = None,
        sub_label: Optional[str] = None,
        description: Optional[str] = None,
        env: Optional[str] = None,
        num_threads: int = 1,
        language: Union[Language, str] = Language.PYTHON,
    ):
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError(
                "nndb's torch.utils.benchmark.Timer times Python statements only: "
                "there is no C++ compiler behind it (language='cpp')."
            )
        if language not in (Language.PYTHON, "py", "python"):
            raise ValueError(f"Invalid language `{language}`.")
        if global_setup:
            raise ValueError(
                f"global_setup is C++ only, got `{global_setup}`. Most "
                "likely this code can simply be moved to `setup`."
            )
        self._language = Language.PYTHON

        # A copy, so that exec's __builtins__ and the statements' own
        # assignments stay out of the caller's dict.
        self._globals = dict(globals or {})
        self._globals.setdefault("torch", torch)

        stmt, setup = _tidy(stmt), _tidy(setup)
        self._timer = timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = common.TaskSpec(
            stmt=stmt,
            setup=setup,
            global_setup=global_setup,
            label=label,
            sub_label=sub_label,
            description=description,
            env=env,
            num_threads=num_threads,
        )

    def _timeit(self, number: int) -> float:
        # Never zero: the statistics divide by these times.
        return max(self._timer.timeit(number), 1e-9)

    def _threads(self):
        return common.set_torch_threads(self._task_spec.num_threads)

    def _measurement(self, number: int, times: List[float]) -> common.Measurement:
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def timeit(self, number: int = 1000000) -> common.Measurement:
        """One run of `number` executions (after a warm-up of a hundredth
        as many, at least 2): a Measurement of one raw time."""
        with self._threads():
            self._timeit(max(number // 100, 2))
            return self._measurement(number, [self._timeit(number)])

    def repeat(self, repeat: int = -1, number: int = -1) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback: Optional[Callable[[int, float], Any]] = None) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _block_size(self, min_run_time: float) -> int:
        """Executions per timed block: grown tenfold from 1 until the cost
        of an empty timeit call is under 1e-4 of the block and the block
        takes a thousandth of min_run_time, or a block alone exceeds
        min_run_time. Doubles as the warm-up."""
        with self._threads():
            empty = torch.tensor([self._timeit(0) for _ in range(5)]).median().item()
            number = 1
            while True:
                took = self._timeit(number)
                if empty / took <= 1e-4 and took >= min_run_time / 1000:
                    return number
                if took > min_run_time or number * 10 > _MAX_NUMBER:
                    return number
                number *= 10

    def _run_blocks(self, number, enough, min_run_time, max_run_time=None, callback=None) -> List[float]:
        """Times blocks of `number` until min_run_time has been spent and
        enough(times) agrees, or max_run_time has been spent."""
        times: List[float] = []
        total = 0.0
        with self._threads():
            while True:
                took = self._timeit(number)
                times.append(took)
                total += took
                if callback:
                    callback(number, took)
                done = enough(times)
                if max_run_time and total > max_run_time:
                    break
                if total >= min_run_time and done:
                    break
        return times

    def blocked_autorange(
        self,
        callback: Optional[Callable[[int, float], Any]] = None,
        min_run_time: float = 0.2,
    ) -> common.Measurement:
        """Blocks of a fixed size (see _block_size) until min_run_time
        seconds of blocks have run. callback(number, time) sees each."""
        number = self._block_size(min_run_time)
        times = self._run_blocks(number, lambda _: True, min_run_time, callback=callback)
        return self._measurement(number, times)

    def adaptive_autorange(
        self,
        threshold: float = 0.1,
        *,
        min_run_time: float = 0.01,
        max_run_time: float = 10.0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> common.Measurement:
        """Blocks until there are more than 3, min_run_time has passed and
        IQR / median is under threshold, or max_run_time has passed."""
        number = self._block_size(0.05)

        def steady(times: List[float]) -> bool:
            return len(times) > 3 and self._measurement(number, times).meets_confidence(threshold=threshold)

        times = self._run_blocks(number, steady, min_run_time, max_run_time, callback)
        return self._measurement(number, times)

    def collect_callgrind(self, number: int = 100, *, repeats: Optional[int] = None,
                          collect_baseline: bool = True, retain_out_file: bool = False) -> Any:
        raise NotImplementedError(
            "Timer.collect_callgrind is not available in nndb: it runs the statement "
            "under Valgrind in a PyTorch subprocess. Use blocked_autorange or "
            "adaptive_autorange for wall times."
        )


def _tidy(code: str) -> str:
    """Dedented, without the first newline of a triple-quoted block and
    without trailing whitespace (what runs is the same; the repr is
    tidier)."""
    code = textwrap.dedent(code)
    if code.startswith("\n"):
        code = code[1:]
    return code.rstrip()

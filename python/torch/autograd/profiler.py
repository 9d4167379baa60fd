"""torch.autograd.profiler: the older profiler API (profile,
record_function) over nndb's node event log.

While a profile runs, a timing-only hook on the engine's executor
(torch._C._trace_start, binding/py_instruments.c) logs each node: its op,
forward or backward, start and end on CLOCK_MONOTONIC, the engine's FLOP
count, the bytes it made and, with record_shapes, its inputs' shapes.
record_function stamps the same clock (time.monotonic_ns), so its ranges
nest around the nodes they contain. torch.profiler.profile is this
profile under PyTorch's newer interface (schedule, on_trace_ready).
"""

import functools
import threading
import time

from torch.autograd.profiler_util import (  # noqa: F401
    DeviceType, EventList, FunctionEvent, FunctionEventAvg, _format_time, _format_memory,
    _write_chrome_trace)

# Engine op names that are not aten op names (nndb's fused or own nodes):
# their rows read nndb::NAME. Every other forward node is aten::NAME.
_NNDB_OPS = {"multi_head_self_attention", "custom", "special", "special2", "fused", "max_pool",
             "avg_pool", "_test_wrong_grad"}
# Engine names whose aten op is spelled differently.
_ATEN_NAMES = {"cross_entropy": "cross_entropy_loss"}


def _op_name(op, phase, grad_fn):
    if phase == "backward":
        if not grad_fn or grad_fn == "Backward0":
            grad_fn = "".join(w.capitalize() for w in op.split("_")) + "Backward0"
        return "autograd::engine::evaluate_function: " + grad_fn
    if op == "custom" and grad_fn and grad_fn.endswith("Backward"):
        return grad_fn[:-len("Backward")]  # an autograd.Function: its class name, as PyTorch
    if op in _NNDB_OPS:
        return "nndb::" + op
    return "aten::" + _ATEN_NAMES.get(op, op)


# The running recorders; record_function hands its range to each.
_active = []


class _Recorder:
    """One stretch of recording: the engine's event log plus the
    record_function ranges that began inside it."""

    def __init__(self, record_shapes, with_stack=False):
        from torch import _C
        self.ranges = []
        self.handle = _C._trace_start(record_shapes, with_stack)
        self.t0 = time.monotonic_ns()
        self.thread = threading.get_native_id()  # the trace's tid
        _active.append(self)

    def stop(self):
        from torch import _C
        _C._trace_stop(self.handle)
        if self in _active:
            _active.remove(self)

    def events(self):
        """The recorded events as FunctionEvents in order of start, each
        with its parent (the innermost range around it) and children."""
        from torch import _C
        complete, raw = _C._trace_events(self.handle)
        if not complete:
            import warnings
            warnings.warn("profiler: memory ran out while recording; some ops are missing")
        t0 = self.t0
        items = []
        where = _Where()
        for op, phase, grad_fn, a, b, flops, nbytes, shapes, frames in raw:
            if a < t0:
                continue  # the node was running when the profile started
            items.append((a, b, _op_name(op, phase, grad_fn), shapes, nbytes, flops, "cpu_op",
                          where.stack(frames)))
        for name, a, b in self.ranges:
            items.append((a, b, name, [], 0, 0, "user_annotation", []))
        items.sort(key=lambda it: (it[0], -it[1]))
        out, stack = EventList(), []
        for i, (a, b, name, shapes, nbytes, flops, cat, frames) in enumerate(items):
            e = FunctionEvent(i + 1, name, (a - t0) / 1e3, (b - t0) / 1e3, input_shapes=shapes,
                              stack=frames, memory=nbytes, flops=flops, category=cat,
                              thread=self.thread)
            while stack and stack[-1].end_us < e.end_us:
                stack.pop()
            if stack:
                e.cpu_parent = stack[-1]
                stack[-1].cpu_children.append(e)
            stack.append(e)
            out.append(e)
        return out


class _Where:
    """with_stack's entries as PyTorch writes them: "file(line): function",
    innermost first, the file relative to the longest sys.path entry that
    holds it, without the frames of the profiler's own machinery."""

    _SKIP = (("autograd/__init__", "_make_grads"), ("autograd/__init__", "backward"),
             ("torch/_tensor", "backward"))

    def __init__(self):
        import sys
        self.roots = sorted((p.rstrip("/") + "/" for p in sys.path if p), key=len,
                            reverse=True)
        self.names = {}

    def _file(self, path):
        name = self.names.get(path)
        if name is None:
            name = path
            for root in self.roots:
                if path.startswith(root):
                    name = path[len(root):]
                    break
            self.names[path] = name
        return name

    def stack(self, frames):
        if not frames:
            return []
        out = []
        for path, line, fn in frames:
            entry = "{}({}): {}".format(self._file(path), line, fn)
            if not any(a in entry and b in entry for a, b in self._SKIP):
                out.append(entry)
        return out


class profile:
    """with torch.autograd.profiler.profile() as prof: ... records the ops
    the block runs (forward and backward) and the record_function ranges;
    prof.key_averages().table(sort_by=...) prints PyTorch's table.
    with_stack records the Python frames around each forward op (the
    Source Location column of key_averages(group_by_stack_n=N)); use_cuda
    and with_modules are accepted and record nothing."""

    def __init__(self, enabled=True, *, use_cuda=False, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False,
                 use_cpu=True, experimental_config=None):
        self.enabled = enabled
        self.use_cuda = use_cuda
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.use_cpu = use_cpu
        self.entered = False
        self.function_events = None
        self._recorder = None

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._recorder = _Recorder(self.record_shapes, self.with_stack)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.enabled or self._recorder is None:
            return False
        self._recorder.stop()
        self.function_events = EventList(self._recorder.events(),
                                         profile_memory=self.profile_memory,
                                         with_flops=self.with_flops)
        self._recorder = None
        return False

    def _check_finish(self):
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def __repr__(self):
        if self.function_events is None:
            return '<unfinished torch.autograd.profile>'
        return repr(self.function_events)

    def __str__(self):
        if self.function_events is None:
            return '<unfinished torch.autograd.profile>'
        return str(self.function_events)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        self._check_finish()
        return self.function_events.table(
            sort_by=sort_by, row_limit=row_limit, max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width, header=header,
            top_level_events_only=top_level_events_only)

    table.__doc__ = EventList.table.__doc__

    def export_chrome_trace(self, path):
        self._check_finish()
        return self.function_events.export_chrome_trace(path)

    export_chrome_trace.__doc__ = EventList.export_chrome_trace.__doc__

    def export_stacks(self, path, metric="self_cpu_time_total"):
        self._check_finish()
        return self.function_events.export_stacks(path, metric)

    export_stacks.__doc__ = EventList.export_stacks.__doc__

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        self._check_finish()
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    key_averages.__doc__ = EventList.key_averages.__doc__

    def total_average(self):
        self._check_finish()
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self):
        """The CPU time of all events, each counted once (their self times)."""
        self._check_finish()
        return self.function_events.self_cpu_time_total


class record_function:
    """A labelled range: `with record_function("name"):` or
    `@record_function("name")`. While a profile runs the range is an event
    of its own (a row in the table, a span in the trace) that holds the ops
    run inside it; otherwise it costs one clock reading."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._t0 = None

    def __enter__(self):
        self._t0 = time.monotonic_ns()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        t1 = time.monotonic_ns()
        for rec in _active:
            if self._t0 >= rec.t0:
                rec.ranges.append((self.name, self._t0, t1))
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)
        return wrapped


def kineto_available():
    """PyTorch's Kineto library is not part of nndb; torch.profiler runs
    on nndb's own event log."""
    return False

"""torch.autograd.profiler_util: the events a profile records, their
averages by key, PyTorch's table of them and the Chrome trace.

An event is one engine node (an op's forward, or its backward as
"autograd::engine::evaluate_function: <grad_fn>") or one
record_function range; times are microseconds (floats: nndb's clock has
nanoseconds, PyTorch's table shows whole microseconds). Ops do not nest
in nndb (an op called inside an op is not a node), so an op's self time
is its total; a range's self time is what its children do not cover.
docs/instruments.md ("torch.profiler") says how names map to PyTorch's.
"""

import enum
import json
import math
from collections import defaultdict


class DeviceType(enum.Enum):
    CPU = 0
    CUDA = 1


# The attributes table(sort_by=...) can sort on (PyTorch's are the same
# attributes; an unknown one raises AttributeError there too).
SORT_KEYS = ("cpu_time", "cuda_time", "cpu_time_total", "cuda_time_total",
             "self_cpu_time_total", "self_cuda_time_total", "cpu_memory_usage",
             "cuda_memory_usage", "self_cpu_memory_usage", "self_cuda_memory_usage", "count",
             "flops")


def _format_time(time_us):
    if time_us >= 1e6:
        return '{:.3f}s'.format(time_us / 1e6)
    if time_us >= 1e3:
        return '{:.3f}ms'.format(time_us / 1e3)
    return '{:.3f}us'.format(time_us)


def _format_time_share(time_us, total_time_us):
    if total_time_us == 0:
        return "NaN"
    return '{:.2f}%'.format(time_us * 100.0 / total_time_us)


def _format_memory(nbytes):
    KB = 1024
    MB = 1024 * KB
    GB = 1024 * MB
    if abs(nbytes) >= GB:
        return '{:.2f} Gb'.format(nbytes * 1.0 / GB)
    if abs(nbytes) >= MB:
        return '{:.2f} Mb'.format(nbytes * 1.0 / MB)
    if abs(nbytes) >= KB:
        return '{:.2f} Kb'.format(nbytes * 1.0 / KB)
    return str(nbytes) + ' b'


class _Times:
    """The *_str properties and the CUDA figures (always 0: no GPU)."""

    device_type = DeviceType.CPU
    is_async = False
    is_remote = False
    is_legacy = False
    node_id = -1
    cuda_time = cuda_time_total = self_cuda_time_total = 0
    cuda_memory_usage = self_cuda_memory_usage = 0

    @property
    def cpu_time_str(self):
        return _format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self):
        return _format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self):
        return _format_time(self.self_cpu_time_total)

    @property
    def cuda_time_str(self):
        return _format_time(0)

    @property
    def cuda_time_total_str(self):
        return _format_time(0)

    @property
    def self_cuda_time_total_str(self):
        return _format_time(0)


class FunctionEvent(_Times):
    """One recorded op or range: name, start and end (us, from the start
    of the profile), input_shapes, cpu_parent and cpu_children."""

    def __init__(self, id, name, start_us, end_us, input_shapes=None, stack=None,
                 memory=0, flops=0, thread=0, scope=0, category="cpu_op"):
        self.id = id
        # PyTorch's rows put every "ProfilerStep#N" under "ProfilerStep*";
        # the trace keeps the step number.
        self.trace_name = name
        if name.startswith("ProfilerStep#"):
            name = "ProfilerStep*"
        self.name = name
        self.key = name
        self.start_us = start_us
        self.end_us = end_us
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.stack = stack if stack is not None else []
        self.self_cpu_memory_usage = memory
        self.flops = flops
        self.thread = thread
        self.scope = scope
        self.category = category  # the Chrome trace's "cat"
        self.count = 1
        self.cpu_parent = None
        self.cpu_children = []

    @property
    def cpu_time_total(self):
        return self.end_us - self.start_us

    cpu_time = cpu_time_total

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_memory_usage(self):
        return self.self_cpu_memory_usage + sum(c.cpu_memory_usage for c in self.cpu_children)

    def __repr__(self):
        return ("<FunctionEvent id={} name={} cpu_time={} start_us={} end_us={} "
                "cpu_children={} input_shapes={} cpu_memory_usage={}>".format(
                    self.id, self.name, self.cpu_time_str, self.start_us, self.end_us,
                    [c.id for c in self.cpu_children], self.input_shapes,
                    self.cpu_memory_usage))


class FunctionEventAvg(_Times):
    """The sum of the events of one key (their count, times, memory)."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0
        self.self_cpu_time_total = 0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.flops = 0
        self.input_shapes = None
        self.stack = None
        self.scope = None
        self.cpu_children = None
        self.cpu_parent = None

    def add(self, other):
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.stack = other.stack
            self.scope = other.scope
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.flops += other.flops
        return self

    def __iadd__(self, other):
        return self.add(other)

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return ("<FunctionEventAvg key={} self_cpu_time={} cpu_time={} input_shapes={} "
                "cpu_memory_usage={}>".format(self.key, self.self_cpu_time_total_str,
                                              self.cpu_time_str, self.input_shapes,
                                              self.cpu_memory_usage))


class EventList(list):
    """A list of FunctionEvent (or of FunctionEventAvg from key_averages)."""

    def __init__(self, *args, **kwargs):
        use_cuda = kwargs.pop("use_cuda", False)  # noqa: F841 (no GPU)
        self._profile_memory = kwargs.pop("profile_memory", False)
        self._with_flops = kwargs.pop("with_flops", False)
        super().__init__(*args, **kwargs)

    def __str__(self):
        return self.table()

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        """PyTorch's table: one row per entry, sorted by [sort_by] (one of
        SORT_KEYS, largest first) or in recorded order."""
        return _build_table(self, sort_by=sort_by, row_limit=row_limit, header=header,
                            max_src_column_width=max_src_column_width,
                            max_name_column_width=max_name_column_width,
                            max_shapes_column_width=max_shapes_column_width,
                            profile_memory=self._profile_memory, with_flops=self._with_flops,
                            top_level_events_only=top_level_events_only)

    def supported_export_stacks_metrics(self):
        return ["self_cpu_time_total", "self_cuda_time_total"]

    def export_stacks(self, path, metric):
        """Write one line per event that has a stack: its frames outermost
        first, joined by ";", then [metric] in whole microseconds (the
        input of FlameGraph's flamegraph.pl). Needs with_stack=True."""
        if metric not in self.supported_export_stacks_metrics():
            raise ValueError("metric should be one of: "
                             + str(self.supported_export_stacks_metrics()))
        translate_table = str.maketrans(" ;\t\n", "____")
        with open(path, 'w') as f:
            for evt in self:
                if evt.stack and len(evt.stack) > 0:
                    value = getattr(evt, metric)
                    if int(value) > 0:
                        frames = ";".join(e.translate(translate_table)
                                          for e in reversed(evt.stack))
                        f.write(frames + " " + str(int(value)) + "\n")

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0):
        """The events summed by name (and input shapes, and the top
        [group_by_stack_n] stack entries, when asked), in order of first
        appearance."""
        stats = defaultdict(FunctionEventAvg)
        for e in self:
            key = (e.key, e.node_id)
            if group_by_input_shapes:
                key += (str(e.input_shapes),)
            if group_by_stack_n > 0:
                key += tuple(e.stack[:group_by_stack_n])
            stats[key].add(e)
        for a in stats.values():
            a.stack = a.stack[:group_by_stack_n]
            if not group_by_input_shapes:
                a.input_shapes = ""
        return EventList(stats.values(), profile_memory=self._profile_memory,
                         with_flops=self._with_flops)

    def total_average(self):
        total = FunctionEventAvg()
        for e in self:
            total.add(e)
        total.key = "Total"
        return total

    def export_chrome_trace(self, path):
        """Write the events as a Chrome trace (chrome://tracing, Perfetto,
        TensorBoard's trace view): PyTorch's JSON object with "traceEvents",
        complete ("X") events with ts and dur in microseconds."""
        _write_chrome_trace(self, path)


def _chrome_events(events):
    import os
    pid = os.getpid()
    out = []
    for e in sorted(events, key=lambda e: (e.start_us, -e.end_us)):
        args = {"External id": e.id}
        if e.input_shapes:
            args["Input Dims"] = e.input_shapes
        if e.flops:
            args["flops"] = e.flops
        out.append({"ph": "X", "cat": e.category, "name": e.trace_name, "pid": pid, "tid": e.thread,
                    "ts": round(e.start_us, 3), "dur": round(e.cpu_time_total, 3), "args": args})
    return out


def _write_chrome_trace(events, path, extra=None):
    trace = {"schemaVersion": 1, "deviceProperties": [], "traceEvents": _chrome_events(events),
             "traceName": str(path), "displayTimeUnit": "ms"}
    if extra:
        trace.update(extra)
    with open(path, "w") as f:
        json.dump(trace, f)


def _check_sort_key(events, sort_by):
    if sort_by is None or all(hasattr(e, sort_by) for e in events):
        return
    raise AttributeError("table(sort_by={!r}): {} has no attribute {!r}; sort by one of: {}"
                         .format(sort_by, type(events[0]).__name__, sort_by,
                                 ", ".join(SORT_KEYS)))


def _build_table(events, sort_by=None, header=None, row_limit=100, max_src_column_width=75,
                 max_name_column_width=55, max_shapes_column_width=80, with_flops=False,
                 profile_memory=False, top_level_events_only=False):
    """PyTorch 1.13's _build_table (torch/autograd/profiler_util.py), less
    the CUDA columns: the same columns, widths, separators and footer."""
    if len(events) == 0:
        return ""
    _check_sort_key(events, sort_by)
    has_input_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0
                           for e in events)
    if sort_by is not None:
        events = EventList(sorted(events, key=lambda e: getattr(e, sort_by), reverse=True),
                           profile_memory=profile_memory, with_flops=with_flops)

    name_column_width = max(len(e.key) for e in events) + 4
    if max_name_column_width is not None:
        name_column_width = min(name_column_width, max_name_column_width)
    shapes_column_width = max(len(str(e.input_shapes)) for e in events) + 4
    if max_shapes_column_width is not None:
        shapes_column_width = min(shapes_column_width, max_shapes_column_width)
    DEFAULT_COLUMN_WIDTH = 12
    stacks = [e.stack for e in events if e.stack is not None and len(e.stack) > 0]
    has_stack = len(stacks) > 0
    src_column_width = None
    if has_stack:
        src_column_width = max(max(len(entry) for entry in s) for s in stacks) + 4
        if max_src_column_width is not None:
            src_column_width = min(src_column_width, max_src_column_width)

    headers = ['Name', 'Self CPU %', 'Self CPU', 'CPU total %', 'CPU total', 'CPU time avg']
    if profile_memory:
        headers += ['CPU Mem', 'Self CPU Mem']
    headers.append('# of Calls')

    SPACING_SIZE = 2
    row_format, header_sep, line_length = "", "", -SPACING_SIZE

    def add_column(padding, text_dir='>'):
        nonlocal row_format, header_sep, line_length
        row_format += '{: ' + text_dir + str(padding) + '}' + (' ' * SPACING_SIZE)
        header_sep += '-' * padding + (' ' * SPACING_SIZE)
        line_length += padding + SPACING_SIZE

    add_column(name_column_width)
    for _ in headers[1:]:
        add_column(DEFAULT_COLUMN_WIDTH)
    if has_input_shapes:
        headers.append('Input Shapes')
        add_column(shapes_column_width)
    if has_stack:
        headers.append('Source Location')
        add_column(src_column_width, text_dir='<')
    flops_scale = 1.0
    if with_flops:
        raw = [e.flops for e in events if e.flops > 0]
        if raw:
            names = ['FLOPs', 'KFLOPs', 'MFLOPs', 'GFLOPs', 'TFLOPs', 'PFLOPs']
            log_flops = max(0, min(math.log10(min(raw)) / 3, float(len(names) - 1)))
            flops_scale = pow(10, math.floor(log_flops) * -3.0)
            headers.append('Total {}'.format(names[int(log_flops)]))
            add_column(DEFAULT_COLUMN_WIDTH)
        else:
            with_flops = False

    result = []

    def append(s):
        result.append(s)
        result.append('\n')

    total_self = sum(e.self_cpu_time_total for e in events)
    if header is not None:
        append('=' * line_length)
        append(header)
    if top_level_events_only:
        append('=' * line_length)
        append('This report only display top-level ops statistics')
    append(header_sep)
    append(row_format.format(*headers))
    append(header_sep)

    def trim_path(path, width):
        if len(path) > width:
            path = path[len(path) - width:]
            if len(path) > 3:
                path = "..." + path[3:]
        return path

    shown = 0
    for e in events:
        if shown == row_limit:
            break
        if top_level_events_only and e.cpu_parent is not None:
            continue
        shown += 1
        name = e.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[:(max_name_column_width - 3)] + "..."
        row = [name, _format_time_share(e.self_cpu_time_total, total_self),
               e.self_cpu_time_total_str, _format_time_share(e.cpu_time_total, total_self),
               e.cpu_time_total_str, e.cpu_time_str]
        if profile_memory:
            row += [_format_memory(e.cpu_memory_usage), _format_memory(e.self_cpu_memory_usage)]
        row.append(e.count)
        if has_input_shapes:
            row.append(str(e.input_shapes)[:shapes_column_width])
        if has_stack:
            row.append(trim_path(e.stack[0], src_column_width) if e.stack else "")
        if with_flops:
            row.append("--" if e.flops <= 0 else '{0:8.3f}'.format(e.flops * flops_scale))
        append(row_format.format(*row))
        if has_stack:
            empty = [""] * (len(headers) - 1)
            for entry in e.stack[1:5]:
                append(row_format.format(*(empty + [trim_path(entry, src_column_width)])))
            append(row_format.format(*(empty + [""])))
    append(header_sep)
    append("Self CPU time total: {}".format(_format_time(total_self)))
    return ''.join(result)

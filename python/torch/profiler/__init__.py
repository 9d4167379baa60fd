"""torch.profiler: PyTorch's profiler interface over nndb's node event log.

    with torch.profiler.profile(activities=[ProfilerActivity.CPU],
                                record_shapes=True) as prof:
        model(x)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))
    prof.export_chrome_trace("trace.json")

profile records what torch.autograd.profiler.profile records (every
engine node, forward and backward, and the record_function ranges) and
adds PyTorch's schedule / step / on_trace_ready cycle. Everything runs on
the CPU: ProfilerActivity.CUDA is accepted and records nothing.
docs/instruments.md ("torch.profiler") says what differs from PyTorch.
"""

import enum
import os
import time
from warnings import warn

from torch.autograd import profiler as _prof
from torch.autograd.profiler import record_function  # noqa: F401
from torch.autograd.profiler_util import DeviceType, _write_chrome_trace  # noqa: F401

__all__ = ["profile", "record_function", "schedule", "supported_activities",
           "tensorboard_trace_handler", "ProfilerAction", "ProfilerActivity", "DeviceType",
           "kineto_available"]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def supported_activities():
    """The activities this build can record: the CPU (no GPU in nndb)."""
    return {ProfilerActivity.CPU}


def kineto_available():
    return False


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """The action for each step: skip [skip_first] steps, then cycles of
    [wait] idle, [warmup] and [active] recorded steps, [repeat] times (0:
    until the profile ends); the last active step of a cycle hands the
    trace to on_trace_ready. PyTorch 1.13's rule, step for step."""
    def schedule_fn(step):
        assert step >= 0
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return ProfilerAction.NONE
        if mod_step < wait + warmup:
            return ProfilerAction.WARMUP
        return (ProfilerAction.RECORD if mod_step < num_steps - 1
                else ProfilerAction.RECORD_AND_SAVE)
    assert wait >= 0 and warmup >= 0 and active > 0 and repeat >= 0 and skip_first >= 0, \
        "Invalid profiler schedule arguments"
    if warmup == 0:
        warn("Profiler won't be using warmup, this can skew profiler results")
    return schedule_fn


def _default_schedule_fn(_):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """An on_trace_ready that writes each trace as
    dir_name/WORKER.MILLISECONDS.pt.trace.json (or .json.gz), the files
    TensorBoard's profiler plugin reads; WORKER is host_pid by default."""
    def handler_fn(prof):
        nonlocal worker_name
        if not os.path.isdir(dir_name):
            try:
                os.makedirs(dir_name, exist_ok=True)
            except Exception:
                raise RuntimeError("Can't create directory: " + dir_name)
        if not worker_name:
            import socket
            worker_name = "{}_{}".format(socket.gethostname(), str(os.getpid()))
        file_name = "{}.{}.pt.trace.json".format(worker_name, int(time.time() * 1000))
        if use_gzip:
            file_name = file_name + '.gz'
        prof.export_chrome_trace(os.path.join(dir_name, file_name))
    return handler_fn


class _KinetoProfile:
    """start/stop recording and the results of the last recording."""

    def __init__(self, *, activities=None, record_shapes=False, profile_memory=False,
                 with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None):
        self.activities = set(activities) if activities else supported_activities()
        for a in self.activities:
            if not isinstance(a, ProfilerActivity):
                raise TypeError("activities must be ProfilerActivity values, got {!r}"
                                .format(a))
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.experimental_config = experimental_config
        self.profiler = None
        self._metadata = {}  # add_metadata: top-level keys of the trace

    def start(self):
        self.prepare_trace()
        self.start_trace()

    def stop(self):
        self.stop_trace()

    def prepare_trace(self):
        self.profiler = _prof.profile(
            use_cuda=False, use_cpu=ProfilerActivity.CPU in self.activities,
            record_shapes=self.record_shapes, with_flops=self.with_flops,
            profile_memory=self.profile_memory, with_stack=self.with_stack,
            with_modules=self.with_modules)

    def start_trace(self):
        assert self.profiler is not None
        self.profiler.__enter__()

    def stop_trace(self):
        assert self.profiler is not None
        self.profiler.__exit__(None, None, None)

    def _results(self):
        if self.profiler is None or self.profiler.function_events is None:
            raise RuntimeError("the profiler has no results yet: profile a block first "
                               "(with torch.profiler.profile() as prof: ...)")
        return self.profiler

    def export_chrome_trace(self, path):
        """Write the trace as Chrome trace JSON ("traceEvents"); a path
        ending in .gz is gzipped."""
        events = self._results().function_events
        if path.endswith('.gz'):
            import gzip
            import shutil
            import tempfile
            fd, tmp = tempfile.mkstemp(suffix=".json")
            os.close(fd)
            try:
                _write_chrome_trace(events, tmp, self._metadata)
                with open(tmp, 'rb') as fin, gzip.open(path, 'wb') as fout:
                    shutil.copyfileobj(fin, fout)
            finally:
                os.remove(tmp)
            return None
        return _write_chrome_trace(events, path, self._metadata)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """Write the stacks for FlameGraph (needs with_stack=True)."""
        return self._results().export_stacks(path, metric)

    def add_metadata(self, key, value):
        """Add the string [value] under [key] at the top of the trace file."""
        self._metadata[key] = str(value)

    def add_metadata_json(self, key, value):
        """Add the JSON text [value] under [key] at the top of the trace file."""
        import json
        self._metadata[key] = json.loads(value)

    def events(self):
        """The recorded events (an EventList of FunctionEvent)."""
        return self._results().function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """The events summed by name (and input shapes when asked)."""
        return self._results().key_averages(group_by_input_shape, group_by_stack_n)


class profile(_KinetoProfile):
    """with torch.profiler.profile(...) as prof: ... -- see the module
    docstring. With a schedule, call prof.step() once per step: each step
    is a "ProfilerStep#N" range, and on_trace_ready(prof) runs at the end
    of every active cycle (and at exit when recording)."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False, with_flops=False,
                 with_modules=False, experimental_config=None, use_cuda=None):
        activities = set(activities) if activities else supported_activities()
        if use_cuda is not None:
            warn("use_cuda is deprecated, use activities argument instead")
            if use_cuda:
                activities.add(ProfilerActivity.CUDA)
        super().__init__(activities=activities, record_shapes=record_shapes,
                         profile_memory=profile_memory, with_stack=with_stack,
                         with_flops=with_flops, with_modules=with_modules,
                         experimental_config=experimental_config)
        if schedule:
            self.schedule = schedule
            self.record_steps = True
        else:
            self.schedule = _default_schedule_fn
            self.record_steps = False
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self.step_rec_fn = None
        A = ProfilerAction
        start = [self.prepare_trace, self.start_trace]
        again = [self.stop_trace, self._trace_ready, self.prepare_trace, self.start_trace]
        self.action_map = {
            (A.NONE, A.NONE): [],
            (A.NONE, A.WARMUP): [self.prepare_trace],
            (A.NONE, A.RECORD): start,
            (A.NONE, A.RECORD_AND_SAVE): start,
            (A.WARMUP, A.NONE): [lambda: warn("Incorrect schedule: WARMUP followed by NONE"),
                                 self.start_trace, self.stop_trace],
            (A.WARMUP, A.WARMUP): [],
            (A.WARMUP, A.RECORD): [self.start_trace],
            (A.WARMUP, A.RECORD_AND_SAVE): [self.start_trace],
            (A.RECORD, A.NONE): [lambda: warn("Incorrect schedule: RECORD followed by NONE"),
                                 self.stop_trace],
            (A.RECORD, A.WARMUP): [lambda: warn("Incorrect schedule: RECORD followed by WARMUP"),
                                   self.stop_trace],
            (A.RECORD, A.RECORD): [],
            (A.RECORD, A.RECORD_AND_SAVE): [],
            (A.RECORD_AND_SAVE, A.NONE): [self.stop_trace, self._trace_ready],
            (A.RECORD_AND_SAVE, A.WARMUP): [self.stop_trace, self._trace_ready,
                                            self.prepare_trace],
            (A.RECORD_AND_SAVE, A.RECORD): again,
            (A.RECORD_AND_SAVE, A.RECORD_AND_SAVE): again,
            # at exit
            (A.WARMUP, None): [self.start_trace, self.stop_trace],
            (A.RECORD, None): [self.stop_trace, self._trace_ready],
            (A.RECORD_AND_SAVE, None): [self.stop_trace, self._trace_ready],
        }

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()
        return False

    def start(self):
        self._transit_action(ProfilerAction.NONE, self.current_action)
        if self.record_steps:
            self.step_rec_fn = record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def stop(self):
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
        self._transit_action(self.current_action, None)

    def step(self):
        """Signal that the next step begins (and act on the schedule)."""
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
        prev_action = self.current_action
        cur_step = self.step_num
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit_action(prev_action, self.current_action)
        if self.record_steps:
            self.step_rec_fn = record_function("ProfilerStep#" + str(cur_step))
            self.step_rec_fn.__enter__()

    def _trace_ready(self):
        if self.on_trace_ready:
            self.on_trace_ready(self)

    def _transit_action(self, prev_action, current_action):
        for action in self.action_map.get((prev_action, current_action)) or ():
            action()

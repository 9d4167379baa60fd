"""torch.multiprocessing.spawn: fn(i, *args) in nprocs forked processes
(see the package's docstring for why forked), joined; a child's exception
comes back to the parent as ProcessRaisedException with the child's
traceback, as in PyTorch."""
import multiprocessing
import signal
import traceback
import warnings


class ProcessException(Exception):
    __slots__ = ["error_index", "error_pid"]

    def __init__(self, msg, error_index, pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid


class ProcessRaisedException(ProcessException):
    """A child raised: the message holds its traceback."""


class ProcessExitedException(ProcessException):
    """A child exited with a nonzero code or by a signal."""

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name


def _wrap(fn, i, args, error_queue):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except Exception:
        error_queue.put(traceback.format_exc())
        raise SystemExit(1)


class ProcessContext:
    def __init__(self, processes, error_queues):
        self.processes = processes
        self.error_queues = error_queues

    def pids(self):
        return [p.pid for p in self.processes]

    def join(self, timeout=None):
        """True when every child has finished; raises for the first that
        failed, after stopping the others."""
        for p in self.processes:
            p.join(timeout)
        failed = [(i, p) for i, p in enumerate(self.processes)
                  if p.exitcode is not None and p.exitcode != 0]
        if not failed:
            return all(p.exitcode is not None for p in self.processes)
        for p in self.processes:
            if p.is_alive():
                p.terminate()
            p.join()
        i, p = failed[0]
        if not self.error_queues[i].empty():
            tb = self.error_queues[i].get()
            msg = f"\n\n-- Process {i} terminated with the following error:\n{tb}"
            raise ProcessRaisedException(msg, i, p.pid)
        if p.exitcode < 0:
            name = signal.Signals(-p.exitcode).name
            raise ProcessExitedException(f"process {i} terminated with signal {name}", i,
                                         p.pid, p.exitcode, name)
        raise ProcessExitedException(f"process {i} terminated with exit code {p.exitcode}", i,
                                     p.pid, p.exitcode)


SpawnContext = ProcessContext


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    ctx = multiprocessing.get_context("fork")
    error_queues, processes = [], []
    for i in range(nprocs):
        q = ctx.SimpleQueue()
        p = ctx.Process(target=_wrap, args=(fn, i, args, q), daemon=daemon)
        p.start()
        error_queues.append(q)
        processes.append(p)
    context = ProcessContext(processes, error_queues)
    if not join:
        return context
    while not context.join():
        pass


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    if start_method != "spawn":
        warnings.warn(f"This method only supports start_method=spawn (got: {start_method}).\n"
                      "To use a different start_method use:\n\t\t "
                      "torch.multiprocessing.start_processes(...)")
    return start_processes(fn, args, nprocs, join, daemon, "spawn")

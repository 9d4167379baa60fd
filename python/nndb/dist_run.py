"""dist_run: run a script on several ranks from inside one session.

The REPL, a notebook and a drill are one process; data-parallel code needs
several. dist_run(code_or_file, nprocs=2, timeout=300, check=True) starts

    mpirun --oversubscribe -np N --tag-output nndb run FILE

(code is written to a temporary .nn file, so the ranks see the prelude's
bare names as the session does; a path to an existing script runs that
script), streams every line as it comes, tagged "[rank R]", and returns a
record: r.ranks[R] is rank R's output untagged, r.output every line tagged
(mpirun's own lines untagged), r.returncode and r.ok. docs/distributed.md.

A failed run raises RuntimeError with the ranks' last lines unless
check=False. Past the timeout, or on Ctrl-C / a notebook's interrupt,
mpirun and every rank (one process group) are ended.
"""

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

__all__ = ["dist_run", "DistRun"]

# mpirun --tag-output's prefix: "[job,rank]<stdout>:".
_TAG = re.compile(r"\[(\d+),(\d+)\]<([a-z]+)>:")


class DistRun:
    """What dist_run returns: output, ranks, returncode, ok."""

    def __init__(self, output, ranks, returncode):
        self.output = output
        self.ranks = ranks
        self.returncode = returncode
        self.ok = returncode == 0

    def __repr__(self):
        return (f"DistRun(ok={self.ok}, returncode={self.returncode}, "
                f"ranks={len(self.ranks)})")


def _nndb_exe():
    """NNDB_EXE, this process when it is nndb, or the nndb beside it (the
    kernel, nndb-kernel, is built next to it); None when there is none."""
    env = os.environ.get("NNDB_EXE")
    if env:
        return env if os.access(env, os.X_OK) else None
    try:
        exe = os.readlink("/proc/self/exe")
    except OSError:
        return None
    if os.path.basename(exe) == "nndb":
        return exe
    beside = os.path.join(os.path.dirname(exe), "nndb")
    return beside if os.access(beside, os.X_OK) else None


class _Lines:
    """Collects mpirun's lines: every line tagged, and each rank's own."""

    def __init__(self, nprocs):
        self.all = []
        self.tagged = []
        self.ranks = [[] for _ in range(nprocs)]

    def add(self, line):
        m = _TAG.match(line)
        if m:
            rank, stream = int(m.group(2)), m.group(3)
            # Open MPI tags each write, not each line: drop the tags inside.
            text = _TAG.sub("", line[m.end():])
            shown = f"[rank {rank}] {text}\n"
            out = sys.stderr if stream == "stderr" else sys.stdout
        else:
            rank, text = -1, line
            shown = line + "\n"
            out = sys.stderr  # mpirun's own words
        out.write(shown)
        out.flush()
        self.all.append(shown)
        if rank >= 0:
            self.tagged.append(shown)
            if rank < len(self.ranks):
                self.ranks[rank].append(text + "\n")


def _end(proc):
    """End mpirun (it ends the ranks it started on SIGTERM), then the whole
    group if it lingers."""
    try:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    except ProcessLookupError:
        pass


def dist_run(code, nprocs=2, timeout=300, check=True):
    """dist_run(code_or_file, nprocs=2, timeout=300, check=True)

    Run a script on [nprocs] ranks (mpirun ... nndb run FILE), streaming its
    lines tagged [rank R]; returns a record with .ranks[R] (rank R's output),
    .output, .returncode and .ok. A failing run raises RuntimeError with the
    last lines unless check=False."""
    if not isinstance(code, str):
        raise TypeError("dist_run(): expected the code to run (a str) or a script's path, not "
                        f"{type(code).__name__}")
    if isinstance(nprocs, bool) or not isinstance(nprocs, int):
        raise TypeError(f"dist_run(): nprocs must be an int, not {type(nprocs).__name__}")
    if not 1 <= nprocs <= 64:
        raise ValueError(f"dist_run(): nprocs must be 1..64, not {nprocs}")
    timeout = float(timeout)
    if not timeout > 0:
        raise ValueError("dist_run(): timeout must be > 0")
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        raise RuntimeError("dist_run(): mpirun is not on PATH, so no ranks can be started here. "
                           "Install Open MPI (apt-get install openmpi-bin libopenmpi-dev)")
    exe = _nndb_exe()
    if exe is None:
        raise RuntimeError("dist_run(): cannot find the nndb executable (set NNDB_EXE)")
    temp = None
    if "\n" not in code and os.access(code, os.R_OK):
        path = code
    else:
        fd, temp = tempfile.mkstemp(prefix="nndb-dist-run-", suffix=".nn")
        with os.fdopen(fd, "w") as f:
            f.write(code + "\n")
        path = temp
    argv = [mpirun] + (["--allow-run-as-root"] if os.geteuid() == 0 else []) + [
        "--oversubscribe", "-np", str(nprocs), "--tag-output", exe, "run", path]
    sys.stdout.flush()
    sys.stderr.flush()
    lines = _Lines(nprocs)
    timed_out = False
    try:
        # A group of its own: a timeout or Ctrl-C ends mpirun and every rank.
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        fd = proc.stdout.fileno()
        pending = b""
        start = time.monotonic()
        try:
            while True:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        break
                    pending += chunk
                    *done, pending = pending.split(b"\n")
                    for line in done:
                        lines.add(line.decode("utf-8", "replace"))
                if time.monotonic() - start > timeout:
                    timed_out = True
                    _end(proc)
                    break
        except KeyboardInterrupt:
            _end(proc)
            raise
        finally:
            if pending:
                lines.add(pending.decode("utf-8", "replace"))
            proc.stdout.close()
        rc = proc.wait()
    finally:
        if temp:
            os.unlink(temp)
    if rc < 0:
        rc = 128 - rc  # killed by a signal, as a shell reports it
    if timed_out:
        raise RuntimeError(f"dist_run(): the {nprocs} ranks did not finish in {timeout:g} s "
                           "(timeout=); mpirun and every rank were ended")
    if check and rc != 0:
        last = (lines.tagged or lines.all)[-8:]
        raise RuntimeError(f"dist_run(): mpirun -np {nprocs} nndb run failed (exit status {rc}); "
                           "its last lines:\n" + "".join(last))
    return DistRun("".join(lines.all), ["".join(r) for r in lines.ranks], rc)

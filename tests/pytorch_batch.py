"""Run many PyTorch scripts under /usr/bin/python3 with one `import torch`.

The comparison suites (tests/py, tests/compat) run every script twice: under
nndb and under Debian's CPython with PyTorch. Importing PyTorch costs about
2.5 s of CPU here, more than most scripts themselves, so this runner imports
it once and forks a child per script. Each child is a copy of a process that
has done nothing but import torch: it runs the script as `python3 NAME.py`
would (run as __main__ from its own folder, sys.argv and sys.path[0] set,
uncaught exceptions printed with exit status 1, SystemExit's code, atexit
handlers), with stdout and stderr in files. A script that sets environment
variables (OPENBLAS_NUM_THREADS before `import torch`, say) runs in a fresh
interpreter of its own: the libraries torch loads read them only then.

    /usr/bin/python3 tests/pytorch_batch.py SRC WORK TIMEOUT NAME ...

runs each SRC/NAME.py in a fresh copy of SRC (WORK/run, so that files one
script writes are not there for the next) and writes WORK/NAME.py.out,
WORK/NAME.py.err and WORK/NAME.py.rc (the exit status as the shell reports
it: 124 when the script ran past TIMEOUT seconds and was killed, 128+N when
signal N ended it). NNDB_PYTORCH_FRESH=1 runs each script
in its own fresh interpreter instead, for when a difference is suspected to
come from the shared import.
"""
import atexit
import builtins
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import types


def run_fresh(script, out, err, timeout):
    folder, name = os.path.split(script)
    try:
        return subprocess.run([sys.executable, name], cwd=folder or ".", stdout=out,
                              stderr=err, stdin=subprocess.DEVNULL, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return 124


def exit_status(e):
    """The exit status CPython gives an uncaught SystemExit (printing a code
    that is neither None nor an int, as it does)."""
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    print(e.code, file=sys.stderr)
    return 1


def child(name, out, err):
    """Run NAME.py as __main__ and return its exit status. The interpreter
    is left with os._exit after what a normal exit does that a script can
    see (joining its threads, atexit handlers, flushing the streams): a
    normal exit would also tear down every module torch loaded, which in a
    forked copy costs 1.6 s of CPU, copying the pages it touches."""
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    path = os.path.abspath(name)
    sys.path[0] = os.getcwd()
    sys.argv = [name]
    mp = sys.modules.get("multiprocessing.process")
    if mp is not None:  # torch imported it: where spawn's children start
        mp.ORIGINAL_DIR = os.getcwd()
    main = types.ModuleType("__main__")
    main.__file__ = path  # absolute, as CPython 3.9+ sets it
    main.__builtins__ = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    sys.modules["__main__"] = main
    try:
        with open(path, "rb") as f:
            code = compile(f.read(), path, "exec")
        exec(code, main.__dict__)
        status = 0
    except SystemExit as e:
        status = exit_status(e)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        status = 1
    try:
        threading._shutdown()
        atexit._run_exitfuncs()
    except SystemExit as e:
        status = exit_status(e)
    except BaseException:
        sys.excepthook(*sys.exc_info())
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            status = status or 120  # as CPython when stdout cannot be flushed
    return status


# Sets a variable of this process's environment (os.environ[...] = ...,
# os.environ.update / setdefault, os.putenv).
SETS_ENVIRON = re.compile(rb"environ\[[^]]*\]\s*=[^=]|environ\.(update|setdefault)|putenv")


def run_forked(script, out, err, timeout):
    folder, name = os.path.split(script)
    with open(script, "rb") as f:
        if SETS_ENVIRON.search(f.read()):
            return run_fresh(script, out, err, timeout)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: become `python3 NAME.py` in FOLDER
        status = 1
        try:
            os.chdir(folder or ".")
            status = child(name, out, err)
        finally:
            os._exit(status)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return 124
        time.sleep(0.01)
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, work, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    fresh = os.environ.get("NNDB_PYTORCH_FRESH") == "1"
    if not fresh:
        import torch  # noqa: F401  (the one import the children share)
    scratch = os.path.join(work, "run")
    for name in sys.argv[4:]:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.copytree(src, scratch)
        base = os.path.join(work, name + ".py")
        with open(base + ".out", "wb") as out, open(base + ".err", "wb") as err:
            run = run_fresh if fresh else run_forked
            rc = run(os.path.join(scratch, name + ".py"), out, err, timeout)
        with open(base + ".rc", "w") as f:
            f.write(f"{rc}\n")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

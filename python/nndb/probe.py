"""GPU probes in Python: nndb.probe(), nndb.doctor(), %probe and %doctor.

They run the code of the `nndb probe` and `nndb doctor` commands
(engine/probe/, through torch._C._probe_cli) with its output captured, so
what they show is exactly what the commands print when their output is not
a terminal (no colour).
"""

import json as _json
import shlex
import sys
import types

__all__ = ["probe", "doctor", "ProbeReport", "MAGICS", "register"]


class ProbeReport:
    """The command's report: text (what it prints), status (its exit status:
    for doctor 1 when a finding is a warning or worse), errors (its stderr),
    and data (the parsed JSON when asked with json=True)."""

    def __init__(self, command, status, text, errors, data=None):
        self.command = command
        self.status = status
        self.text = text
        self.errors = errors
        self.data = data

    def __repr__(self):
        # print(report) adds the newline the command's last line has
        return self.text[:-1] if self.text.endswith("\n") else self.text

    def _repr_html_(self):
        import html
        return "<pre>" + html.escape(self.text) + "</pre>"

    def __bool__(self):
        return self.status == 0


def _run(argv):
    from torch import _C
    return _C._probe_cli(list(argv))


def _report(command, options, want_json):
    args = [command] + list(options) + (["--json"] if want_json else [])
    status, out, err = _run(args)
    if status == 2 or status == 3:
        raise RuntimeError(err.strip() or f"nndb {command} failed (status {status})")
    data = _json.loads(out) if want_json and out.strip() else None
    return ProbeReport(command, status, out, err, data)


def probe(json=False, bandwidth=True):
    """What the machine says about its GPUs, their PCIe links, drivers and
    device nodes, and where each reading came from (`nndb probe`).
    bandwidth=False skips the PCIe copy measurement (--no-bandwidth);
    json=True also parses the JSON report into .data."""
    return _report("probe", [] if bandwidth else ["--no-bandwidth"], json)


def doctor(json=False):
    """What the probe's readings mean and what to do (`nndb doctor`):
    a falsy report when any finding is a warning or worse."""
    return _report("doctor", [], json)


def _cli_magic(command):
    def magic(session, line, frame):
        # Exactly the command's streams: %probe --json | %doctor ...
        status, out, err = _run([command] + shlex.split(line))
        sys.stdout.write(out)
        sys.stdout.flush()
        if err:
            sys.stderr.write(err)
        if status == 2:
            from nndb.magics import UsageError
            raise UsageError(f"%{command}: bad usage (see above)")
    magic.__doc__ = f"%{command} [options]: `nndb {command}` in the session."
    return magic


MAGICS = {"probe": _cli_magic("probe"), "doctor": _cli_magic("doctor")}

DOCS = {"probe": "%probe [--json] [--no-bandwidth]: the GPUs, their PCIe links, drivers and "
                 "device nodes (nndb probe).",
        "doctor": "%doctor [--json]: what is wrong with the GPU set-up and how to fix it "
                  "(nndb doctor)."}


def register(magics, docs):
    """Add %probe and %doctor to a session's magic table (nndb.magics)."""
    magics.update(MAGICS)
    docs.update(DOCS)


class _CallableModule(types.ModuleType):
    """nndb.probe() is the probe, and nndb.probe the module of its names."""

    def __call__(self, json=False, bandwidth=True):
        return probe(json=json, bandwidth=bandwidth)


sys.modules[__name__].__class__ = _CallableModule

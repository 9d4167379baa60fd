"""GPU probes in Python: gpus(), doctor(), nndb.probe(), %probe and %doctor.

They run the code of the `nndb probe` and `nndb doctor` commands
(engine/probe/, through torch._C), so what they show is exactly what the
commands print when their output is not a terminal (no colour).

    gpus(root=None)      the GPUs as GPU records (name, link, vram_total, ...)
    doctor(root=None)    the findings as Finding records (id, severity, ...),
                         and printed, the command's report
    probe()              the probe's report (nndb.probe() is the same)

root= reads a recorded machine tree (sys, proc, dev, etc, opt) instead of /,
exactly as NNDB_SYSROOT does, and wins over it (docs/probes.md).
"""

import os
import sys
import types

__all__ = ["probe", "doctor", "gpus", "ProbeReport", "DoctorReport", "Finding", "GPU",
           "MAGICS", "DOCS", "EXAMPLES", "register"]


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


class Finding:
    """One finding of the doctor: id, severity ('ok', 'info', 'warn',
    'error'), device (a PCI address or 'host'), summary, evidence (a list of
    'key = value unit  (source)' strings) and fix."""

    def __init__(self, id, severity, device, summary, evidence, fix):
        self.id = id
        self.severity = severity
        self.device = device
        self.summary = summary
        self.evidence = evidence
        self.fix = fix

    def __repr__(self):
        return f"Finding(id={self.id!r}, severity={self.severity!r}, device={self.device!r})"


class DoctorReport(list):
    """doctor()'s answer: the list of findings, errors first, that prints
    (and shows in Jupyter) as the command's report; status is the command's
    exit status, and the report is falsy when a finding is a warning or
    worse."""

    def __init__(self, findings, status, text, errors="", data=None):
        super().__init__(findings)
        self.command = "doctor"
        self.status = status
        self.text = text
        self.errors = errors
        self.data = data

    __repr__ = ProbeReport.__repr__
    _repr_html_ = ProbeReport._repr_html_
    __bool__ = ProbeReport.__bool__


_VENDORS = {0x10DE: "NVIDIA", 0x1002: "AMD", 0x8086: "Intel"}


def _gen(gts):
    """nn_probe_gen_name: the PCIe generation of a per-lane rate."""
    for limit, name in ((3, "Gen1"), (6, "Gen2"), (10, "Gen3"), (20, "Gen4"), (40, "Gen5"),
                        (80, "Gen6")):
        if gts < limit:
            return name
    return "Gen7"


class GPU:
    """One GPU as the probe read it. None means the machine did not say: a
    reading is never written as 0. readings, sources and units map every
    probe key to its value, the file or call it came from, and its unit."""

    _FIELDS = ("name", "vendor", "pci", "driver", "vram_total", "vram_used", "link", "link_max",
               "narrowest_hop", "link_gbps", "temperature", "power", "power_cap", "fan",
               "fan_rpm", "fan_percent", "numa_node", "iommu_group", "gfx_target",
               "driver_version", "rocm_version", "vbios", "uuid", "render_node", "bar_size")

    def __init__(self, raw, host):
        r = self.readings = {}
        self.sources, self.units = {}, {}
        for key, value, unit, source in raw["readings"]:
            r[key], self.units[key], self.sources[key] = value, unit, source
        hostr = {key: value for key, value, _, _ in host}

        def first(*keys, within=r):
            return next((within[k] for k in keys if within.get(k) is not None), None)

        def link(*pairs):
            for wkey, skey in pairs:
                w, s = r.get(wkey), r.get(skey)
                if w is not None and s is not None and w > 0 and s > 0:
                    return f"x{w} {_gen(s)}"
            return None

        nvidia, amd = raw["vendor"] == 0x10DE, raw["vendor"] == 0x1002
        self.name = raw["name"]
        self.vendor = _VENDORS.get(raw["vendor"], f"0x{raw['vendor']:04x}")
        self.pci = raw["pci"]
        self.driver = raw["driver"] or None
        self.vram_total = first("mem.total", "rsmi.mem.total")
        self.vram_used = first("mem.used")
        self.link = link(("pci.link.narrowest_width", "pci.link.narrowest_speed"),
                         ("pci.link.cur_width", "pci.link.cur_speed"))
        self.link_max = link(("pci.link.card_max_width", "pci.link.card_max_speed"),
                             ("pci.link.max_width", "pci.link.max_speed"))
        self.narrowest_hop = first("pci.link.narrowest_hop")
        self.link_gbps = first("pci.link.narrowest_gbps")
        self.temperature = first("temp.gpu", "temp.edge", "rsmi.temp.edge", "temp.junction")
        self.power = first("power.average", "rsmi.power.average")
        self.power_cap = first("power.cap")
        fan = r.get("fan.present")
        self.fan = None if fan is None else fan != 0
        self.fan_rpm = first("fan.rpm")
        self.fan_percent = first("fan.percent")
        numa = r.get("pci.numa_node")
        # The kernel writes -1 for "no NUMA affinity": that is None, not a node.
        self.numa_node = numa if numa is not None and numa >= 0 else None
        self.iommu_group = first("pci.iommu_group")
        self.gfx_target = first("amdgpu.gfx_target")
        # Driver and stack versions are machine-wide; each GPU shows its vendor's.
        self.driver_version = (first("nvidia.driver.kernel_version", "nvml.driver_version",
                                     within=hostr) if nvidia else None)
        self.rocm_version = first("rocm.version", within=hostr) if amd else None
        self.vbios = first("amdgpu.vbios", "nvidia.vbios")
        self.uuid = first("nvidia.uuid")
        self.render_node = first("drm.render_node")
        self.bar_size = first("pci.bar.largest")

    def __repr__(self):
        inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._FIELDS)
        return f"GPU({inner})"


def _root(who, root):
    """The tree to read: [root] when given, else NNDB_SYSROOT when set, else
    None for the real machine. A named tree must be a directory: a typo in
    a root would otherwise read as a machine with nothing in it."""
    if root is None:
        root = os.environ.get("NNDB_SYSROOT") or None
        if root is None:
            return None
    elif not isinstance(root, str):
        raise TypeError(f"{who}: root must be a str (a directory), not {type(root).__name__}")
    try:
        os.stat(root)
    except OSError as e:
        raise OSError(f"{who}: cannot read the machine tree '{root}': {e.strerror}") from None
    if not os.path.isdir(root):
        raise OSError(f"{who}: the machine tree '{root}' is not a directory")
    return root


def _read(who, root, doctor, bandwidth=False):
    from torch import _C
    return _C._probe_read(_root(who, root), doctor, bandwidth)


def gpus(root=None):
    """The machine's GPUs as a list of GPU records, [] on a CPU-only machine.
    Each has name, vendor, pci (the PCI address), driver, vram_total and
    vram_used (bytes), link (the narrowest PCIe hop on the way to the CPU,
    'x4 Gen3'), link_max (what the card can do), narrowest_hop, link_gbps,
    temperature (C), power and power_cap (W), fan (True/False), fan_rpm,
    fan_percent, numa_node, iommu_group, gfx_target (AMD), driver_version
    (NVIDIA), rocm_version (AMD), vbios, uuid, render_node and bar_size;
    .readings maps every probe key to its value, .sources to the file or
    call it came from and .units to its unit. root= reads a recorded
    machine tree instead of / (as NNDB_SYSROOT does).

    Example:
        g = gpus(); [(x.name, x.link, x.vram_total) for x in g]
    """
    res = _read("gpus()", root, False)
    return [GPU(g, res["host"]) for g in res["gpus"]]


def probe(json=False, bandwidth=True, root=None):
    """What the machine says about its GPUs, their PCIe links, drivers and
    device nodes, and where each reading came from (`nndb probe`).
    bandwidth=False skips the PCIe copy measurement (--no-bandwidth);
    json=True also parses the JSON report into .data; root= reads a
    recorded machine tree instead of /."""
    res = _read("probe()", root, False, bandwidth)
    if json:
        import json
        return ProbeReport("probe", res["status"], res["json"], "", json.loads(res["json"]))
    return ProbeReport("probe", res["status"], res["text"], "")


def doctor(root=None, json=False):
    """What the probe's readings mean: a list of Finding records (id, severity
    'ok' / 'info' / 'warn' / 'error', device (a PCI address or 'host'),
    summary, evidence (a list of 'key = value (source)' strings) and fix),
    errors first; printed, it is the `nndb doctor` report, and it is falsy
    when a finding is a warning or worse. docs/probes.md lists every id.
    root= reads a recorded machine tree instead of /; json=True makes the
    printed report the JSON one (parsed into .data).

    Example:
        [f.id for f in doctor() if f.severity in ('warn', 'error')]
    """
    res = _read("doctor()", root, True)
    found = [Finding(*f) for f in res["findings"]]
    if json:
        import json
        return DoctorReport(found, res["status"], res["json"], "", json.loads(res["json"]))
    return DoctorReport(found, res["status"], res["text"])


def _run(argv):
    from torch import _C
    return _C._probe_cli(list(argv))


_OPTIONS = {"probe": ("--json", "--no-bandwidth"), "doctor": ("--json",)}


def _cli_magic(command):
    def magic(session, line, frame):
        # Exactly the command's streams: %probe --json | %doctor ...;
        # --root DIR (or --root=DIR) is the magic's own: the command takes
        # the tree from NNDB_SYSROOT, which root= stands in for. A comment
        # after the options is not one.
        from nndb.magics import UsageError
        known = _OPTIONS[command]
        words, root = [], None
        import shlex
        it = iter(shlex.split(line, comments=True))
        for w in it:
            if w == "--root":
                root = next(it, None)
                if root is None:
                    raise UsageError(f"%{command} --root needs a directory")
            elif w.startswith("--root="):
                root = w[len("--root="):]
            elif w in known:
                words.append(w)
            else:
                raise UsageError(f"%{command}: unknown option {w!r}; the options are "
                                 + ", ".join(known + ("--root DIR",)))
        if root is not None:
            res = _read(f"%{command}", root, command == "doctor",
                        "--no-bandwidth" not in words)
            sys.stdout.write(res["json"] if "--json" in words else res["text"])
            sys.stdout.flush()
            return
        status, out, err = _run([command] + words)
        sys.stdout.write(out)
        sys.stdout.flush()
        if err:
            sys.stderr.write(err)
    magic.__doc__ = f"%{command} [options]: `nndb {command}` in the session."
    return magic


MAGICS = {"probe": _cli_magic("probe"), "doctor": _cli_magic("doctor")}

DOCS = {"probe": "%probe [--json] [--no-bandwidth] [--root DIR]: The GPUs, their PCIe path, "
                 "driver and device nodes, each reading with its source (as `nndb probe`); "
                 "--root reads a recorded machine tree instead of /.",
        "doctor": "%doctor [--json] [--root DIR]: Findings about the GPU setup, each with "
                  "evidence and a fix (as `nndb doctor`); --root reads a recorded machine tree "
                  "instead of /."}
EXAMPLES = {"probe": "%probe --no-bandwidth", "doctor": "%doctor"}


def register(magics, docs):
    """Add %probe and %doctor to a session's magic table (nndb.magics)."""
    magics.update(MAGICS)
    docs.update(DOCS)


class _CallableModule(types.ModuleType):
    """nndb.probe() is the probe, and nndb.probe the module of its names."""

    def __call__(self, json=False, bandwidth=True, root=None):
        return probe(json=json, bandwidth=bandwidth, root=root)


sys.modules[__name__].__class__ = _CallableModule

"""nndb's own names, checked inline: %probe and %doctor print exactly what
`nndb probe` and `nndb doctor` print (on a GPU machine, up to the live
readings that change between two runs: temperature, power, clocks,
utilisation, so numbers are masked there); nndb.probe() is the same report;
%profile and %stats are registered in the session's magic table and run.
PyTorch has none of them: under /usr/bin/python3 this script prints the
lines the checks must print."""
import contextlib
import io
import os
import re
import subprocess
import sys

try:
    import nndb
    from nndb import magics
except ImportError:
    nndb = None

CASES = [("probe", "--no-bandwidth"), ("doctor", ""), ("probe", "--json --no-bandwidth")]
NAMES = ["probe", "doctor", "profile", "stats"]

if nndb is None:
    for cmd, args in CASES:
        print(f"%{cmd} {args} == nndb {cmd} {args}: True")
    print("nndb.probe(bandwidth=False) == nndb probe --no-bandwidth: True")
    print("nndb.doctor().status == its exit status: True")
    print("registered:", NAMES)
    print("%profile: profile: True matmul row True")
    print("%stats: 2 rows, the note True")
    sys.exit(0)

exe = os.readlink("/proc/self/exe")


def same(a, b):
    """Equal, or equal with every number masked (two runs of a live probe)."""
    number = re.compile(r"-?\d+(\.\d+)?(e[-+]?\d+)?")
    return a == b or (a != "" and number.sub("#", a) == number.sub("#", b))


def magic(name, line, ns=None):
    frame = sys._getframe()
    if ns:
        frame.f_globals.update(ns)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        magics._LINE[name](None, line, frame)
    return buf.getvalue()


for cmd, args in CASES:
    want = subprocess.run([exe, cmd] + args.split(), capture_output=True, text=True).stdout
    print(f"%{cmd} {args} == nndb {cmd} {args}: {same(magic(cmd, args), want)}")
want = subprocess.run([exe, "probe", "--no-bandwidth"], capture_output=True, text=True).stdout
print("nndb.probe(bandwidth=False) == nndb probe --no-bandwidth:",
      same(repr(nndb.probe(bandwidth=False)) + "\n", want))
done = subprocess.run([exe, "doctor"], capture_output=True, text=True)
print("nndb.doctor().status == its exit status:", nndb.doctor().status == done.returncode)
print("registered:", [n for n in NAMES if n in magics._LINE])

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

a, b = torch.randn(16, 16), torch.randn(16, 16)
text = magic("profile", "c = a @ b", {"a": a, "b": b})
print("%profile: profile:", text.startswith("profile: "), "matmul row",
      any(line.startswith("matmul ") for line in text.splitlines()))
net = nn.Linear(2, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
text = magic("stats", "net, opt", {"net": net, "opt": opt})
print("%stats:", sum(line.startswith("net.") for line in text.splitlines()), "rows, the note",
      "appears after the optimizer's next step" in text)

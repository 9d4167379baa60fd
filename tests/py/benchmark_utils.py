"""torch.utils.benchmark under nndb: Timer's measurements have PyTorch's
shape (their times vary, so the repr is printed with the numbers replaced),
and Measurements built from known times print exactly PyTorch's repr,
statistics, units, significant figures and Compare tables (trimmed,
highlighted, colored). Fails where torch.utils.benchmark is missing."""
import re

import torch
import torch.utils.benchmark as benchmark
from torch.utils.benchmark import Compare, Measurement, Timer
from torch.utils.benchmark.utils.common import TaskSpec, select_unit, trim_sigfig


def shape(m, autorange=False):
    """The repr with its address and measured numbers blanked out."""
    s = re.sub(r"0x[0-9a-f]+", "0x?", repr(m))
    s = re.sub(r"\d+\.\d+ (ns|us|ms|s)\b", "T", s)
    s = re.sub(r"\(\d+\.\d+ to \d+\.\d+\)", "(T to T)", s)
    s = re.sub(r"\d+ measurements?, \d+ runs", "N measurements, R runs", s)
    if autorange:
        # How many blocks ran (so the Median: and IQR lines) and whether
        # the run was noisy (the WARNING lines) are chance.
        s = s.replace("Median: ", "").replace("runs ,", "runs per measurement,")
        s = "\n".join(l for l in s.split("\n") if not re.match(r"  (IQR|WARNING)|\s+This ", l))
    return s


print([n for n in ("Timer", "Measurement", "Compare", "Colorize", "Language", "TaskSpec", "select_unit",
                   "trim_sigfig", "unit_to_english", "ordered_unique", "set_torch_threads", "timer")
       if hasattr(benchmark, n)])

# Timer on real statements: the result's type, fields and layout.
seen = []
before = torch.get_num_threads()
t = Timer("y = x * 2\nseen.append(torch.get_num_threads())", setup="x = torch.ones(8)",
          globals={"seen": seen}, label="mul", sub_label="ones(8)", description="n=8", num_threads=3)
m = t.timeit(50)
print(type(m).__name__, type(m).__module__, m.number_per_run, len(m.raw_times), len(m.times))
print(shape(m))
print(set(seen), len(seen), torch.get_num_threads() == before)
print(m.label, m.sub_label, m.description, m.num_threads, m.stmt.split("\n")[0], m.setup, m.env, m.metadata)
print(m.title, m.median > 0, m.mean > 0, m.iqr == 0, m.times[0] == m.raw_times[0] / 50)

m = Timer("x + 1", setup="x = torch.ones(4)").blocked_autorange(min_run_time=0.05)
print(shape(m, autorange=True))
print(len(m.raw_times) >= 1, sum(m.raw_times) >= 0.05, m.number_per_run >= 1, 1 <= m.significant_figures <= 4)
m = Timer("torch.ones(3).sum()").adaptive_autorange(threshold=0.1, max_run_time=0.2)
print(shape(m, autorange=True).split("\n")[1], isinstance(m.meets_confidence(), bool), len(m.raw_times) >= 1)
called = []
Timer("pass").blocked_autorange(callback=lambda n, t: called.append(n), min_run_time=0.01)
print(len(called) > 0, all(isinstance(n, int) for n in called))
print(shape(Timer("""
    a = 1
    b = a + 1
""", setup="import math\nc = 2").timeit(10)))

for bad in (lambda: Timer(lambda: 1), lambda: Timer("pass").repeat(), lambda: Timer("pass").autorange(),
            lambda: Timer("pass", global_setup="int x;"), lambda: Compare([1.5])):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)


# Measurements from known times: everything printed is exact.
def M(times, number=1, stmt="x + 1", **kw):
    return Measurement(number_per_run=number, raw_times=[v * number for v in times],
                       task_spec=TaskSpec(stmt=stmt, setup=kw.pop("setup", "pass"), **kw))


def show(m):
    print(re.sub(r"0x[0-9a-f]+", "0x?", repr(m)))
    print(m.median, m.mean, m.iqr, m.significant_figures, m.meets_confidence(), m.meets_confidence(0.5),
          m.has_warnings, m.title, m.as_row_name)


show(M([1e-6, 1.1e-6, 1.2e-6, 1.3e-6, 5e-6], label="L", sub_label="a", description="d1"))
show(M([2.5e-3, 2.5e-3, 2.5e-3], number=100, setup="x = 1"))
show(M([4.25e-8], number=10000, stmt="a = 1\nb = 2", sub_label="tiny", setup="p\nq"))
show(M([1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5], label="slow"))
show(M([3e-5, 3.1e-5, 3.05e-5, 3.2e-5], description="conv"))
show(M([1e-6, 1e-6, 1e-6, 1e-6]))
print([select_unit(v) for v in (5e-10, 1e-9, 9.99e-7, 1e-6, 1e-3, 0.5, 2.0, 2000.0)])
print([trim_sigfig(v, n) for v, n in ((3.14159, 2), (1234.5, 1), (0.0123456, 3), (99.95, 3), (-7.77, 1))])
print([benchmark.unit_to_english(u) for u in ("ns", "us", "ms", "s")], benchmark.ordered_unique([3, 1, 3, 2, 1]))

merged = Measurement.merge([M([1e-6, 2e-6], number=10, label="A"), M([3e-6], number=5, label="A"),
                            M([4e-6], label="B")])
print([(x.label, x.number_per_run, [round(v, 12) for v in x.raw_times]) for x in merged])

ms = [
    M([1e-6, 1.1e-6, 1.2e-6, 1.3e-6, 5e-6], label="add", sub_label="float", description="n=1"),
    M([2e-6, 2.1e-6, 2.2e-6, 2.3e-6], label="add", sub_label="float", description="n=100"),
    M([3.5e-5] * 3, label="add", sub_label="int", description="n=1"),
    M([3.5e-5, 3.6e-5], label="add", sub_label="int", description="n=100"),
    M([4.1e-5] * 3, label="add", sub_label="int", description="n=100", num_threads=4),
    M([7.2e-4, 7.3e-4, 7.4e-4, 9e-4], label="mm", sub_label="float", description="64", env="old"),
    M([1.2e-3, 1.3e-3], label="mm", sub_label="float", description="256", env="old"),
    M([1.1e-3, 1.15e-3], label="mm", sub_label="float", description="256", env="new"),
    M([4e-7, 4e-7], stmt="y = x.relu()", description="n=1"),
    # a replicate of the first: Compare merges it in
    M([1.05e-6, 1.15e-6], number=10, label="add", sub_label="float", description="n=1"),
]
c = Compare(ms)
c.print()
c.trim_significant_figures()
c.print()
c.highlight_warnings()
c.print()
c.colorize()
print(repr(str(c)))
c.colorize(rowwise=True)
print(repr(str(c)))
try:
    Compare([M([1e-6], label="x")]).print()
except Exception as e:
    print(type(e).__name__, e)

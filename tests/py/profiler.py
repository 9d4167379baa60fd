"""torch.profiler and torch.autograd.profiler: the code that profiles a
model runs unchanged and reports where the time goes. Times differ between
nndb and PyTorch, so this prints structure: the table's columns, its
separator and footer, the rows of the ops and labels used, the nesting of
ops in record_function ranges, the input shapes, the Chrome trace, and the
schedule's callbacks."""
import json
import os
import re
import tempfile

import torch, torch.nn as nn
from torch.profiler import profile, record_function, ProfilerActivity, schedule

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
x = torch.randn(5, 8)
tmp = tempfile.mkdtemp()


def columns(table):
    lines = table.splitlines()
    assert set(lines[0]) == {"-", " "} and lines[0] == lines[2] == lines[-2], lines[:3]
    assert re.fullmatch(r"Self CPU time total: \d+\.\d{3}(us|ms|s)", lines[-1]), lines[-1]
    return re.split(r"\s{2,}", lines[1].strip())


def names(table):
    return [re.split(r"\s{2,}", line.strip())[0] for line in table.splitlines()[3:-2]]


with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("model_inference"):
        y = model(x)
    y.sum().backward()

t = prof.key_averages().table(sort_by="cpu_time_total", row_limit=10)
print(columns(t))
rows = names(t)
print(len(rows) <= 10, "model_inference" in rows)
everything = names(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=100))
for op in ["aten::linear", "aten::gelu", "model_inference",
           "autograd::engine::evaluate_function: AddmmBackward0",
           "autograd::engine::evaluate_function: GeluBackward0"]:
    print(op, op in everything)
print(len(names(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=3))))

avg = {a.key: a for a in prof.key_averages()}
print(avg["aten::linear"].count, avg["aten::gelu"].count, avg["model_inference"].count)
lab = avg["model_inference"]
print(lab.cpu_time_total >= lab.self_cpu_time_total >= 0,
      lab.cpu_time_total >= avg["aten::linear"].cpu_time_total)
ka = sorted(prof.key_averages(), key=lambda a: a.self_cpu_time_total, reverse=True)
print(abs(sum(a.self_cpu_time_total for a in ka) - prof.key_averages().self_cpu_time_total) < 1)

by_shape = prof.key_averages(group_by_input_shape=True)
print(columns(by_shape.table(sort_by="cpu_time_total"))[-1])
print(sorted(str(a.input_shapes) for a in by_shape if a.key == "aten::linear"))

events = prof.events()
label = [e for e in events if e.name == "model_inference"]
print(len(label), type(label[0]).__name__)
kids = {c.name for c in label[0].cpu_children}
print("aten::linear" in kids, "aten::gelu" in kids)
print(all(e.cpu_time_total >= 0 for e in events))

try:
    prof.key_averages().table(sort_by="bogus")
except AttributeError as e:
    print("AttributeError", "bogus" in str(e))

path = os.path.join(tmp, "trace.json")
prof.export_chrome_trace(path)
with open(path) as f:
    trace = json.load(f)
trace_events = trace["traceEvents"] if isinstance(trace, dict) else trace
trace_names = {e["name"] for e in trace_events}
print("model_inference" in trace_names, "aten::linear" in trace_names)
print(all(e["ph"] == "X" and e["dur"] >= 0 and isinstance(e["ts"], (int, float))
          for e in trace_events if e["name"] in ("model_inference", "aten::linear")))

# an autograd.Function: its forward row is the class name, its backward
# PyTorch's evaluate_function row
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp * inp

    @staticmethod
    def backward(ctx, g):
        inp, = ctx.saved_tensors
        return 2 * inp * g


xg = torch.randn(4, requires_grad=True)
with profile() as prof:
    Sq.apply(xg).exp().sum().backward()
keys = {a.key for a in prof.key_averages()}
for name in ["Sq", "aten::mul", "aten::exp",
             "autograd::engine::evaluate_function: SqBackward",
             "autograd::engine::evaluate_function: ExpBackward0"]:
    print(name, name in keys)

# with_stack: the Python frames around each op, innermost first
def summed(inp):
    return model(inp).sum()


with profile(with_stack=True) as prof:
    summed(torch.randn(2048, 8))  # ops of several us: export_stacks skips those under 1 us
print(columns(prof.key_averages(group_by_stack_n=5).table(sort_by="self_cpu_time_total"))[-1])
sums = [e for e in prof.events() if e.name == "aten::sum"]
print(len(sums), "summed" in [entry.rsplit(": ", 1)[-1] for entry in sums[0].stack])
stacks = os.path.join(tmp, "stacks.txt")
prof.export_stacks(stacks, "self_cpu_time_total")
with open(stacks) as f:
    lines = f.read().splitlines()
print(any(re.fullmatch(r"\S+ \d+", line) and "summed" in line for line in lines))

# profile_memory adds the memory columns
with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
    model(x)
print(columns(prof.key_averages().table(sort_by="self_cpu_memory_usage", row_limit=4)))

# record_function as a decorator: one row per call
@record_function("step_fn")
def step_fn(inp):
    return model(inp).sum()


with profile() as prof:
    for _ in range(3):
        step_fn(x)
print({a.key: a.count for a in prof.key_averages()}["step_fn"])
step_fn(x)  # outside a profile: a plain call

# schedule + step + on_trace_ready
ready = []


def on_ready(p):
    steps = [e.name for e in p.events() if e.name.startswith("ProfilerStep")]
    ready.append((p.step_num, steps))


with profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
             on_trace_ready=on_ready) as p:
    for _ in range(10):
        model(x)
        p.step()
print(ready)

tb = os.path.join(tmp, "tb")
with profile(schedule=schedule(wait=1, warmup=1, active=2),
             on_trace_ready=torch.profiler.tensorboard_trace_handler(tb)) as p:
    for _ in range(5):
        model(x)
        p.step()
files = os.listdir(tb)
print(len(files), all(f.endswith(".pt.trace.json") for f in files))
for f in files:
    with open(os.path.join(tb, f)) as fh:
        trace = json.load(fh)
    trace_events = trace["traceEvents"] if isinstance(trace, dict) else trace
    print(sorted(e["name"] for e in trace_events if e["name"].startswith("ProfilerStep")))

# the older API
with torch.autograd.profiler.profile() as prof:
    with torch.autograd.profiler.record_function("old_label"):
        model(x)
t = prof.key_averages().table(sort_by="self_cpu_time_total")
print(columns(t))
print("old_label" in names(t), "aten::linear" in names(t))
print(prof.self_cpu_time_total >= 0, columns(str(prof))[0])

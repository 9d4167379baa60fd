"""What nndb's debugger on CPython costs a training step (python/nndb/
debugger.py over binding/py_debug.c's executor hook): a small MLP step
(2-64-64-3, batch 64: forward, cross_entropy, backward, SGD) timed in one
process with the debugger

    idle      no breakpoint, no step, anomaly off: no hook registered
    armed     after a stop in this cell (Ctrl-C may break in): the hook, C only
    anomaly   %anomaly on: labels and the non-finite scan, Python only at an origin
    break     an enabled breakpoint that never matches: Python sees every node

and prints the best step time of each (of 9 interleaved rounds; the machine may be loaded) and its ratio to the time of the
same step before nndb.debugger was imported at all:

    BENCH py_debugger_<state> us_per_step=<t> ratio=<t / before> (idle target: <=1.03)

    build/nndb python bench/bench_py_debugger.py [--steps N]
"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn


def make():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(),
                          nn.Linear(64, 3))
    x = torch.randn(64, 2)
    y = torch.randint(0, 3, (64,))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return step


def timed(step, steps):
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - t0) / steps


def main(argv):
    steps = int(argv[argv.index("--steps") + 1]) if "--steps" in argv else 200
    rounds = 9
    torch.set_num_threads(1)
    step = make()
    timed(step, 10 * steps)  # warm: the pools, the BLAS, the first calls
    before = min(timed(step, steps) for _ in range(rounds))
    from nndb import debugger
    from torch.nn.modules import module as nn_module
    dbg = debugger.debugger()

    def idle():
        dbg.stepping = False
        dbg.set_anomaly(False)
        dbg.bps.clear()
        dbg.sync()
        assert dbg.installed is None and "__wrapped__" not in vars(nn_module.Module.__call__)

    def armed():  # as after a stop in this cell: a Ctrl-C may break into the pass
        idle()
        dbg.stepping = True
        dbg.sync()

    def anomaly():
        idle()
        dbg.set_anomaly(True)

    def brk():  # a breakpoint that never matches
        idle()
        dbg.add_break("model.9 backward", announce=False)

    states = [("idle", idle), ("armed", armed), ("anomaly", anomaly), ("break", brk)]
    times = {name: [] for name, _ in states}
    for _ in range(rounds):  # interleaved, so that the machine's load hits all alike
        for name, enter in states:
            enter()
            times[name].append(timed(step, steps))
    idle()
    base = min(times["idle"])
    for name, _ in states:
        t = min(times[name])
        target = " target=<=1.03" if name == "idle" else ""
        ref = before if name == "idle" else base
        print(f"BENCH py_debugger_{name} us_per_step={t * 1e6:.1f} ratio={t / ref:.3f}{target}")
    print(f"(idle's ratio is to the step before nndb.debugger was imported, "
          f"{before * 1e6:.1f} us; the others' to idle)")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Timing shared by the bench/python scripts that run under both nndb and
PyTorch (the script's folder is on sys.path under either)."""
import statistics
import time


def best(fn, reps=15, rounds=3, clock=time.perf_counter):
    """One untimed call, then [rounds] rounds of [reps] calls: the smallest
    of the rounds' median times of one call, in seconds of [clock]."""
    fn()
    meds = []
    for _ in range(rounds):
        ts = []
        for _ in range(reps):
            t0 = clock()
            fn()
            ts.append(clock() - t0)
        meds.append(statistics.median(ts))
    return min(meds)


def step_medians(step, steps):
    """Call [step] [steps] times: the median wall and CPU time of one call,
    in seconds."""
    walls, cpus = [], []
    for _ in range(steps):
        w0, c0 = time.perf_counter(), time.process_time()
        step()
        cpus.append(time.process_time() - c0)
        walls.append(time.perf_counter() - w0)
    return statistics.median(walls), statistics.median(cpus)

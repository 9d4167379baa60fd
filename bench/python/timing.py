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

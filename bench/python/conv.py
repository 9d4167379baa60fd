"""CNN workloads, the same file under `nndb python` and /usr/bin/python3:
    conv.py THREADS REPS
prints one "name milliseconds" line per workload (the least of REPS
repetitions after warm-up): CPU time at one thread; at more, wall time, and
"name:cpu" with the CPU time of all threads. Used by bench/bench_conv.py."""
import gc
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 11
only = sys.argv[3] if len(sys.argv) > 3 else ""
torch.set_num_threads(threads)
torch.manual_seed(0)


def timed(fn, warm=3):
    # The least of the repetitions, in ms: (CPU time, wall time). At one
    # thread CPU time is the figure, as bench/bench_linalg.py: on a shared
    # 2-core machine wall-clock medians move by 3x from run to run, while
    # the CPU a call consumes does not count the time it waits for a core.
    # At two threads CPU time sums both threads, so it shows the work done
    # (and any spinning), not the speed-up: the figure there is wall time,
    # what a user waits for, with the CPU time beside it.
    for _ in range(warm):
        fn()
    cpu, wall = [], []
    for _ in range(reps):
        t0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - t0)
        wall.append(time.perf_counter() - w0)
    return min(cpu) * 1e3, min(wall) * 1e3


def lenet_step():
    net = nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                        nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                        nn.Linear(84, 10))
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(64, 1, 28, 28)
    y = torch.randint(0, 10, (64,))

    def step():
        opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        opt.step()
    return step


class Basic(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + x)


class DwSep(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, padding=1, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.relu(self.bn2(self.pw(F.relu(self.bn1(self.dw(x))))))


def fwd_bwd(model, shape):
    x = torch.randn(*shape, requires_grad=True)

    def run():
        model.zero_grad()
        model(x).sum().backward()
    return run


def pool():
    x = torch.randn(32, 64, 32, 32)
    return lambda: F.max_pool2d(x, 2)


def pool_bwd():
    x = torch.randn(32, 64, 32, 32, requires_grad=True)
    return lambda: F.max_pool2d(x, 2).sum().backward()


def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def lenet_peak_mb():
    # Peak resident memory of three LeNet steps above what the process held
    # once the model and batch existed (gradients, optimizer state,
    # activations, temporaries and whatever the allocator keeps): the
    # kernel's high-water mark is reset first (clear_refs 5), so the imports
    # do not count, and a one-sample step of a tiny CNN runs before, so the
    # lazily imported code (optimizer, losses) is not counted either.
    tiny = nn.Sequential(nn.Conv2d(1, 1, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(196, 2))
    opt = torch.optim.SGD(tiny.parameters(), lr=0.01, momentum=0.9)
    F.cross_entropy(tiny(torch.randn(1, 1, 28, 28)), torch.tensor([1])).backward()
    opt.step()
    del tiny, opt
    step = lenet_step()
    gc.collect()
    rss0 = status_kb("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    for _ in range(3):
        step()
    return (status_kb("VmHWM") - rss0) / 1024


work = [
    ("lenet_step_b64", lenet_step),
    ("resnet_block_64c_32x32_b32", lambda: fwd_bwd(Basic(64), (32, 64, 32, 32))),
    ("dwsep_block_64c_32x32_b32", lambda: fwd_bwd(DwSep(64, 128), (32, 64, 32, 32))),
    ("max_pool2d_32x64x32x32", pool),
    ("max_pool2d_fwd_bwd_32x64x32x32", pool_bwd),
]
# first, before any other workload has grown the process
if only in "lenet_step_peak_mb":
    print("lenet_step_peak_mb", f"{lenet_peak_mb():.3f}", flush=True)
for name, make in work:
    if only in name:
        cpu, wall = timed(make())
        if threads == 1:
            print(name, f"{cpu:.4f}", flush=True)
        else:
            print(name, f"{wall:.4f}", flush=True)
            print(name + ":cpu", f"{cpu:.4f}", flush=True)

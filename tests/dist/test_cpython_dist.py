#!/usr/bin/python3
"""torch.distributed on nndb's CPython: scripts in PyTorch's spelling under
`mpirun -np N nndb python X.py` (MPI), compared with the same script under
/usr/bin/python3's PyTorch on gloo (N processes started as torchrun starts
them: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT in the environment; Debian's
torchrun itself fails under Python 3.11). Rank 0's stdout must be equal.
Then the failure cases: a rank that raises, mismatched shapes, a timeout, the
gloo backend. Ends with "N passed, M failed"; without mpirun it is skipped
("0 passed, 0 failed, 1 skipped").

    tests/dist/test_cpython_dist.py [NNDB]     (default: $NNDB or build/nndb)
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb")))
HERE = os.path.join(ROOT, "tests", "dist")
TORCH_PY = "/usr/bin/python3"
passed = failed = 0


def report(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}", flush=True)
    else:
        failed += 1
        print(f"FAIL {name}: {detail}", flush=True)


def mpirun(n, args, timeout=120, env=None):
    cmd = ["mpirun", "--oversubscribe", "-np", str(n)]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    e = dict(os.environ, OMP_NUM_THREADS="1")
    e.update(env or {})
    t0 = time.time()
    p = subprocess.run(cmd + [NNDB, "python"] + args, capture_output=True, text=True,
                       timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr, time.time() - t0


def free_port():
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]


def gloo(n, script, timeout=300):
    """PyTorch's run of [script] on n gloo processes: (rank 0's stdout, failures)."""
    port = free_port()
    procs = []
    for r in range(n):
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(n),
                   LOCAL_WORLD_SIZE=str(n), MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                   OMP_NUM_THREADS="1")
        procs.append(subprocess.Popen([TORCH_PY, script], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env))
    outs = [p.communicate(timeout=timeout) for p in procs]
    bad = [f"rank {r} exit {p.returncode}: {outs[r][1][-1500:]}"
           for r, p in enumerate(procs) if p.returncode]
    return outs[0][0], bad


def script(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    f.write(text)
    f.close()
    return f.name


def same_as_gloo(name, path, nprocs):
    rc, ours, err, _ = mpirun(nprocs, [path])
    theirs, bad = gloo(nprocs, path)
    diff = "\n".join(f"ours   {a}\ntheirs {b}" for a, b in
                     zip(ours.splitlines(), theirs.splitlines()) if a != b)
    report(f"{name} -np {nprocs} == PyTorch on gloo ({len(theirs.splitlines())} lines)",
           rc == 0 and not bad and ours == theirs and ours,
           f"rc {rc} {bad}\n{diff}\n{err[-2000:]}")


def expect_failure(name, n, text, must, max_s, env=None):
    rc, out, err, dt = mpirun(n, [script(text)], env=env)
    both = out + err
    missing = [m for m in must if not re.search(m, both)]
    report(name, rc != 0 and not missing and dt < max_s,
           f"rc {rc}, {dt:.1f}s (limit {max_s}), missing {missing}:\n{both[-3000:]}")


HEAD = "import torch\nimport torch.distributed as dist\ndist.init_process_group(backend='mpi'%s)\n"


def main():
    if not shutil.which("mpirun"):
        print("SKIP tests/dist (CPython): mpirun not found (apt-get install openmpi-bin "
              "libopenmpi-dev)")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    ldd = subprocess.run(["ldd", NNDB], capture_output=True, text=True).stdout
    report("nndb does not link libmpi (opened on init_process_group)", "libmpi" not in ldd, ldd)

    collectives = os.path.join(HERE, "cpython_collectives.py")
    for n in (2, 3):
        same_as_gloo("collectives, DDP (no_sync, buffers), ZeRO-1", collectives, n)

    p = subprocess.run([NNDB, "python", script("import torch.distributed as dist\n"
                                               "dist.init_process_group(backend='gloo')\n")],
                       capture_output=True, text=True, timeout=60)
    report("backend='gloo' names the one backend",
           p.returncode == 1 and "nndb has one backend, \"mpi\"" in p.stderr, p.stderr)
    p = subprocess.run([NNDB, "python", script(
        "import torch, torch.distributed as dist\n"
        "dist.reduce(torch.ones(2), dst=0, async_op=True)\n")],
        capture_output=True, text=True, timeout=60)
    report("async_op=True where nndb has no nonblocking form is refused",
           p.returncode == 1 and "reduce(): async_op=True is not supported here" in p.stderr,
           p.stderr)

    expect_failure(
        "a rank that raises ends the others, naming the rank", 2,
        HEAD % ", timeout=120" + "assert dist.get_rank() != 1, 'planted failure'\n"
        "dist.all_reduce(torch.ones(3))\n",
        [r"AssertionError: planted failure", r"nndb: rank 1 of 2 failed; ending every rank"], 60)
    expect_failure(
        "mismatched shapes name both shapes and ranks", 2,
        HEAD % "" + "t = torch.zeros(4, 3) if dist.get_rank() == 0 else torch.zeros(5)\n"
        "dist.all_reduce(t)\n",
        [r"RuntimeError: all_reduce: the tensors differ across ranks: rank 0 has float32 "
         r"\[4, 3\], rank 1 has float32 \[5\]"], 60)
    expect_failure(
        "a collective another rank never joins times out", 2,
        HEAD % ", timeout=2" + "if dist.get_rank() == 0:\n    dist.all_reduce(torch.ones(3))\n",
        [r"all_reduce timed out after 2 s on rank 0 of 2: rank 1 did not join: it has left the "
         r"process group"], 60)
    expect_failure(
        "NNDB_DIST_TIMEOUT sets the timeout", 2,
        HEAD % "" + "if dist.get_rank() == 1:\n    dist.barrier()\n",
        [r"barrier timed out after 1 s on rank 1 of 2"], 60, env={"NNDB_DIST_TIMEOUT": "1"})
    expect_failure(
        "DDP: a parameter no pass uses is PyTorch's error at the next forward", 2,
        HEAD % "" + "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.a = nn.Linear(3, 2)\n"
        "        self.b = nn.Linear(3, 2)\n"
        "    def forward(self, x):\n"
        "        return self.a(x)\n"
        "ddp = nn.parallel.DistributedDataParallel(Net())\n"
        "ddp(torch.ones(2, 3)).sum().backward()\n"
        "ddp(torch.ones(2, 3))\n",
        [r"RuntimeError: Expected to have finished reduction in the prior iteration before "
         r"starting a new one.*Parameter indices which did not receive grad for rank \d: 2 3"],
        60)
    text = (HEAD % "" + "import torch.nn as nn\n"
            "from torch.distributed import dist_check\n"
            "torch.manual_seed(dist.get_rank())\n"
            "model = nn.Sequential(nn.Linear(5, 8), nn.Linear(8, 2))\n"
            "print('before', dist_check(model).message)\n"
            "ddp = nn.parallel.DistributedDataParallel(model, bucket_cap_mb=0.00005)\n"
            "print('after', dist_check(ddp).message, ddp.buckets)\n"
            "ddp(torch.randn(4, 5)).sum().backward()\n"
            "print('started early', ddp.started_early)\n")
    rc, out, err, _ = mpirun(2, [script(text)])
    report("dist_check names the diverged parameter; DDP's buckets and overlap",
           rc == 0 and out.count("before parameters diverged: the first is 0.weight (shape "
                                 "[8, 5]), which differs on rank 1 from rank 0") == 2
           and out.count("after all 4 parameters agree on 2 ranks [[3], [2], [1], [0]]") == 2
           and "started early 2" in out, out + err[-2000:])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

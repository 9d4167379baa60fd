#!/usr/bin/python3
"""Distributed tests: nndb scripts under `mpirun -np N` (Open MPI, oversubscribed
on this 2-core machine), checked for their "ok" lines, their errors and their
exit; DistributedSampler against PyTorch's. Ends with "N passed, M failed".
Without mpirun the suite is skipped with one message ("0 passed, 0 failed,
1 skipped", which tests/run_all.sh counts as skipped)."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.join(ROOT, "build", "nndb")
HERE = os.path.join(ROOT, "tests", "dist")
passed = failed = 0


def report(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def mpirun_cmd(n):
    cmd = ["mpirun", "--oversubscribe", "-np", str(n)]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    return cmd


def run(n, script, timeout=120, env=None):
    e = dict(os.environ)
    e.update(env or {})
    t0 = time.time()
    p = subprocess.run(mpirun_cmd(n) + [NNDB, "run", script], capture_output=True, text=True,
                       timeout=timeout, env=e)
    return p.returncode, p.stdout + p.stderr, time.time() - t0


def script(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".nn", delete=False, dir=tempfile.gettempdir())
    f.write(text)
    f.close()
    return f.name


def ok_lines(out):
    return [l for l in out.splitlines() if l.startswith("ok ")]


def case_script(name, n, path, want):
    rc, out, _ = run(n, os.path.join(HERE, path))
    oks = ok_lines(out)
    report(f"{name} -np {n}", rc == 0 and len(oks) == want,
           f"rc {rc}, {len(oks)} ok lines (want {want}):\n{out[-3000:]}")


def expect_failure(name, n, text, must, max_s, env=None):
    rc, out, dt = run(n, script(text), env=env)
    missing = [m for m in must if not re.search(m, out)]
    report(name, rc != 0 and not missing and dt < max_s,
           f"rc {rc}, {dt:.1f}s (limit {max_s}), missing {missing}:\n{out[-3000:]}")


def sampler_vs_torch():
    import torch
    from torch.utils.data import DistributedSampler
    # (size, replicas, drop_last, shuffle, seed, epoch)
    cases = [(10, 3, False, False, 0, 0), (10, 3, True, False, 0, 0), (12, 4, False, False, 0, 0),
             (7, 2, False, False, 0, 0), (2, 3, False, False, 0, 0), (2, 3, True, False, 0, 0),
             (1, 2, False, False, 0, 0), (10, 3, False, True, 0, 0), (10, 3, True, True, 5, 2),
             (100, 4, False, True, 1234, 7), (2, 3, False, True, 0, 1)]
    lines = []
    for size, k, drop, sh, seed, epoch in cases:
        for r in range(k):
            lines.append(f"s = DistributedSampler({size}, num_replicas={k}, rank={r}, "
                         f"shuffle={sh}, seed={seed}, drop_last={drop})")
            lines.append(f"s.set_epoch({epoch})")
            lines.append("print(list(s), len(s))")
    p = subprocess.run([NNDB, "run", script("\n".join(lines) + "\n")], capture_output=True,
                       text=True, timeout=60)
    got = p.stdout.splitlines()
    want = []
    for size, k, drop, sh, seed, epoch in cases:
        for r in range(k):
            s = DistributedSampler(list(range(size)), num_replicas=k, rank=r, shuffle=sh,
                                   seed=seed, drop_last=drop)
            s.set_epoch(epoch)
            want.append(f"{list(s)} {len(s)}")
    report("DistributedSampler == PyTorch's (shuffle with seed + epoch, padding, drop_last)",
           p.returncode == 0 and got == want, f"got {got}\nwant {want}\n{p.stderr}")


def parse_run(text):
    """{(rank, kind, i): values} from the "rank R ..." lines of ddp_vs_gloo."""
    import ast
    out, count = {}, {}
    for line in text.splitlines():
        m = re.match(r"rank (\d) (step (\d) loss|param|sampler) (.*)$", line)
        if not m:
            continue
        kind = "loss" if m.group(3) else m.group(2)
        key = (int(m.group(1)), kind)
        count[key] = count.get(key, 0) + 1
        vals = [float(m.group(4))] if kind == "loss" else ast.literal_eval(m.group(4))
        out[key + (count[key],)] = vals
    return out


def ddp_vs_gloo():
    """nndb's DDP on MPI against PyTorch's DDP on gloo, same seeds and data."""
    import socket
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    # Long lines of two ranks can interleave on mpirun's stdout: one file per rank.
    outdir = tempfile.mkdtemp()
    p = subprocess.run(mpirun_cmd(2) + ["--output-filename", outdir, NNDB, "run",
                                        os.path.join(HERE, "ddp_vs_gloo.nn")],
                       capture_output=True, text=True, timeout=300)
    rc, ours = p.returncode, ""
    for dirpath, _, files in sorted(os.walk(outdir)):
        if "stdout" in files:
            ours += open(os.path.join(dirpath, "stdout")).read()
    shutil.rmtree(outdir, ignore_errors=True)
    torch_dir = tempfile.mkdtemp()
    p = subprocess.run([sys.executable, os.path.join(HERE, "gloo_ddp.py"), str(port), torch_dir],
                       capture_output=True, text=True, timeout=300)
    theirs = "".join(open(os.path.join(torch_dir, f)).read() for f in sorted(os.listdir(torch_dir)))
    shutil.rmtree(torch_dir, ignore_errors=True)
    a, b = parse_run(ours), parse_run(theirs)
    worst, bad = 0.0, []
    for k in sorted(set(a) | set(b)):
        if k not in a or k not in b or len(a[k]) != len(b[k]):
            bad.append(k)
            continue
        if k[1] == "sampler":
            if a[k] != b[k]:
                bad.append(k)
            continue
        worst = max([worst] + [abs(x - y) for x, y in zip(a[k], b[k])])
    # 2 ranks x (3 losses + 4 parameters + 1 sampler)
    report("DDP on MPI == PyTorch's DDP on gloo (losses, parameters, sampler)",
           rc == 0 and p.returncode == 0 and len(a) == 16 and not bad and worst < 1e-5,
           f"rc {rc}/{p.returncode}, {len(a)} values, mismatched {bad}, worst {worst}\n"
           f"{ours[-1500:]}\n{p.stderr[-1500:]}")


def docs_examples():
    """The blocks of docs/distributed.md that start with "# run: mpirun -np N"."""
    text = open(os.path.join(ROOT, "docs", "distributed.md")).read()
    blocks = re.findall(r"```python\n(# run: mpirun -np (\d+)\n.*?)```", text, re.S)
    report("docs/distributed.md has runnable examples", len(blocks) >= 1, "none found")
    for i, (code, n) in enumerate(blocks):
        rc, out, _ = run(int(n), script(code))
        report(f"docs/distributed.md example {i + 1} (-np {n})", rc == 0, out[-2000:])


def ctrl_c():
    text = ("dist.init_process_group(backend=\"mpi\")\n"
            "print(\"ready\", dist.get_rank())\n"
            "t = ones(1000)\n"
            "while True:\n"
            "    dist.all_reduce(t, op=dist.ReduceOp.MAX)\n")
    p = subprocess.Popen(mpirun_cmd(2) + [NNDB, "run", script(text)], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    seen = 0
    t0 = time.time()
    while seen < 2 and time.time() - t0 < 30:
        line = p.stdout.readline()
        seen += line.startswith("ready")
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=20)
        ended = True
    except subprocess.TimeoutExpired:
        ended = False
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    # No rank is left behind (they may take a moment to be reaped).
    for _ in range(50):
        left = subprocess.run(["pgrep", "-s", str(p.pid)], capture_output=True, text=True).stdout
        if not left.strip():
            break
        time.sleep(0.2)
    report("Ctrl-C under mpirun ends every rank", seen == 2 and ended and not left.strip(),
           f"ready {seen}, ended {ended}, left {left!r}")


def run_tree(cmd, timeout=300):
    """Run [cmd] (mpirun with --output-filename DIR appended by us) and return
    (rc, text of every rank's stdout, rank-ordered)."""
    outdir = tempfile.mkdtemp()
    p = subprocess.run(cmd[:1] + cmd[1:2] + ["--output-filename", outdir] + cmd[2:],
                       capture_output=True, text=True, timeout=timeout)
    text = ""
    for dirpath, _, files in sorted(os.walk(outdir)):
        if "stdout" in files:
            text += open(os.path.join(dirpath, "stdout")).read()
    shutil.rmtree(outdir, ignore_errors=True)
    return p.returncode, text, p.stderr


def free_port():
    import socket
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]


def semantics_vs_gloo():
    """Buffers (broadcast_buffers True and False, a user register_buffer that
    differs per rank, no_grad forwards), unused parameters (find_unused_parameters
    False: unreduced gradients and the next forward's error; True: zeros where
    another rank used it, None where none did) and async_op: nndb on MPI
    against PyTorch's DDP on gloo, line by line."""
    cmd = mpirun_cmd(2) + [NNDB, "run", os.path.join(HERE, "semantics.nn")]
    rc, ours, err = run_tree(cmd)
    torch_dir = tempfile.mkdtemp()
    p = subprocess.run([sys.executable, os.path.join(HERE, "gloo_semantics.py"), str(free_port()),
                        torch_dir], capture_output=True, text=True, timeout=300)
    theirs = "".join(open(os.path.join(torch_dir, f)).read() for f in sorted(os.listdir(torch_dir)))
    shutil.rmtree(torch_dir, ignore_errors=True)
    a, b = sorted(ours.splitlines()), sorted(theirs.splitlines())
    report("DDP buffers, unused parameters and async_op == PyTorch's DDP on gloo (%d lines)"
           % len(b), rc == 0 and p.returncode == 0 and len(b) == 34 and a == b,
           f"rc {rc}/{p.returncode}\n" + "\n".join(
               f"ours   {x}\ntheirs {y}" for x, y in zip(a, b) if x != y) + err[-1500:])


def debugger_stop():
    """Rank 0 stops at breakpoint() and waits at the (nndb) prompt (mpirun
    forwards its stdin there); rank 1's collective times out saying rank 0
    is in the debugger, and where."""
    import threading
    text = ("dist.init_process_group(backend=\"mpi\", timeout=2)\n"
            "model = Sequential(Linear(3, 2))\n"
            "if dist.get_rank() == 0:\n"
            "    breakpoint()\n"
            "    y = model(ones(1, 3))\n"
            "dist.all_reduce(ones(2))\n")
    path = script(text)
    p = subprocess.Popen(mpirun_cmd(2) + [NNDB, "run", path], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    got = []
    th = threading.Thread(target=lambda: got.append(p.stdout.read()))
    th.start()
    try:
        p.wait(timeout=40)
    except subprocess.TimeoutExpired:
        p.kill()
    th.join()
    out = got[0] if got else ""
    want = [r"\(rank 0 of 2 is stopped; the other ranks wait for it at their next collective",
            r"all_reduce timed out after 2 s on rank 1 of 2: rank 0 did not join: it is stopped in "
            r"the debugger \(at forward linear in model.0, " + re.escape(path) + r":5\)"]
    missing = [w for w in want if not re.search(w, out)]
    report("a debugger stop on rank 0: rank 1's timeout says rank 0 is in the debugger",
           p.returncode not in (0, None) and not missing, f"rc {p.returncode} missing {missing}\n{out}")


def groups():
    text = ("dist.init_process_group(backend=\"mpi\")\n"
            "r = dist.get_rank()\n"
            "g = dist.new_group(ranks=[1, 0])\n"
            "t = ones(2) * (r + 1)\n"
            "dist.all_reduce(t, group=dist.group.WORLD)\n"
            "dist.broadcast(t, src=0, group=g)\n"
            "print(\"ok group\", r, t.tolist(), dist.get_world_size(group=g), g)\n"
            "w = dist.broadcast(t, src=1, async_op=True)\n"
            "print(\"ok async broadcast\", w.wait(), w.is_completed())\n"
            "out = zeros(4)\n"
            "w = dist.all_gather_into_tensor(out, ones(2) * r, async_op=True)\n"
            "w.wait()\n"
            "assert out.tolist() == [0.0, 0.0, 1.0, 1.0], out\n"
            "o = zeros(1)\n"
            "w = dist.reduce_scatter_tensor(o, arange(2.0), op=dist.ReduceOp.AVG, async_op=True)\n"
            "while not w.is_completed():\n"
            "    pass\n"
            "assert o.item() == float(r), o\n"
            "dist.barrier(async_op=True).wait()\n"
            "print(\"ok async gather scatter barrier\", r)\n"
            "dist.new_group(ranks=[0])\n")
    rc, out, _ = run(2, script(text))
    oks = ok_lines(out)
    report("group=dist.group.WORLD and new_group(every rank); async broadcast, all_gather, "
           "reduce_scatter (AVG), barrier", len(oks) == 6 and
           "ok group 0 [3.0, 3.0] 2 ProcessGroup(WORLD: ranks 0..1" in out, out[-2000:])
    report("new_group(ranks=[0]): subgroups are a clear error", rc != 0 and
           "new_group(ranks=...): nndb has one process group, of all 2 ranks; subgroups are not "
           "supported" in out, out[-2000:])


def dist_run_cases():
    """dist_run from a session: rank-tagged lines, per-rank output, failures
    and timeouts raised, and a clear message without mpirun."""
    text = ("r = dist_run(\"dist.init_process_group(backend='mpi')\\nprint('hi', dist.get_rank())\", "
            "nprocs=3)\n"
            "print('ok run', r.returncode, r.ok, repr(r.ranks[2]), r.output.count('[rank '))\n"
            "try:\n"
            "    dist_run(\"dist.init_process_group(backend='mpi')\\nassert dist.get_rank() == 0, 'planted'\")\n"
            "except RuntimeError as e:\n"
            "    print('ok failed', 'failed (exit status 1)' in str(e), '[rank 1] AssertionError: planted' in str(e))\n"
            "r = dist_run(\"assert False\", nprocs=1, check=False)\n"
            "print('ok check=False', r.ok, r.returncode)\n"
            "import time\n"
            "t0 = time.time()\n"
            "try:\n"
            "    dist_run(\"import time\\ntime.sleep(60)\", timeout=2)\n"
            "except RuntimeError as e:\n"
            "    print('ok timeout', 'did not finish in 2 s' in str(e), time.time() - t0 < 10)\n")
    p = subprocess.run([NNDB, "run", script(text)], capture_output=True, text=True, timeout=120)
    out = p.stdout
    report("dist_run: rank-tagged lines streamed, per-rank output", p.returncode == 0 and
           "[rank 2] hi 2" in out and "ok run 0 True 'hi 2\\n' 3" in out, out + p.stderr)
    report("dist_run: a failing rank raises with its last lines", "ok failed True True" in out,
           out + p.stderr)
    report("dist_run(check=False) returns the failed run", "ok check=False False 1" in out, out)
    time.sleep(1)
    left = subprocess.run(["pgrep", "-f", "nndb-dist-run-"], capture_output=True,
                          text=True).stdout.strip()
    report("dist_run(timeout=2) ends mpirun and every rank, and raises",
           "ok timeout True True" in out and not left, f"{out}\nleft: {left!r}")
    env = dict(os.environ, PATH="/nonexistent")
    p = subprocess.run([NNDB, "run", script("dist_run('print(1)')\n")], capture_output=True,
                       text=True, timeout=60, env=env)
    report("dist_run without mpirun says so", p.returncode == 1 and
           "dist_run(): mpirun is not on PATH, so no ranks can be started here. Install Open MPI"
           in p.stderr, p.stderr)


def sampler_loader_vs_torch():
    """DataLoader(sampler=...) with a DistributedSampler and set_epoch, a list
    of indices, the shuffle conflict and an out-of-range index: the same
    batches (and the same default-generator state after) as PyTorch's."""
    text = ("import torch\n"
            "from torch.utils.data import DataLoader, DistributedSampler, TensorDataset\n"
            "torch.manual_seed(5)\n"
            "ds = TensorDataset(torch.arange(10.0).reshape(10, 1), torch.arange(10))\n"
            "for r in range(2):\n"
            "    s = DistributedSampler(ds, num_replicas=2, rank=r, shuffle=True, seed=0)\n"
            "    dl = DataLoader(ds, batch_size=2, sampler=s)\n"
            "    print(len(dl))\n"
            "    for e in range(2):\n"
            "        s.set_epoch(e)\n"
            "        print(r, e, [yb.tolist() for xb, yb in dl])\n"
            "dl = DataLoader(ds, batch_size=3, sampler=[9, 0, 4, 4])\n"
            "print([yb.tolist() for xb, yb in dl], len(dl))\n"
            "print(torch.rand(2).tolist())\n"
            "try:\n"
            "    DataLoader(ds, batch_size=3, shuffle=True, sampler=[1])\n"
            "except ValueError as e:\n"
            "    print('ValueError', e)\n")
    path = script(text)
    ours = subprocess.run([NNDB, "run", path], capture_output=True, text=True, timeout=60)
    theirs = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=120)
    report("DataLoader(sampler=DistributedSampler / a list) == PyTorch's (batches, len, RNG, "
           "the shuffle error)", ours.returncode == 0 and ours.stdout == theirs.stdout and
           "mutually exclusive" in ours.stdout, f"ours:\n{ours.stdout}{ours.stderr}\n"
           f"theirs:\n{theirs.stdout}{theirs.stderr[-500:]}")
    text = ("ds = spirals(10, seed=0)\n"
            "s = DistributedSampler(ds, num_replicas=2, rank=1, shuffle=True, seed=0)\n"
            "dl = DataLoader(ds, batch_size=2, sampler=s)\n"
            "print(len(dl), [b.index.tolist() for b in dl])\n"
            "s.set_epoch(1)\n"
            "print([b.index.tolist() for b in dl])\n"
            "for b in DataLoader(ds, sampler=[10]):\n"
            "    pass\n")
    p = subprocess.run([NNDB, "run", script(text)], capture_output=True, text=True, timeout=60)
    report("DataLoader(sampler=) over a builtin dataset: the sampler's rows, per epoch",
           p.stdout == "3 [[1, 5], [9, 8], [2]]\n[[6, 2], [8, 3], [4]]\n" and
           "IndexError: DataLoader: the sampler gave index 10, out of range for a dataset of 10 "
           "rows" in p.stderr, p.stdout + p.stderr)


def main():
    if not shutil.which("mpirun"):
        print("SKIP tests/dist: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)")
        print("0 passed, 0 failed, 1 skipped")
        return 0

    # nndb itself does not link MPI: it is opened on init_process_group.
    ldd = subprocess.run(["ldd", NNDB], capture_output=True, text=True).stdout
    report("nndb does not link libmpi", "libmpi" not in ldd, ldd)
    p = subprocess.run([NNDB, "run", script("print(dist.is_initialized())\nprint(dist.get_rank())\n")],
                       capture_output=True, text=True, timeout=60)
    report("without init: is_initialized False, get_rank a clear error",
           p.stdout.startswith("False") and "init_process_group(backend=\"mpi\")" in p.stderr
           and p.returncode == 1, p.stdout + p.stderr)
    p = subprocess.run([NNDB, "run", script("dist.reduce(ones(2), dst=0, async_op=True)\n")],
                       capture_output=True, text=True, timeout=60)
    report("async_op=True where nndb has no nonblocking form is refused, naming where it is",
           p.returncode == 1 and "reduce(): async_op=True is not supported here; nndb has it for "
           "all_reduce, broadcast, barrier" in p.stderr, p.stderr)
    p = subprocess.run([NNDB, "run", script("dist.init_process_group(backend=\"gloo\")\n")],
                       capture_output=True, text=True, timeout=60)
    report("backend=\"gloo\" names the one backend",
           p.returncode == 1 and "nndb has one backend, \"mpi\"" in p.stderr, p.stderr)

    for n in (2, 4):
        # Per rank and dtype: 4 all_reduce ops (+ AVG for floats), broadcast,
        # n all_gather parts, all_gather_into, reduce_scatter, reduce,
        # scatter, send/recv; rank 1 also checks n gathered parts; barrier.
        case_script("collectives", n, "collectives.nn", n * (3 * (10 + n) + 2 + 1) + 3 * n)
        case_script("DDP == one process on the whole batch", n, "ddp_equiv.nn", 7 * n)
        case_script("ZeRO-1 == AdamW, state sharded", n, "zero.nn", 3 * n)
        case_script("PyTorch's spelling (imports, a user nn.Module)", n, "torch_style.nn", 3 * n)

    rc, out, _ = run(2, os.path.join(HERE, "drill_bugs.nn"))
    report("drill bug 1: summed gradients are world x the average",
           rc == 0 and out.count("grad norm ratio summed/averaged = 2.000") == 2, out)
    report("drill bug 2: dist_check names the diverged parameter and rank",
           out.count("ok=False first=0.weight rank=1") == 2 and
           out.count("bug2-fixed rank") == 2 and "bug2-fixed rank 0: ok=True" in out, out)
    report("drill bug 3: without set_epoch every epoch has the same order",
           out.count("same=True; with set_epoch(1)") == 2 and
           out.count("same=False") == 2, out)

    expect_failure(
        "mismatched shapes name both shapes and ranks", 2,
        "dist.init_process_group(backend=\"mpi\")\n"
        "t = zeros(4, 3) if dist.get_rank() == 0 else zeros(5)\n"
        "dist.all_reduce(t)\n",
        [r"all_reduce: the tensors differ across ranks: rank 0 has float32 \[4, 3\], "
         r"rank 1 has float32 \[5\]"], 60)
    expect_failure(
        "a rank that raises ends the others, naming the rank", 2,
        "dist.init_process_group(backend=\"mpi\", timeout=120)\n"
        "assert dist.get_rank() != 1, \"planted failure\"\n"
        "dist.all_reduce(ones(3))\n",
        # (Open MPI's own "MPI_ABORT was invoked on rank 1" is not always
        # printed when the job is already ending; ours always is.)
        [r"AssertionError: planted failure", r"nndb: rank 1 of 2 failed; ending every rank"], 60)
    expect_failure(
        "a collective another rank never joins times out", 2,
        "dist.init_process_group(backend=\"mpi\", timeout=2)\n"
        "if dist.get_rank() == 0:\n"
        "    dist.all_reduce(ones(3))\n",
        [r"all_reduce timed out after 2 s on rank 0 of 2: rank 1 did not join: it has left the "
         r"process group \(its script ended", r"nndb: rank 0 of 2 failed; ending every rank"], 60)
    expect_failure(
        "ranks that call different collectives are told which", 2,
        "dist.init_process_group(backend=\"mpi\")\n"
        "t = ones(3)\n"
        "if dist.get_rank() == 0:\n"
        "    dist.all_reduce(t)\n"
        "else:\n"
        "    dist.broadcast(t, src=0)\n",
        [r"ranks called different collectives: rank 0 called all_reduce, rank 1 called "
         r"broadcast"], 60)
    expect_failure(
        "NNDB_DIST_TIMEOUT sets the timeout", 2,
        "dist.init_process_group(backend=\"mpi\")\n"
        "if dist.get_rank() == 1:\n"
        "    dist.barrier()\n",
        [r"barrier timed out after 1 s on rank 1 of 2"], 60, env={"NNDB_DIST_TIMEOUT": "1"})
    expect_failure(
        "a rank busy elsewhere: the timeout names it and what it is doing", 3,
        "import time\n"
        "dist.init_process_group(backend=\"mpi\", timeout=2)\n"
        "dist.barrier()\n"
        "if dist.get_rank() == 2:\n"
        "    time.sleep(30)\n"
        "dist.all_reduce(ones(3))\n",
        [r"all_reduce timed out after 2 s on rank [01] of 3: rank 2 did not join: it is running "
         r"other code, not in a collective \(its last was barrier\)"], 25)
    expect_failure(
        "the watchdog of a blocking collective: ZeRO's broadcast that one rank skips", 2,
        "dist.init_process_group(backend=\"mpi\", timeout=2)\n"
        "manual_seed(0)\n"
        "model = Sequential(Linear(64, 64), Linear(64, 2))\n"
        "zero = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=AdamW, lr=0.1)\n"
        "cross_entropy(model(randn(4, 64)), tensor([0, 1, 0, 1])).backward()\n"
        "if dist.get_rank() == 0:\n"
        "    zero.step()\n"
        "    print(\"stepped\")\n",
        [r"nndb: ZeroRedundancyOptimizer.step timed out after 2 s on rank 0 of 2: rank 1 did not "
         r"join: it has left the process group.*Ending every rank"], 25)
    expect_failure(
        "DDP: a rank that skips backward leaves the other's bucket all-reduce to time out", 2,
        "dist.init_process_group(backend=\"mpi\", timeout=2)\n"
        "import time\n"
        "ddp = DistributedDataParallel(Sequential(Linear(4, 2)))\n"
        "loss = ddp(ones(3, 4)).sum()\n"
        "if dist.get_rank() == 0:\n"
        "    loss.backward()\n"
        "else:\n"
        "    time.sleep(20)\n",
        [r"DistributedDataParallel: gradient all_reduce timed out after 2 s on rank 0 of 2: rank 1 "
         r"did not join: it is running other code"], 25)
    debugger_stop()
    groups()
    dist_run_cases()
    sampler_loader_vs_torch()
    sampler_vs_torch()
    ddp_vs_gloo()
    semantics_vs_gloo()
    docs_examples()
    ctrl_c()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

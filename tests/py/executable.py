# sys.executable starts the same Python with the same torch: subprocess and
# multiprocessing's spawn, as course code and DataLoader set-ups use them.
# Under nndb the child is nndb (python3's arguments), with nndb's torch.
# The last part runs nndb's math without SLEEF (NNDB_NO_SLEEF=1, the path of
# a machine without libsleef or AVX2): values agree with the same ops in
# float64 to a float32 tolerance, not bit for bit with PyTorch's.
# Everything runs under the __main__ guard: spawn's child imports this file.
import multiprocessing as mp
import os
import subprocess
import sys

import torch


def square(x):
    return float((torch.tensor(x) ** 2).sum())


if __name__ == "__main__":
    code = "import torch; t = torch.arange(6.).reshape(2, 3); print(t.sum(1), t.softmax(1).sum())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    print("returncode", out.returncode)
    print(out.stdout.strip())

    with open("child_script.py", "w") as f:
        f.write("import sys, torch\nprint(sys.argv[1:], torch.zeros(2, dtype=torch.int64))\n")
    out = subprocess.run([sys.executable, "child_script.py", "a", "b"], capture_output=True,
                         text=True)
    print("script", out.returncode, out.stdout.strip())

    out = subprocess.run([sys.executable, "-c", "raise SystemExit(3)"])
    print("exit status", out.returncode)

    # a warning torch raises at the caller's line, from -c and from stdin
    # (whose __main__ has no source to show)
    warn = ("import torch, torch.nn.functional as F\n"
            "F.mse_loss(torch.ones(2), torch.ones(2, 1)); print('after')")
    out = subprocess.run([sys.executable, "-c", warn], capture_output=True, text=True)
    print("-c warning", out.returncode, out.stdout.strip(), out.stderr.splitlines()[0][:40])
    out = subprocess.run([sys.executable, "-"], input=warn, capture_output=True, text=True)
    print("stdin warning", out.returncode, out.stdout.strip(), out.stderr.splitlines()[0][:40])

    ctx = mp.get_context("spawn")
    with ctx.Pool(1) as pool:
        print("spawn pool", pool.map(square, [[1.0, 2.0], [3.0]]))

    fallback = r"""
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 37, dtype=torch.float32) * 4
y = torch.randint(0, 37, (4,))
w = x.clone().requires_grad_()
loss = F.cross_entropy(w, y)
loss.backward()
wd = x.double().requires_grad_()
F.cross_entropy(wd, y).backward()
ops = {
    "softmax": lambda t: t.softmax(1), "log_softmax": lambda t: t.log_softmax(1),
    "exp": lambda t: t.exp(), "tanh": lambda t: t.tanh(), "sigmoid": lambda t: t.sigmoid(),
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"), "gelu": F.gelu,
    "erf": lambda t: t.erf(), "log1p": lambda t: t.abs().log1p(),
    "bce_logits": lambda t: F.binary_cross_entropy_with_logits(t, t.sigmoid().round(),
                                                               reduction="none"),
}
# each float32 result against the same op in float64, rounded
print("loss", torch.allclose(loss, F.cross_entropy(x.double(), y).float()))
print("loss_grad", torch.allclose(w.grad, wd.grad.float(), atol=1e-7))
for name, f in ops.items():
    print(name, torch.allclose(f(x), f(x.double()).float(), rtol=1e-6, atol=1e-6))
"""
    env = dict(os.environ, NNDB_NO_SLEEF="1")
    out = subprocess.run([sys.executable, "-c", fallback], capture_output=True, text=True,
                         env=env)
    print("no sleef", out.returncode)
    print(out.stdout.strip())
    print(out.stderr.strip()[-500:])

"""Replay PyTorch's OpInfo samples under nndb and compare with PyTorch.

Runs under `nndb python`.  Reads the entries tests/opinfo/gen.py recorded
(one pickle per OpInfo entry) and, for every variant of each entry
(function, method, in-place, operator), makes the same call on nndb's torch
and compares outputs (dtype, shape, values) and the gradients of the same
weighted sum of outputs.  Writes one JSON line per entry to RESULTS:

    {"key": ..., "status": "pass" | "fail" | "skip", "reason": ..., "samples": N}

An entry passes when every sample of every variant matches; samples that
could not be recorded (random ops, complex inputs, ...) are left out with
their reason, and an entry with no recordable sample is a skip.

    nndb python tests/opinfo/check.py CASEDIR RESULTS [KEY...]
"""

import functools
import json
import marshal
import math
import operator
import os
import pickle
import sys
import traceback
import types
import warnings

import numpy as np

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import flat_tensors  # noqa: E402

warnings.filterwarnings("ignore")
torch.set_num_threads(1)

TOL = {  # (rtol, atol) for values and for gradients
    "float32": ((1.3e-5, 1e-5), (1e-4, 1e-4)),
    "float64": ((1e-7, 1e-7), (1e-6, 1e-6)),
}


def wrapper_set_seed(op, *args, **kwargs):
    torch.manual_seed(42)
    return op(*args, **kwargs)


GLOBALS = {"torch": torch, "np": np, "numpy": np, "F": F, "math": math, "operator": operator,
           "partial": functools.partial, "wrapper_set_seed": wrapper_set_seed,
           "__builtins__": __builtins__}


class Mismatch(Exception):
    pass


def make_fn(code_bytes, name, defaults=(), kwdefaults=None):
    fn = types.FunctionType(marshal.loads(code_bytes), dict(GLOBALS), name)
    fn.__defaults__ = decode(defaults, []) or None
    fn.__kwdefaults__ = decode(kwdefaults, []) or None
    return fn


def decode(x, leaves):
    if isinstance(x, tuple) and x and isinstance(x[0], str) and len(x) >= 2:
        tag = x[0]
        if tag == "T" and len(x) == 5:
            _, arr, dtype, rg, idx = x
            t = torch.tensor(arr, dtype=getattr(torch, dtype))
            if rg:
                t.requires_grad_(True)
                leaves.append((idx, t))
            return t
        if tag == "D" and len(x) == 2:
            return getattr(torch, x[1])
        if tag == "M" and len(x) == 2:
            return getattr(torch, x[1])
        if tag == "V" and len(x) == 2:
            return torch.device(x[1])
        if tag == "L" and len(x) == 2:
            return getattr(torch, x[1])
        if tag == "F" and len(x) == 5:
            return make_fn(*x[1:])
    if isinstance(x, list):
        return [decode(v, leaves) for v in x]
    if isinstance(x, tuple):
        return tuple(decode(v, leaves) for v in x)
    if isinstance(x, dict):
        return {k: decode(v, leaves) for k, v in x.items()}
    return x


def short(e):
    s = "%s: %s" % (type(e).__name__, str(e).split("\n")[0])
    return s[:300]


def compare(got, want, tol, where):
    """Raise Mismatch naming the first difference between got and want."""
    if isinstance(want, tuple) and want and want[0] == "S":
        if not isinstance(got, torch.Tensor) or tuple(got.shape) != want[1] or str(got.dtype) != "torch." + want[2]:
            raise Mismatch("%s: %r, PyTorch a %s tensor of shape %s" % (where, got, want[2], want[1]))
        return
    if isinstance(want, tuple) and want and want[0] in ("T", "C"):
        arr, dtype = want[1], want[2]  # "C": a complex array, compared as complex numbers
        if not isinstance(got, torch.Tensor):
            raise Mismatch("%s: got %s, PyTorch returns a tensor" % (where, type(got).__name__))
        gd = str(got.dtype).replace("torch.", "")
        if gd != dtype:
            raise Mismatch("%s: dtype %s, PyTorch %s" % (where, gd, dtype))
        if tuple(got.shape) != arr.shape:
            raise Mismatch("%s: shape %s, PyTorch %s" % (where, tuple(got.shape), arr.shape))
        g = got.detach().numpy()
        if arr.dtype.kind in "fc":
            rtol, atol = tol
            ok = np.isclose(g, arr, rtol=rtol, atol=atol, equal_nan=True)
            if not ok.all():
                i = np.argwhere(~ok)[0]
                raise Mismatch("%s: value at %s is %r, PyTorch %r" % (where, tuple(i), g[tuple(i)], arr[tuple(i)]))
        elif not np.array_equal(g, arr):
            i = np.argwhere(g != arr)[0]
            raise Mismatch("%s: value at %s is %r, PyTorch %r" % (where, tuple(i), g[tuple(i)], arr[tuple(i)]))
        return
    if isinstance(want, list):
        if not isinstance(got, (list, tuple)):
            raise Mismatch("%s: got %s, PyTorch returns a sequence" % (where, type(got).__name__))
        if len(got) != len(want):
            raise Mismatch("%s: %d results, PyTorch %d" % (where, len(got), len(want)))
        for i, (a, b) in enumerate(zip(got, want)):
            compare(a, b, tol, "%s[%d]" % (where, i))
        return
    if isinstance(want, tuple) and want and want[0] == "D":
        if got != getattr(torch, want[1]):
            raise Mismatch("%s: %r, PyTorch torch.%s" % (where, got, want[1]))
        return
    if isinstance(want, float):
        if not (isinstance(got, (int, float)) and (math.isclose(got, want, rel_tol=tol[0], abs_tol=tol[1])
                                                   or (got != got and want != want))):
            raise Mismatch("%s: %r, PyTorch %r" % (where, got, want))
        return
    if isinstance(got, torch.Tensor) and got.dim() == 0 and isinstance(want, (int, bool)):
        got = got.item()
    if got != want:
        raise Mismatch("%s: %r, PyTorch %r" % (where, got, want))


def resolve(kind, how):
    if how[0] == "path":
        obj = None
        parts = how[1].split(".")
        obj = torch
        for p in parts[1:]:
            obj = getattr(obj, p)
        return obj
    if how[0] == "fn":
        return make_fn(*how[1:])
    if how[0] == "name":
        name = how[1]
        if kind == "operator":
            return getattr(operator, name)
        return lambda x, *a, **k: getattr(x, name)(*a, **k)
    raise AssertionError(how)


def run_sample(kind, fn, rec, dtype):
    vtol, gtol = TOL.get(dtype, ((0, 0), (0, 0)))
    leaves = []
    inp = decode(rec["input"], leaves)
    args = decode(rec["args"], leaves)
    kwargs = decode(rec["kwargs"], leaves)
    if kind == "inplace":
        if rec["broadcasts_input"]:
            return False
        want = rec["output"]
        if not (isinstance(want, tuple) and want[0] == "T" and want[2] == str(inp.dtype).replace("torch.", "")):
            return False
        inp = inp.detach()
        args = decode(rec["args"], [])
        kwargs = decode(rec["kwargs"], [])
        args = tuple(a.detach() if isinstance(a, torch.Tensor) else a for a in args)
        # a random op recorded through the database's wrapper_set_seed drew
        # after manual_seed(42); its in-place variant draws from the same seed
        torch.manual_seed(42)
        out = fn(inp, *args, **kwargs)
        if out is not inp:
            raise Mismatch("in-place variant returned a new tensor, not its input")
        compare(out, want, vtol, "output")
        return True
    if kind == "operator" and kwargs:
        return False
    torch.manual_seed(0)
    out = fn(inp, *args, **kwargs)
    compare(out, rec["output"], vtol, "output")
    if kind not in ("function", "method") or "grads" not in rec:
        return True
    process = make_fn(*rec["process"][1:])
    outs = [o for o in flat_tensors(process(out), []) if isinstance(o, torch.Tensor)
            and (o.is_floating_point() or o.is_complex())]
    outs = [torch.view_as_real(o) if o.is_complex() else o for o in outs if o.requires_grad]
    if len(outs) != len(rec["weights"]):
        raise Mismatch("%d outputs require grad, PyTorch %d" % (len(outs), len(rec["weights"])))
    leaves.sort(key=lambda p: p[0])
    ts = [t for _, t in leaves]
    loss = sum((o * torch.tensor(w, dtype=o.dtype)).sum() for o, w in zip(outs, rec["weights"]))
    grads = torch.autograd.grad(loss, ts, allow_unused=True)
    for i, (g, want) in enumerate(zip(grads, rec["grads"])):
        if want is None:
            if g is not None and bool((g != 0).any()):
                raise Mismatch("grad of input %d is nonzero, PyTorch has none" % i)
            continue
        if g is None:
            g = torch.zeros(want.shape, dtype=getattr(torch, want.dtype.name))
        # the grad has its leaf's dtype (PyTorch's, recorded), not always the sample's
        compare(g, ("T", want, want.dtype.name, False, -1), gtol, "grad of input %d" % i)
    return True


def check_entry(entry):
    if "skip" in entry:
        return "skip", entry["skip"], 0
    fns = []
    for kind, how in entry["variants"]:
        if how[0] == "skip":
            continue
        try:
            fns.append((kind, resolve(kind, how)))
        except AttributeError as e:
            return "fail", "%s variant missing: %s" % (kind, short(e)), 0
    n = 0
    for dtype, recs in entry["dtypes"].items():
        for i, rec in enumerate(recs):
            if "skip" in rec:
                continue
            for kind, fn in fns:
                where = "%s %s sample %d" % (kind, dtype, i)
                try:
                    if run_sample(kind, fn, rec, dtype):
                        n += 1
                except Mismatch as e:
                    return "fail", "%s: %s" % (where, e), n
                except Exception as e:
                    return "fail", "%s: %s" % (where, short(e)), n
    if n == 0:
        skips = [r["skip"] for recs in entry["dtypes"].values() for r in recs if "skip" in r]
        return "skip", skips[0] if skips else "no samples", 0
    return "pass", "", n


def main():
    casedir, results = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    files = sorted(f for f in os.listdir(casedir) if f.endswith(".pkl"))
    done = set()
    if os.path.exists(results):
        with open(results) as f:
            for line in f:
                try:
                    done.add(json.loads(line)["key"])
                except ValueError:
                    pass
    with open(results, "a") as out:
        for fname in files:
            key = fname[:-4]
            if key in done or (only and key not in only and key.split(".")[0] not in only):
                continue
            # Say which entry runs before running it, so a crash is pinned on it.
            with open(results + ".current", "w") as cur:
                cur.write(key)
            with open(os.path.join(casedir, fname), "rb") as f:
                entry = pickle.load(f)
            try:
                status, reason, n = check_entry(entry)
            except Exception as e:  # a bug in the checker itself: report, go on
                status, reason, n = "fail", "checker: " + short(e) + " " + traceback.format_exc(limit=2)[-200:], 0
            out.write(json.dumps({"key": entry["key"], "status": status, "reason": reason, "samples": n}) + "\n")
            out.flush()
    if os.path.exists(results + ".current"):
        os.unlink(results + ".current")


if __name__ == "__main__":
    main()

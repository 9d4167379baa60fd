"""Replay PyTorch's out= answers (tests/opinfo/out_gen.py) under nndb.

Runs under `nndb python`.  For every recorded OpInfo entry whose function
nndb has, makes the same calls and checks:

  - out= is accepted exactly where PyTorch accepts it, and refused with
    the same exception type (and message) where PyTorch refuses it;
  - an accepted call returns what PyTorch's does (the out tensor itself, or
    a torch.return_types.NAME_out of the outs) and its outs hold nndb's own
    eager result (dtype, shape, values, as torch.equal sees them);
  - an out of the wrong shape is resized, with PyTorch's UserWarning when
    it had elements, and outs of other dtypes are accepted or refused with
    PyTorch's exception and message;
  - the Tensor method of the same name refuses out= with PyTorch's
    exception and message.

Prints one line per difference (KNOWN lines are listed in KNOWN below with
their reason and do not fail) and "N passed, M failed" (entries).

    nndb python tests/opinfo/out_check.py CASEFILE [KEY...]
"""

import os
import pickle
import sys
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import TOL, Mismatch, compare, decode  # noqa: E402
from out_common import err, outs_like, returned  # noqa: E402

torch.set_num_threads(1)

# Differences that stay, each with its reason: entry key -> (parts, reason).
# A part is "accept", "return", "outs", "resize", "dtype", "method" or
# "message" (the exception type agrees, PyTorch's words do not).
KNOWN = {
    "native_batch_norm": (("accept",), "PyTorch 1.13 lists an out= overload but has no CPU kernel "
                          "for it (NotImplementedError); nndb's function takes no out= (TypeError)"),
}


class Entry:
    def __init__(self, key):
        self.key, self.diffs = key, []

    def diff(self, part, text):
        self.diffs.append((part, text))


def equal(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.is_complex():
            a, b = torch.view_as_real(a), torch.view_as_real(b)
        if a.is_floating_point():
            return bool(torch.equal(torch.nan_to_num(a), torch.nan_to_num(b)))
        return bool(torch.equal(a, b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    return False


def args_of(rec):
    return decode(rec["input"], []), decode(rec["args"], []), decode(rec["kwargs"], [])


def call_out(fn, rec, out):
    inp, args, kwargs = args_of(rec)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = fn(inp, *args, out=out, **kwargs)
        except Exception as e:
            return {"error": err(e)}
    return {"returned": returned(r, out),
            "warnings": resize_warnings([(w.category.__name__, str(w.message)) for w in ws])}


def resize_warnings(ws):
    """The out= warnings among those a call gave (deprecation notes of the
    function itself are another matter)."""
    return [(w[0], w[1]) for w in ws if w[1].startswith("An output with")]


def compare_call(ent, part, got, want, out, eager, dtype):
    """[got] (call_out under nndb) against [want] (PyTorch's record)."""
    if "error" in want or "error" in got:
        if "error" not in got:
            ent.diff(part, "accepted; PyTorch: %s: %s" % want["error"])
        elif "error" not in want:
            ent.diff(part, "refused (%s: %s); PyTorch accepts" % got["error"])
        elif got["error"][0] != want["error"][0]:
            ent.diff(part, "%s: %s; PyTorch: %s: %s" % (got["error"] + want["error"]))
        elif got["error"][1] != want["error"][1]:
            ent.diff("message", "%s: %r; PyTorch %r" % (part, got["error"][1], want["error"][1]))
        return
    if got["returned"] != want["returned"]:
        ent.diff(part, "returns %s; PyTorch %s" % (got["returned"], want["returned"]))
    want_w = resize_warnings(want["warnings"])
    if [c for c, _ in got["warnings"]] != [c for c, _ in want_w]:
        ent.diff(part, "warnings %s; PyTorch %s" % (got["warnings"], want_w))
    elif got["warnings"] != want_w:
        ent.diff("message", "%s: warnings %s; PyTorch %s" % (part, got["warnings"], want_w))
    # the outs hold the eager result, in their own dtype
    o = out if isinstance(out, tuple) else (out,)
    e = eager if isinstance(eager, tuple) else (eager,)
    if part.startswith("dtype"):
        # an out of another dtype: some functions compute in out's dtype
        # (sum, cumsum), so the values are PyTorch's, within tolerance
        try:
            compare(out, want["outs"], TOL.get(dtype.replace("torch.", ""), ((0, 0),))[0], "outs")
        except Mismatch as m:
            ent.diff(part, str(m))
    elif not equal(o, e):
        ent.diff(part, "outs %s; eager %s" % (o, e))


def check(entry):
    ent = Entry(entry["key"])
    rec = entry["rec"]
    obj = torch
    try:
        for p in entry["path"].split(".")[1:]:
            obj = getattr(obj, p)
    except AttributeError:
        return None  # nndb lacks the function: tests/opinfo says so
    fn = obj
    inp, args, kwargs = args_of(rec)
    try:
        torch.manual_seed(1)
        eager = fn(inp, *args, **kwargs)
    except Exception as e:
        ent.diff("eager", "the call without out= fails: %s: %s" % err(e))
        return ent
    if isinstance(eager, list):
        eager = tuple(eager)
    want = rec["out"]
    out = outs_like(eager)
    dtype = entry["dtype"]
    compare_call(ent, "accept", call_out(fn, rec, out), want, out, eager, dtype)
    for shape, w in rec.get("resize", {}).items():
        out = outs_like(eager, shape=shape)
        compare_call(ent, "resize %s" % (shape,), call_out(fn, rec, out), w, out, eager, dtype)
    for dt, w in rec.get("dtypes", {}).items():
        out = outs_like(eager, dtype=getattr(torch, dt.replace("torch.", "")))
        compare_call(ent, "dtype %s" % dt, call_out(fn, rec, out), w, out, eager, dtype)
    if "method" in rec and hasattr(torch.Tensor, entry["path"].split(".")[-1]):
        inp, args, kwargs = args_of(rec)
        name = entry["path"].split(".")[-1]
        try:
            getattr(inp, name)(*args, out=outs_like(eager), **kwargs)
            got = ("accepted",)
        except Exception as e:
            got = err(e)
        if got[0] != rec["method"][0]:
            ent.diff("method", "Tensor.%s(out=): %s; PyTorch %s" % (name, got, rec["method"]))
        elif got != rec["method"]:
            ent.diff("message", "Tensor.%s(out=): %r; PyTorch %r" % (name, got[1], rec["method"][1]))
    return ent


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    with open(args[0], "rb") as f:
        entries = pickle.load(f)
    only = set(args[1:])
    passed = failed = known = absent = messages = 0
    for entry in entries:
        if "rec" not in entry or (only and entry["key"] not in only and entry["key"].split(".")[0] not in only):
            continue
        try:
            ent = check(entry)
        except Exception as e:  # a bug in the checker: report it, go on
            ent = Entry(entry["key"])
            ent.diff("checker", "%s: %s" % err(e))
        if ent is None:
            absent += 1
            continue
        bad = []
        for part, text in ent.diffs:
            text = text.replace("\n", " | ")[:400]
            k = KNOWN.get(ent.key)
            if part == "message":
                messages += 1
                if verbose:
                    print("MESSAGE %s %s" % (ent.key, text))
            elif k and part.split()[0] in k[0]:
                print("KNOWN %s %s: %s (%s)" % (ent.key, part, text[:200], k[1]))
                known += 1
            else:
                bad.append((part, text))
        for part, text in bad:
            print("FAIL %s %s: %s" % (ent.key, part, text))
        if bad:
            failed += 1
        else:
            passed += 1
    print("out=: %d OpInfo functions take out= as PyTorch does, %d differ, %d known differences, "
          "%d exception messages in other words (-v lists them), %d functions nndb lacks"
          % (passed, failed, known, messages, absent))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

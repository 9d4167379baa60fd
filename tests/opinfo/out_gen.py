"""Record how PyTorch treats out= on every function of its operator database.

Runs under /usr/bin/python3 with Debian's torch 1.13.  For each OpInfo entry
whose function is reachable by name (torch.NAME, torch.linalg.NAME,
torch.special.NAME, torch.fft.NAME, torch.nn.functional.NAME) it takes the
first sample input (float32 where the entry has it, as gen.py picks dtypes)
that PyTorch can run and that is not random, and records:

  - the eager call's result,
  - the call with out= (a tensor, or for a function returning several
    tensors a tuple of them, each empty_like the eager result): whether
    PyTorch accepts it, what it returns (the out tensor itself, or a
    torch.return_types.NAME_out holding the outs) and what the outs hold;
  - the same with outs of the wrong shape (no elements: resized quietly;
    with elements: resized with PyTorch's UserWarning);
  - outs of another dtype (float64 for a float32 result, int64, float32 for
    an int64 one): accepted, or refused with which message;
  - the Tensor method of the same name given out=: PyTorch's methods take
    none, and each refuses it with a TypeError.

tests/opinfo/out_check.py makes the same calls under nndb and compares.
OpInfo's own `supports_out` flag is recorded next to what PyTorch does.

    PYTHONPATH=tests/opinfo /usr/bin/python3 tests/opinfo/out_gen.py OUTFILE
"""

import pickle
import sys
import warnings

import torch

import gen  # the database, its encoders and its dtype choice  # noqa: E402
from gen import Unsupported, clone_args, encode, encode_out, entry_key, op_db, variants  # noqa: E402
from out_common import err, outs_like, returned  # noqa: E402


def call_out(fn, s, out):
    """fn(sample, out=out): the record of what happened."""
    inp, args, kwargs = clone_args(s)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = fn(inp, *args, out=out, **kwargs)
        except Exception as e:
            return {"error": err(e)}
    return {"returned": returned(r, out), "outs": encode_out(out),
            "warnings": [(w.category.__name__, str(w.message)) for w in ws]}


def other_dtypes(dt):
    if dt in (torch.float32, torch.float64):
        return [torch.float64 if dt == torch.float32 else torch.float32, torch.int64]
    if dt == torch.bool:
        return [torch.float32]
    return [torch.float32, torch.int32]


def resize_shapes(x):
    """An empty out, and one with elements of another shape."""
    t = x if isinstance(x, torch.Tensor) else x[0]
    return [(0,), (t.numel() + 2,)]


def record(op, s, fn, method):
    inp, args, kwargs = clone_args(s)
    torch.manual_seed(1)
    eager = fn(inp, *args, **kwargs)
    inp, args, kwargs = clone_args(s)
    torch.manual_seed(2)
    if not gen.equal_out(eager, fn(inp, *args, **kwargs)):
        raise Unsupported("random")
    if not (isinstance(eager, torch.Tensor) or (isinstance(eager, tuple) and eager and all(
            isinstance(t, torch.Tensor) for t in eager))):
        raise Unsupported("returns %s" % type(eager).__name__)
    rec = {"input": encode(s.input, []), "args": encode(tuple(s.args), []),
           "kwargs": encode(dict(s.kwargs), []), "eager": encode_out(eager, entry_key(op))}
    rec["out"] = call_out(fn, s, outs_like(eager))
    if "error" not in rec["out"]:
        rec["resize"] = {sh: call_out(fn, s, outs_like(eager, shape=sh)) for sh in resize_shapes(eager)}
        first = eager if isinstance(eager, torch.Tensor) else eager[0]
        rec["dtypes"] = {str(d): call_out(fn, s, outs_like(eager, dtype=d)) for d in other_dtypes(first.dtype)}
    if method:
        inp, args, kwargs = clone_args(s)
        try:
            getattr(inp, method)(*args, out=outs_like(eager), **kwargs)
            rec["method"] = ("accepted",)
        except Exception as e:
            rec["method"] = err(e)
    return rec


def record_entry(op):
    entry = {"key": entry_key(op), "supports_out": bool(op.supports_out)}
    vs = dict(variants(op))
    how = vs.get("function")
    if not how or how[0] != "path":
        entry["skip"] = "no function reachable by name"
        return entry
    entry["path"] = how[1]
    fn = op.op
    m = vs.get("method")
    method = m[1] if m and m[0] == "name" else None
    supported = op.supported_dtypes("cpu")
    dtypes = [d for d in gen.FLOATS if d in supported] or [d for d in gen.INTEGRALS if d in supported][:1]
    reasons = []
    for dt in dtypes:
        try:
            samples = list(op.sample_inputs("cpu", dt, requires_grad=False))
        except Exception as e:
            reasons.append("sample_inputs raised %s" % type(e).__name__)
            continue
        for s in samples:
            try:
                entry["rec"] = record(op, s, fn, method)
                entry["dtype"] = str(dt)
                return entry
            except Unsupported as e:
                reasons.append(str(e))
            except Exception as e:
                reasons.append("PyTorch raised %s" % type(e).__name__)
    entry["skip"] = "no usable sample (%s)" % (", ".join(sorted(set(reasons)))[:200] or "none")
    return entry


def main():
    warnings.filterwarnings("ignore")
    torch.manual_seed(0)
    entries = [record_entry(op) for op in op_db]
    with open(sys.argv[1], "wb") as f:
        pickle.dump(entries, f, protocol=4)
    n = sum("rec" in e for e in entries)
    print("recorded out= for %d of %d OpInfo entries" % (n, len(entries)))


if __name__ == "__main__":
    main()

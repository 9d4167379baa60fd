"""ModuleInfo check (run under `nndb python`): rebuild every module of
PyTorch 1.13's module_db in nndb, copy PyTorch's initialised state in by
name, and compare outputs, input and parameter gradients and buffers with
the values gen.py recorded.

    check.py REF.pkl BASELINE.txt

A module passes when every sample passes in float32 and float64, train and
eval mode, within torch.testing.assert_close's default tolerances for the
dtype. Modules named in BASELINE must pass (one failure each otherwise);
other failing modules are counted as skipped, with their reason, so that a
module that passed before cannot silently regress while the missing ones
do not fail `make test`.
"""
import importlib
import pickle
import sys
import warnings

import numpy as np
import torch

TOL = {"torch.float32": (1.3e-6, 1e-5), "torch.float64": (1e-7, 1e-7)}
DTYPES = {"torch.float32": torch.float32, "torch.float64": torch.float64}


class Mismatch(Exception):
    pass


def dec(x):
    if isinstance(x, dict):
        if "__tensor__" in x:
            t = torch.tensor(x["__tensor__"])
            if str(t.dtype) != x["dtype"]:
                raise Mismatch("cannot rebuild a %s tensor (got %s)" % (x["dtype"], t.dtype))
            return t.requires_grad_() if x["requires_grad"] else t
        if "__dtype__" in x:
            return getattr(torch, x["__dtype__"].split(".")[1])
        if "__callable__" in x:
            return resolve(x["__callable__"])
        return {k: dec(v) for k, v in x.items()}
    if isinstance(x, (tuple, list)):
        return type(x)(dec(v) for v in x)
    return x


def resolve(path):
    """torch.nn.ELU, torch.ao.nn.quantized.MaxPool2d, torch.nn.functional.gelu"""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for p in parts[i:]:
            if not hasattr(obj, p):
                raise Mismatch("%s is not provided" % path)
            obj = getattr(obj, p)
        return obj
    raise Mismatch("%s is not provided" % path)


def tensors(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for v in x for t in tensors(v)]
    if isinstance(x, dict):
        return [t for k in x for t in tensors(x[k])]
    return []


def weights(t):
    return torch.arange(t.numel(), dtype=torch.float64).cos().view(t.shape).to(t.dtype)


ACCURACY = {"accepted": 0}


def compare(what, got, want, dtype, ref64=None):
    if want is None or got is None:
        if (want is None) != (got is None):
            raise Mismatch("%s: %s, PyTorch has %s" % (
                what, "none" if got is None else "a value", "none" if want is None else "a value"))
        return
    g = got.detach().numpy() if isinstance(got, torch.Tensor) else got
    if g.shape != want.shape:
        raise Mismatch("%s: shape %s, PyTorch %s" % (what, tuple(g.shape), tuple(want.shape)))
    if g.dtype != want.dtype:
        raise Mismatch("%s: dtype %s, PyTorch %s" % (what, g.dtype, want.dtype))
    if want.dtype.kind not in "fc":
        if not np.array_equal(g, want):
            raise Mismatch("%s: values differ" % what)
        return
    rtol, atol = TOL[dtype]
    a, b = g.astype(np.float64), want.astype(np.float64)
    same_nan = np.isnan(a) == np.isnan(b)
    ok = same_nan & (np.isnan(b) | (np.abs(a - b) <= atol + rtol * np.abs(b)))
    if not ok.all() and ref64 is not None and ref64.shape == a.shape:
        # float32 only: a value that misses PyTorch's float32 value still
        # passes when it is at most twice as far from the float64 result as
        # PyTorch's own float32 value is (plus the tolerance): the two sum
        # in different orders, and nndb's is no less accurate
        r = ref64.astype(np.float64)
        near = np.abs(a - r) <= 2 * np.abs(b - r) + atol + rtol * np.abs(r)
        fixed = ~ok & same_nan & near
        ACCURACY["accepted"] += int(fixed.sum())
        ok = ok | fixed
    if not ok.all():
        i = np.unravel_index(np.argmax(~ok), ok.shape) if ok.shape else ()
        raise Mismatch("%s: %d of %d values differ, e.g. at %s %r vs PyTorch %r" % (
            what, int((~ok).sum()), ok.size, tuple(int(j) for j in i), a[i].item(), b[i].item()))


def is_lazy(m):
    try:
        from torch.nn.parameter import UninitializedParameter
    except ImportError:
        return False
    return any(isinstance(p, UninitializedParameter) for p in m.parameters())


def run_sample(cls, rec):
    dtype = DTYPES[rec["dtype"]]
    args, kwargs = dec(rec["ctor_args"]), dec(rec["ctor_kwargs"])
    fargs, fkwargs = dec(rec["fwd_args"]), dec(rec["fwd_kwargs"])
    torch.manual_seed(0)
    m = cls(*args, **kwargs)
    m.to(dtype)
    m.train(rec["training"])
    if is_lazy(m):
        with torch.no_grad():
            m(*fargs, **fkwargs)
    state = {k: torch.tensor(v) for k, v in rec["state"].items()}
    keys = set(m.state_dict().keys())
    if keys != set(state):
        raise Mismatch("state_dict keys %s, PyTorch %s" % (sorted(keys), sorted(state)))
    m.load_state_dict(state)
    torch.manual_seed(1)
    out = m(*fargs, **fkwargs)
    outs = tensors(out)
    if len(outs) != len(rec["outputs"]):
        raise Mismatch("forward gives %d tensors, PyTorch %d" % (len(outs), len(rec["outputs"])))
    ref = rec.get("ref64") or {}

    def r64(field, i):
        vals = ref.get(field)
        if vals is None:
            return None
        return vals.get(i) if isinstance(vals, dict) else vals[i]
    for i, (o, w) in enumerate(zip(outs, rec["outputs"])):
        compare("output %d" % i, o, w, rec["dtype"], r64("outputs", i))
    if rec["input_grads"] is not None:
        grad_inputs = [t for t in tensors((fargs, fkwargs)) if t.requires_grad]
        named = [(n, p) for n, p in m.named_parameters() if p.requires_grad]
        diff = [o for o in outs if o.requires_grad]
        if not diff:
            raise Mismatch("no output requires grad")
        total = sum((o * weights(o)).sum() for o in diff)
        grads = torch.autograd.grad(total, grad_inputs + [p for _, p in named], allow_unused=True)
        for i, (g, w) in enumerate(zip(grads, rec["input_grads"])):
            compare("grad of input %d" % i, g, w, rec["dtype"], r64("input_grads", i))
        for (n, _), g in zip(named, grads[len(grad_inputs):]):
            compare("grad of %s" % n, g, rec["param_grads"].get(n), rec["dtype"],
                    r64("param_grads", n))
    bufs = dict(m.named_buffers())
    for k, w in rec["buffers_after"].items():
        compare("buffer %s after forward" % k, bufs.get(k), w, rec["dtype"],
                r64("buffers_after", k))


def describe(args, kwargs):
    def short(v):
        if isinstance(v, dict) and "__tensor__" in v:
            return "<tensor>"
        if isinstance(v, dict) and "__callable__" in v:
            return v["__callable__"]
        return repr(v)
    return ", ".join([short(v) for v in args] +
                     ["%s=%s" % (k, short(v)) for k, v in sorted(kwargs.items())])


def control(ref):
    """The comparison must reject a reference nudged by a small amount (in
    float32 and float64; a float32 record's float64 companion is nudged
    with it, as when nndb is the one that is off): returns the number of
    nudges it failed to notice."""
    cls = resolve("torch.nn.Linear")
    missed = 0
    recs = ref["nn.Linear"]
    for dtype in ("torch.float32", "torch.float64"):
        base = next(r for r in recs if r["dtype"] == dtype)
        for field in ("outputs", "input_grads"):
            rec = dict(base)
            nudge = 1e-4 * (1 + abs(float(rec[field][0].flat[0])))
            vals = [v.copy() for v in rec[field]]
            vals[0].flat[0] += nudge
            rec[field] = vals
            if "ref64" in rec:
                ref64 = dict(rec["ref64"])
                vals64 = [v.copy() for v in ref64[field]]
                vals64[0].flat[0] += nudge
                ref64[field] = vals64
                rec["ref64"] = ref64
            try:
                run_sample(cls, rec)
                print("FAIL control: a nudged %s (%s) was accepted" % (field, dtype))
                missed += 1
            except Mismatch:
                pass
    return missed


def check_module(name, recs):
    cls = resolve("torch." + name)
    for rec in recs:
        try:
            run_sample(cls, rec)
        except Exception as e:
            msg = str(e).strip().splitlines()
            msg = msg[0] if msg else ""
            kind = "" if isinstance(e, Mismatch) else type(e).__name__ + ": "
            raise Mismatch("%s %s %s (%s): %s%s" % (
                rec["desc"] or "sample", rec["dtype"][6:], "train" if rec["training"] else "eval",
                describe(rec["ctor_args"], rec["ctor_kwargs"]),
                kind, msg)) from None
    return len(recs)


def main():
    warnings.simplefilter("ignore")  # lazy modules' and deprecations' warnings
    with open(sys.argv[1], "rb") as f:
        ref = pickle.load(f)
    with open(sys.argv[2]) as f:
        baseline = {ln.split("#")[0].strip() for ln in f} - {""}
    passing, regressed, known = [], [], []
    for name, recs in ref.items():
        try:
            n = check_module(name, recs)
            print("PASS %s (%d runs)" % (name, n))
            passing.append(name)
        except Mismatch as e:
            if name in baseline:
                print("FAIL %s (it passed before: listed in passing.txt): %s" % (name, e))
                regressed.append(name)
            else:
                print("fail %s: %s" % (name, e))
                known.append(name)
    for name in sorted(set(passing) - baseline):
        print("NEW PASS %s: add it to tests/moduleinfo/passing.txt" % name)
    for name in sorted(baseline - set(ref)):
        print("FAIL %s is in passing.txt but not in PyTorch's module_db" % name)
        regressed.append(name)
    if ACCURACY["accepted"]:
        print("%d float32 values differ from PyTorch's beyond the tolerance but are as near to "
              "the float64 result as PyTorch's (summation order)" % ACCURACY["accepted"])
    regressed += ["control"] * control(ref)
    print("COVERAGE modules pass=%d of %d" % (len(passing), len(ref)))
    print("%d passed, %d failed, %d skipped" % (len(passing), len(regressed), len(known)))
    return 1 if regressed else 0


if __name__ == "__main__":
    sys.exit(main())

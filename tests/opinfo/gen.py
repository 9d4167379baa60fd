"""Record PyTorch's answers to its own operator database, OpInfo.

Runs under /usr/bin/python3 with Debian's torch 1.13.  For every entry of
`torch.testing._internal.common_methods_invocations.op_db` it takes the CPU
sample inputs for float32 and float64 (for ops without floating dtypes, the
first integral dtype they support), calls the op, and writes one pickle per
entry into OUTDIR holding, for each sample:

  - the inputs (tensors as NumPy arrays with their dtype and requires_grad),
  - the outputs (values, shapes, dtypes),
  - the gradients of a weighted sum of the floating outputs with respect to
    every input that requires grad (the weights are stored too).

tests/opinfo/check.py replays the same calls under nndb and compares.
Nothing here is nndb-specific: the recorded file is PyTorch's behaviour.

    PYTHONPATH=tests/opinfo /usr/bin/python3 tests/opinfo/gen.py OUTDIR [NAME...]
"""

import marshal
import os
import pickle
import sys
import types
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # expecttest stand-in
warnings.filterwarnings("ignore")

import torch  # noqa: E402
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402

from common import flat_tensors  # noqa: E402

torch.set_num_threads(1)

# Names a lambda in op_db may use; check.py provides the same names.
LAMBDA_GLOBALS = {"torch", "np", "numpy", "F", "math", "operator", "partial", "wrapper_set_seed"}
FLOATS = (torch.float32, torch.float64)
INTEGRALS = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool)


# Gradients PyTorch 1.13 gets wrong, so there is nothing to compare with.
# sgn of a real tensor is piecewise constant (gradient 0), but its backward
# returns stale memory on these samples: each gen run records different
# values (a shifted copy of the input, 1e-19, ...), while a small tensor
# gives zeros.
WRONG_GRADS = {
    "sgn": "PyTorch 1.13's sgn backward on real inputs returns uninitialised memory, not 0",
}


class Unsupported(Exception):
    """A sample holds something the recording cannot carry across."""


def entry_key(op):
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def encode_fn(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        raise Unsupported("callable %r" % (fn,))
    if fn.__closure__:
        raise Unsupported("a closure (%s)" % fn.__qualname__)

    def names(c):
        out = set(c.co_names)
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                out |= names(k)
        return out

    # co_names mixes globals and attribute names; only the first of a dotted
    # chain has to be a global, and attributes cannot be told apart here, so
    # require every name not an attribute of torch to be one we provide.
    extra = {n for n in names(code) if n not in LAMBDA_GLOBALS and not hasattr(torch, n)
             and not hasattr(torch.Tensor, n) and not hasattr(torch.nn.functional, n)}
    extra -= {"shape", "dim", "ndim", "T", "mT", "H", "mH", "real", "imag", "dtype", "device"}
    for n in extra:
        if n in fn.__globals__ and not isinstance(fn.__globals__[n], types.ModuleType):
            raise Unsupported("a helper of the test database (%s)" % n)
    defaults = encode(tuple(fn.__defaults__ or ()), [])
    kwdefaults = encode(dict(fn.__kwdefaults__ or {}), [])
    return ("F", marshal.dumps(code), fn.__qualname__, defaults, kwdefaults)


def encode(x, leaves):
    if isinstance(x, torch.Tensor):
        if x.layout != torch.strided:
            raise Unsupported("a %s tensor" % x.layout)
        if x.is_complex() or x.dtype in (torch.float16, torch.bfloat16):
            raise Unsupported("a %s tensor" % x.dtype)
        arr = x.detach().cpu().numpy().copy()
        idx = -1
        if x.requires_grad:
            idx = len(leaves)
            leaves.append(x)
        return ("T", arr, str(x.dtype).replace("torch.", ""), x.requires_grad, idx)
    if isinstance(x, torch.dtype):
        return ("D", str(x).replace("torch.", ""))
    if isinstance(x, torch.Size):
        return tuple(x)
    if isinstance(x, torch.memory_format):
        return ("M", str(x).replace("torch.", ""))
    if isinstance(x, torch.device):
        return ("V", str(x))
    if isinstance(x, torch.layout):
        return ("L", str(x).replace("torch.", ""))
    if isinstance(x, (bool, int, float, str, type(None), slice, type(Ellipsis))):
        return x
    if isinstance(x, complex):
        raise Unsupported("a complex number")
    if isinstance(x, list):
        return [encode(v, leaves) for v in x]
    if isinstance(x, tuple):
        return tuple(encode(v, leaves) for v in x)
    if isinstance(x, dict):
        return {k: encode(v, leaves) for k, v in x.items()}
    if callable(x):
        return encode_fn(x)
    raise Unsupported("a %s" % type(x).__name__)


# Entries whose complex outputs are recorded: the ones nndb's complex
# support covers (docs/language-tensors.md). Other complex outputs
# (linalg.eig, complex32) stay unrecorded, as before complex dtypes existed.
COMPLEX_ENTRIES = ("fft.", "view_as_complex", "complex", "polar")


def complex_ok(key):
    return any(key == k or (k.endswith(".") and key.startswith(k)) for k in COMPLEX_ENTRIES)


def encode_out(x, key=""):
    """Outputs: tensors keep dtype and shape; return_types become tuples."""
    if isinstance(x, torch.Tensor):
        if x.is_complex():
            if not complex_ok(key) or x.dtype not in (torch.complex64, torch.complex128):
                raise Unsupported("a %s output" % x.dtype)
            return ("C", x.detach().resolve_conj().numpy().copy(), str(x.dtype).replace("torch.", ""))
        if x.dtype in (torch.float16, torch.bfloat16):
            raise Unsupported("a %s output" % x.dtype)
        return ("T", x.detach().numpy().copy(), str(x.dtype).replace("torch.", ""), False, -1)
    if isinstance(x, (list, tuple)):
        return [encode_out(v, key) for v in x]
    if isinstance(x, torch.Size):
        return tuple(x)
    if isinstance(x, torch.dtype):
        return ("D", str(x).replace("torch.", ""))
    if isinstance(x, (bool, int, float, type(None))):
        return x
    raise Unsupported("an output of type %s" % type(x).__name__)


def variants(op):
    """(kind, how) for each way to call the op; how is a dotted path, a method
    name or a marshalled function."""
    out = []
    f = op.op
    found = None
    for path in (op.name, op.aten_name or "", "nn.functional." + op.name):
        if not path:
            continue
        obj = torch
        try:
            for part in path.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            continue
        if obj is f:
            found = ("path", "torch." + path)
            break
    if found is None:
        try:
            found = ("fn",) + encode_fn(f)[1:]
        except Unsupported as e:
            found = ("skip", str(e))
    out.append(("function", found))
    for kind in ("method", "inplace", "operator"):
        v = getattr(op, kind + "_variant")
        if v is None:
            continue
        name = getattr(v, "__name__", None)
        if name and name != "<lambda>":
            out.append((kind, ("name", name)))
            continue
        try:
            out.append((kind, ("fn",) + encode_fn(v)[1:]))
        except Unsupported as e:
            out.append((kind, ("skip", str(e))))
    return out


def clone_args(s):
    """Fresh leaves each call so in-place ops and grads do not interfere."""

    def c(x):
        if isinstance(x, torch.Tensor):
            y = x.detach().clone()
            y.requires_grad_(x.requires_grad)
            return y
        if isinstance(x, list):
            return [c(v) for v in x]
        if isinstance(x, tuple):
            return tuple(c(v) for v in x)
        if isinstance(x, dict):
            return {k: c(v) for k, v in x.items()}
        return x

    return c(s.input), c(tuple(s.args)), c(dict(s.kwargs))


def equal_out(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.is_complex() and b.is_complex():  # nan_to_num has no complex kernel
            a, b = torch.view_as_real(a.resolve_conj()), torch.view_as_real(b.resolve_conj())
        return a.shape == b.shape and torch.equal(torch.nan_to_num(a), torch.nan_to_num(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(equal_out(x, y) for x, y in zip(a, b))
    return a == b or (a != a and b != b)


def record_sample(op, s, dtype, fn, seed):
    """Everything check.py needs for one sample, or a reason to skip it."""
    leaves = []
    rec = {"input": encode(s.input, leaves), "args": encode(tuple(s.args), leaves),
           "kwargs": encode(dict(s.kwargs), leaves),
           "broadcasts_input": bool(s.broadcasts_input), "name": s.name}
    inp, args, kwargs = clone_args(s)
    torch.manual_seed(seed)
    out = fn(inp, *args, **kwargs)
    inp2, args2, kwargs2 = clone_args(s)
    torch.manual_seed(seed + 1)
    again = fn(inp2, *args2, **kwargs2)
    rec["output"] = encode_out(out, entry_key(op))
    if not equal_out(out, again):
        raise Unsupported("random: two runs give different outputs")
    if "empty" in op.name and isinstance(out, torch.Tensor):
        # Uninitialised memory: only the shape and dtype are PyTorch's answer.
        rec["output"] = ("S", tuple(out.shape), str(out.dtype).replace("torch.", ""))
    # Gradients of a weighted sum of the floating outputs.
    grad_leaves = flat_tensors((inp, args, kwargs), [])
    grad_leaves = [t for t in grad_leaves if t.requires_grad]
    if not grad_leaves or not op.supports_autograd:
        return rec
    try:
        processed = s.output_process_fn_grad(out)
        rec["process"] = encode_fn(s.output_process_fn_grad)
    except Unsupported as e:
        rec["grad_skip"] = "output_process_fn_grad is " + str(e)
        return rec
    outs = grad_outputs(processed)
    if not outs:
        return rec
    if entry_key(op) in WRONG_GRADS and dtype in FLOATS:
        rec["grad_skip"] = WRONG_GRADS[entry_key(op)]
        return rec
    rng = np.random.RandomState(seed)
    weights = [rng.uniform(0.5, 1.5, size=tuple(o.shape)).astype(np.float64) for o in outs]
    loss = sum((o * torch.from_numpy(w).to(o.dtype)).sum() for o, w in zip(outs, weights))
    grads = torch.autograd.grad(loss, grad_leaves, allow_unused=True)
    rec["weights"] = weights
    rec["grads"] = [None if g is None else g.detach().numpy().copy() for g in grads]
    return rec


def grad_outputs(processed):
    """The outputs the weighted sum takes: floating ones, and complex ones
    as their real views (the weights have a last dim of 2 for them)."""
    outs = [o for o in flat_tensors(processed, [])
            if o.requires_grad and (o.is_floating_point() or o.is_complex())]
    return [torch.view_as_real(o.resolve_conj()) if o.is_complex() else o for o in outs]


def record_entry(op):
    key = entry_key(op)
    entry = {"key": key, "name": op.name, "variants": variants(op), "dtypes": {}, "skips": []}
    fkind = entry["variants"][0][1]
    if fkind[0] == "skip":
        # Record with the method variant when the function cannot travel.
        if op.method_variant is None:
            entry["skip"] = "its function is " + fkind[1]
            return entry
        fn = lambda x, *a, **k: op.method_variant(x, *a, **k)  # noqa: E731
    else:
        fn = op.op
    supported = op.supported_dtypes("cpu")
    dtypes = [d for d in FLOATS if d in supported]
    if not dtypes:
        dtypes = [d for d in INTEGRALS if d in supported][:1]
    if not dtypes:
        entry["skip"] = "no real dtype (complex or half only)"
        return entry
    seed = 1234
    for dt in dtypes:
        try:
            samples = list(op.sample_inputs("cpu", dt, requires_grad=op.supports_autograd))
        except Exception as e:  # the database itself fails: say so
            entry["skips"].append("%s: sample_inputs raised %s" % (dt, e))
            continue
        recs = []
        for i, s in enumerate(samples):
            seed += 1
            try:
                recs.append(record_sample(op, s, dt, fn, seed))
            except Unsupported as e:
                recs.append({"skip": str(e)})
            except Exception as e:
                recs.append({"skip": "PyTorch raised %s: %s" % (type(e).__name__, str(e).split("\n")[0])})
        entry["dtypes"][str(dt).replace("torch.", "")] = recs
    return entry


def main():
    outdir = sys.argv[1]
    only = set(sys.argv[2:])
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for op in op_db:
        key = entry_key(op)
        if only and key not in only and op.name not in only:
            continue
        entry = record_entry(op)
        with open(os.path.join(outdir, key.replace("/", "_") + ".pkl"), "wb") as f:
            pickle.dump(entry, f, protocol=4)
        n += 1
    print("recorded %d OpInfo entries" % n)


if __name__ == "__main__":
    main()

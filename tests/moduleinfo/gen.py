"""ModuleInfo reference values from PyTorch 1.13 (run under /usr/bin/python3).

    gen.py OUT.pkl

For every module in torch.testing._internal.common_modules.module_db and
every sample its module_inputs_func gives (device 'cpu', float32 and
float64, requires_grad=True, train and eval mode): build the module with the
sample's constructor arguments, record its initialised state_dict, run the
forward pass, then take the gradients of a weighted sum of the floating
outputs with respect to the inputs that require grad and to the parameters,
and record the buffers after the pass. Everything is pickled with tensors as
numpy arrays (check.py reads it under `nndb python`).
"""
import copy
import os
import pickle
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # expecttest stand-in

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.testing._internal.common_modules import module_db  # noqa: E402


def enc(x):
    """Sample arguments as plain Python: tensors become numpy arrays."""
    if isinstance(x, torch.Tensor):
        return {"__tensor__": x.detach().numpy().copy(), "dtype": str(x.dtype),
                "requires_grad": x.requires_grad}
    if isinstance(x, torch.dtype):
        return {"__dtype__": str(x)}
    if isinstance(x, (tuple, list)):
        return type(x)(enc(v) for v in x)
    if isinstance(x, dict):
        return {k: enc(v) for k, v in x.items()}
    if callable(x):
        name = x.__name__
        for prefix, mod in (("torch.nn.functional", F), ("torch", torch)):
            if getattr(mod, name, None) is x:
                return {"__callable__": prefix + "." + name}
        raise TypeError("cannot name callable %r" % (x,))
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    raise TypeError("cannot encode %r" % (x,))


def tensors(x):
    """The tensors in a (nested) value, in order."""
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for v in x for t in tensors(v)]
    if isinstance(x, dict):
        return [t for k in x for t in tensors(x[k])]
    return []


def weights(t):
    return torch.arange(t.numel(), dtype=torch.float64).cos().view(t.shape).to(t.dtype)


def arr(t):
    return None if t is None else t.detach().numpy().copy()


def is_lazy(m):
    return any(isinstance(p, torch.nn.parameter.UninitializedParameter) for p in m.parameters())


def run_sample(info, sample, dtype, training):
    ctor, fwd = sample.constructor_input, sample.forward_input
    rec = {"desc": sample.desc, "dtype": str(dtype), "training": training,
           "ctor_args": enc(ctor.args), "ctor_kwargs": enc(ctor.kwargs),
           "fwd_args": enc(fwd.args), "fwd_kwargs": enc(fwd.kwargs)}
    torch.manual_seed(0)
    m = info.module_cls(*ctor.args, **ctor.kwargs)
    m.to(dtype)
    m.train(training)
    if is_lazy(m):
        with torch.no_grad():
            m(*fwd.args, **fwd.kwargs)
    rec["state"] = {k: arr(v) for k, v in m.state_dict().items()}
    m64 = copy.deepcopy(m).double() if dtype == torch.float32 else None
    rec.update(forward_record(m, fwd.args, fwd.kwargs))
    if m64 is not None:
        # the same float32 sample computed in float64: check.py accepts a
        # float32 value that misses PyTorch's float32 one when it is as near
        # to this as PyTorch's is (a different summation order)
        args64, kwargs64 = widen(fwd.args), widen(fwd.kwargs)
        rec["ref64"] = forward_record(m64, args64, kwargs64)
    return rec


def widen(x):
    if isinstance(x, torch.Tensor):
        if x.dtype == torch.float32:
            return x.detach().double().requires_grad_(x.requires_grad)
        return x
    if isinstance(x, (tuple, list)):
        return type(x)(widen(v) for v in x)
    if isinstance(x, dict):
        return {k: widen(v) for k, v in x.items()}
    return x


def forward_record(m, args, kwargs):
    rec = {}
    torch.manual_seed(1)
    out = m(*args, **kwargs)
    outs = tensors(out)
    rec["outputs"] = [arr(o) for o in outs]
    rec["output_dtypes"] = [str(o.dtype) for o in outs]
    inputs = tensors((args, kwargs))
    grad_inputs = [t for t in inputs if t.requires_grad]
    names = [n for n, p in m.named_parameters() if p.requires_grad]
    params = [p for n, p in m.named_parameters() if p.requires_grad]
    diff = [o for o in outs if o.requires_grad]
    rec["input_grads"] = rec["param_grads"] = None
    if diff:
        total = sum((o * weights(o)).sum() for o in diff)
        grads = torch.autograd.grad(total, grad_inputs + params, allow_unused=True)
        rec["input_grads"] = [arr(g) for g in grads[:len(grad_inputs)]]
        rec["param_grads"] = dict(zip(names, (arr(g) for g in grads[len(grad_inputs):])))
    rec["buffers_after"] = {k: arr(v) for k, v in m.named_buffers()}
    return rec


def main():
    out = {}
    for info in module_db:
        dtypes = [d for d in (torch.float32, torch.float64) if d in set(info.dtypes)]
        recs = []
        for training in (True, False):
            for dtype in dtypes:
                samples = info.module_inputs_func(info, device="cpu", dtype=dtype,
                                                  requires_grad=True, training=training)
                for sample in samples:
                    try:
                        recs.append(run_sample(info, sample, dtype, training))
                    except Exception:
                        print("reference failed for %s %s" % (info.name, sample.desc))
                        traceback.print_exc()
                        raise
        out[info.name] = recs
    with open(sys.argv[1], "wb") as f:
        pickle.dump(out, f, protocol=4)
    print("%d modules, %d samples" % (len(out), sum(len(v) for v in out.values())))


if __name__ == "__main__":
    main()

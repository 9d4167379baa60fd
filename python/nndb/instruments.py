"""The training instruments (docs/instruments.md) on nndb's CPython torch.

    gradcheck(f, *inputs)          is backward's gradient right? (float64 central differences)
    stats(model, opt=None)         parameters, gradients and update:data ratios per parameter
    track(model, opt)              the update:data ratios at every step, and the losses
    activations(model, x, ...)     per layer: mean, std, saturation, dead units, histogram
    dependencies(model, x, i=0)    does example i's output depend on other examples?
    profile(fn, *args)             per op and per module: calls, time, FLOPs, bytes, % of peak
    with profile() as p: ...       the same around a block
    memory_report(model, opt, batch)  one step's bytes (parameters, gradients, optimizer
                                   state, activations, peak) and FLOPs against the textbook
    %profile STATEMENT, %stats model[, opt], %memory STATEMENT   the magics

Each answer is a report: print it for the table, read its fields in a
script (r.passed, r.rows[0].max_abs_err), and in Jupyter it shows as an HTML
table. The checks that must see the executor are the engine's (nn_check,
nn_profile) through torch._C (binding/py_instruments.c); the rest is here.
"""

import math
import sys
import time


def _escape(text):
    # html.escape's five replacements, without importing html (and its
    # entity table) into every session's start
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))

__all__ = ["gradcheck", "_test_wrong_grad", "memory_report", "stats", "track", "Tracker", "activations",
           "dependencies", "profile", "keep_updates", "Report", "MAGICS", "register"]


# ---- reports ----

class Row:
    """One row of a report: its fields as attributes."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({inner})"


class Report:
    """A table as text (repr) and HTML (_repr_html_), fields as attributes,
    and a truth value (gradcheck's and dependencies' verdict)."""

    def __init__(self, kind, text, html, truth=True, **fields):
        self.kind = kind
        self.text = text.rstrip("\n")
        self.html = html
        self._truth = truth
        self.__dict__.update(fields)

    def __repr__(self):
        return self.text

    def _repr_html_(self):
        return self.html

    def __bool__(self):
        return bool(self._truth)


def _num(v):
    """%.4g, or "-" where the figure does not exist."""
    if v is None or v != v:
        return "-"
    return "%.4g" % v


def _shape_str(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _pre(text):
    return "<pre>" + _escape(text) + "</pre>"


def _html_table(head, rows):
    cells = "".join(f"<th>{_escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_escape(str(c))}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _caller_names(depth=2):
    """The namespaces a name for the user's objects is looked up in: the
    caller's globals then locals (the session's namespace in a session)."""
    frame = sys._getframe(depth)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    if frame is None:
        return {}
    names = dict(frame.f_globals)
    names.update(frame.f_locals)
    return names


def _name_of(obj, names, default):
    for k, v in names.items():
        if v is obj and not k.startswith("_"):
            return k
    return default


# ---- calling the user's function ----

def _as_output(r):
    """A call's result as one tensor: a tensor, or the float tensors of a
    tuple or list flattened and joined (each output is checked)."""
    import torch
    if isinstance(r, torch.Tensor):
        return r
    if isinstance(r, (tuple, list)):
        parts = [t.reshape(-1) for t in r if isinstance(t, torch.Tensor) and t.is_floating_point()]
        if parts:
            return torch.cat(parts)
        raise TypeError("the function returned no float Tensor")
    raise TypeError(f"the function returned {type(r).__name__}; it must return a Tensor")


# ---- gradcheck ----

def _index(shape, flat):
    idx = []
    for d in reversed(shape):
        idx.append(flat % d if d else 0)
        flat = flat // d if d else 0
    return tuple(reversed(idx))


def _gradcheck_table(passed, projected, rows, eps, atol, rtol):
    failed = sum(1 for r in rows if not r.passed)
    head = f"gradcheck: {'passed' if passed else 'FAILED'}"
    if not passed:
        head += f" ({failed} of {len(rows)} tensors)"
    head += (f", float64, eps={eps:g} atol={atol:g} rtol={rtol:g}"
             + (", output reduced by a fixed random projection" if projected else ""))
    lines = [head, "%-22s %-12s %9s %11s %11s %-12s %12s %12s  %s" % (
        "tensor", "shape", "checked", "max abs err", "max rel err", "worst index", "analytic",
        "numeric", "")]
    table = []
    for r in rows:
        numel = math.prod(r.shape)
        ix = str(r.worst_index) if r.worst >= 0 else "-"
        chk = f"{r.checked}/{numel}"
        verdict = "ok" if r.passed else "FAIL"
        lines.append("%-22s %-12s %9s %11.3e %11.3e %-12s %12s %12s  %s%s" % (
            r.name, _shape_str(r.shape), chk, r.max_abs_err, r.max_rel_err, ix,
            _num(r.analytic), _num(r.numeric), verdict,
            "" if r.reached else " (no gradient reached it)"))
        table.append((r.name, _shape_str(r.shape), chk, "%.3e" % r.max_abs_err,
                      "%.3e" % r.max_rel_err, ix, _num(r.analytic), _num(r.numeric), verdict))
    html = (f"<div><b>{_escape(head)}</b>" + _html_table(
        ["tensor", "shape", "checked", "max abs err", "max rel err", "worst index", "analytic",
         "numeric", ""], table) + "</div>")
    return "\n".join(lines), html


def _gradcheck_core(f, inputs, names, params, eps, atol, rtol, samples, seed):
    """(passed, projected, calls, rows): [inputs]' float tensors are copied
    to float64 (requiring grad where the input does); [params] (name,
    tensor) pairs are checked in place."""
    import torch
    from torch import _C
    args, check, check_names = [], [], []
    for i, x in enumerate(inputs):
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            c = x.detach().to(torch.float64).clone()
            if x.requires_grad:
                c.requires_grad_(True)
                check.append(c)
                check_names.append(names[i])
            args.append(c)
        else:
            args.append(x)
    for name, p in params:
        check.append(p)
        check_names.append(name)
    passed, projected, calls, raw = _C._gradcheck(
        lambda: _as_output(f(*args)), check, check_names, float(eps), float(atol), float(rtol),
        int(samples or 0), int(seed))
    rows = []
    for name, shape, checked, max_abs, max_rel, worst, ana, num, reached, ok in raw:
        rows.append(Row(name=name, shape=shape, checked=checked, max_abs_err=max_abs,
                        max_rel_err=max_rel, worst=worst,
                        worst_index=_index(shape, worst if worst >= 0 else 0), analytic=ana,
                        numeric=num, reached=reached, passed=ok))
    return passed, projected, calls, rows


def gradcheck(f, *inputs, eps=1e-6, atol=1e-5, rtol=1e-3, samples=None, seed=0,
              raise_exception=True):
    """gradcheck(f, *inputs, eps=1e-6, atol=1e-5, rtol=1e-3, samples=None, seed=0)

    Compare the gradient backward gives every input that requires grad (and
    every parameter of a module f) with central differences, in float64. An
    entry passes when |analytic - numeric| <= atol + rtol |numeric|. A
    larger output is reduced by a fixed random projection first. samples=K
    checks K random entries per tensor. Returns a report (truthy when every
    tensor passes). PyTorch's form gradcheck(f, (x, y)) returns True or
    raises RuntimeError("Jacobian mismatch ...") with the table."""
    import torch
    if samples is not None and samples < 1:
        raise ValueError("gradcheck: samples must be >= 1")
    torch_form = len(inputs) == 1 and isinstance(inputs[0], (tuple, list))
    if torch_form:
        inputs = tuple(inputs[0])
    names_in = _caller_names()
    names = [_name_of(x, names_in, f"input {i}") for i, x in enumerate(inputs)]
    params, module, dtype = [], None, None
    if isinstance(f, torch.nn.Module):
        module = f
        root = _name_of(f, names_in, "model")
        dtype = next((p.dtype for p in f.parameters()), torch.float32)
        f.double()
        params = [(f"{root}.{n}", p) for n, p in f.named_parameters() if p.requires_grad]
    try:
        passed, projected, calls, rows = _gradcheck_core(f, inputs, names, params, eps, atol,
                                                         rtol, samples, seed)
    finally:
        if module is not None:
            module.to(dtype)
    text, html = _gradcheck_table(passed, projected, rows, eps, atol, rtol)
    if torch_form:
        if passed or not raise_exception:
            return passed
        raise RuntimeError("Jacobian mismatch: " + text)
    return Report("gradcheck", text, html, passed, passed=passed, rows=rows, calls=calls)


def _test_wrong_grad(x):
    """x * x whose backward is wrong by 1 at flat element 2: a test-only op
    (the engine's) for showing and testing gradcheck's failure report."""
    from torch import _C
    return _C._test_wrong_grad(x)


# ---- stats: parameters, gradients, updates ----

def _summary(t):
    from torch import _C
    n, nonfinite, mean, std, lo, hi = _C._summarize(t.detach())
    return mean, std


def _std_ratio(a, b):
    if a is None or b is None:
        return float("nan")
    sa, sb = _summary(a)[1], _summary(b)[1]
    return sa / sb if sb > 0 else float("nan")


def keep_updates(opt):
    """Make [opt] keep its last update (parameter after minus before) per
    parameter, from its next step on; True when it was not keeping them.
    Steps cost nothing extra until someone asks."""
    if getattr(opt, "_nndb_updates", None) is not None:
        return False
    opt._nndb_updates = {}
    opt._nndb_observers = []
    step = opt.step

    def step_keeping_updates(*args, **kwargs):
        params = [p for g in opt.param_groups for p in g["params"]]
        before = [p.detach().clone() for p in params]
        out = step(*args, **kwargs)
        opt._nndb_updates = {id(p): p.detach() - b for p, b in zip(params, before)}
        for observer in opt._nndb_observers:
            observer(opt)
        return out

    opt.step = step_keeping_updates
    return True


def _session_optimizer(model, names):
    """An optimizer among the user's variables that updates [model]."""
    import torch
    first = next(iter(model.parameters()), None)
    if first is None:
        return None
    for v in names.values():
        if isinstance(v, torch.optim.Optimizer) and any(
                p is first for g in v.param_groups for p in g["params"]):
            return v
    return None


def stats(model, opt=None, *, _names=None):
    """stats(model, opt=None): per parameter, the data's mean and std, the
    gradient's, grad:data (std(grad) / std(data)) and log10 of the last
    update's std over the data's (about -3 is healthy). Without opt, the
    optimizer among your variables that updates the model."""
    import torch
    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"stats() needs a Module, not {type(model).__name__}")
    if opt is not None and not isinstance(opt, torch.optim.Optimizer):
        raise TypeError(f"stats(model, opt): opt must be an optimizer, not {type(opt).__name__}")
    names = _names if _names is not None else _caller_names()
    if opt is None:
        opt = _session_optimizer(model, names)
    armed_now = keep_updates(opt) if opt is not None else False
    root = _name_of(model, names, "model")
    head = ("parameter", "shape", "data mean", "data std", "grad mean", "grad std", "grad:data",
            "log10 upd:data")
    lines = ["%-26s %-12s %10s %10s %10s %10s %10s %12s" % head]
    rows, table = [], []
    updates = getattr(opt, "_nndb_updates", None) or {}
    for name, p in model.named_parameters():
        g = p.grad
        u = updates.get(id(p))
        dm, ds = _summary(p)
        gm, gs = _summary(g) if g is not None else (float("nan"), float("nan"))
        gd, ud = _std_ratio(g, p), _std_ratio(u, p)
        lud = math.log10(ud) if ud > 0 else float("nan")
        full = f"{root}.{name}"
        cells = (full, _shape_str(p.shape), _num(dm), _num(ds), _num(gm), _num(gs), _num(gd),
                 _num(lud))
        lines.append("%-26s %-12s %10s %10s %10s %10s %10s %12s" % cells)
        table.append(cells)
        rows.append(Row(name=full, shape=tuple(p.shape), data_mean=dm, data_std=ds,
                        grad_mean=gm if g is not None else None,
                        grad_std=gs if g is not None else None,
                        grad_data=gd if g is not None else None,
                        update_data=ud if u is not None else None))
    note = ""
    if armed_now:
        note = ("update:data appears after the optimizer's next step (it keeps its updates from "
                "now on)")
    elif opt is None:
        note = ("no optimizer updates this model yet: the update:data ratios appear once one "
                "does (or pass it: stats(model, opt))")
    if note:
        lines.append(note)
    html = _html_table(head, table) + (f"<p><small>{_escape(note)}</small></p>"
                                       if note else "")
    return Report("stats", "\n".join(lines), html, True, rows=rows)


# ---- track: the ratios over training ----

class Tracker:
    """What track(model, opt) returns: at every opt.step(), log10 of each
    parameter's update:data ratio. Fields: ratios (name -> list, one value
    per step, nan where a parameter was not updated), losses (what loss()
    recorded), steps (the count). plot() shows the weight matrices' ratios
    with the -3 guide (all=True: every parameter)."""

    def __init__(self, model, opt, root):
        self.model = model
        self.opt = opt
        self.names = [(f"{root}.{n}", p) for n, p in model.named_parameters()]
        self.ratios = {name: [] for name, _ in self.names}
        self.losses = []
        self.steps = 0

    def _after_step(self, opt):
        updates = getattr(opt, "_nndb_updates", None) or {}
        for name, p in self.names:
            u = updates.get(id(p))
            r = _std_ratio(u, p) if u is not None else float("nan")
            self.ratios[name].append(math.log10(r) if r > 0 else float("nan"))
        self.steps += 1

    def loss(self, value):
        """Record a step's loss (a number or a one-element tensor)."""
        self.losses.append(float(value.item() if hasattr(value, "item") else value))

    def plot(self, all=False):
        """The ratios over the steps: the weight matrices (every parameter
        with all=True), with the -3 guide line (updates a thousandth of the
        values)."""
        from nndb.plot import plot
        shown = [name for name, p in self.names if all or p.dim() >= 2]
        if not self.steps or not shown:
            raise ValueError("track: nothing to plot yet: the optimizer has not stepped"
                             if not self.steps else "track: the model has no weight matrix "
                             "(plot(all=True) shows every parameter)")
        series = [self.ratios[name] for name in shown] + [[-3.0] * self.steps]
        plot(series, labels=shown + ["-3 guide"], title="log10 update:data", xlabel="step")

    def __repr__(self):
        lines = [f"track: {self.steps} step{'' if self.steps == 1 else 's'}, "
                 f"{len(self.losses)} loss{'' if len(self.losses) == 1 else 'es'}; "
                 "last log10 update:data:"]
        for name, _ in self.names:
            values = self.ratios[name]
            lines.append("  %-26s %s" % (name, _num(values[-1]) if values else "-"))
        return "\n".join(lines)


def track(model, opt):
    """track(model, opt): record, at every opt.step(), log10 of each
    parameter's update:data ratio (std(update) / std(data)); t.loss(v)
    records a loss, t.plot() shows the ratios over the steps with the -3
    guide, t.ratios maps each parameter's name to its list, t.losses and
    t.steps are the losses and the count."""
    import torch
    if not isinstance(model, torch.nn.Module) or not isinstance(opt, torch.optim.Optimizer):
        raise TypeError(f"track(model, opt) needs a Module and an optimizer, not "
                        f"{type(model).__name__} and {type(opt).__name__}")
    keep_updates(opt)
    t = Tracker(model, opt, _name_of(model, _caller_names(), "model"))
    opt._nndb_observers.append(t._after_step)
    return t


# ---- activations ----

_SPARK = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"


def _sparkline(values, lo, hi, bins=24):
    count = [0] * bins
    for v in values:
        if not math.isfinite(v):
            continue
        k = int((v - lo) / (hi - lo) * bins) if hi > lo else 0
        count[min(max(k, 0), bins - 1)] += 1
    most = max(count) or 1
    return "".join(" " if not c else _SPARK[min(7, (c * 7 + most - 1) // most)] for c in count)


def _kind_measures(kind, out):
    """(saturated, dead) fractions where they mean something, else None."""
    import torch
    with torch.no_grad():
        o = out.detach().double()
        saturated = dead = None
        if kind == "Tanh" and o.numel():
            saturated = (o.abs() > 0.97).double().mean().item()
        elif kind == "Sigmoid" and o.numel():
            saturated = ((o < 0.03) | (o > 0.97)).double().mean().item()
        if kind in ("ReLU", "GELU", "LeakyReLU") and o.dim() >= 1 and o.numel():
            alive = (o.reshape(-1, o.shape[-1]) > 0).any(0)
            dead = 1.0 - alive.double().mean().item()
        return saturated, dead


def activations(model, x, y=None, loss_fn=None):
    """activations(model, x[, y, loss_fn=...]): run the model on x and show,
    per layer (each module without children, in the order they ran), the
    output's mean and std, the fraction saturated (|tanh| > 0.97, a sigmoid
    outside [0.03, 0.97]) and of dead units (a ReLU/GELU unit never positive
    over the batch), with a histogram. With y and loss_fn the loss is
    backpropagated and each layer also gets its output gradient's mean and
    std; the parameters' gradients are left as they were."""
    import torch
    if not isinstance(model, torch.nn.Module) or not isinstance(x, torch.Tensor):
        raise TypeError(f"activations(model, x) needs a Module and a Tensor, not "
                        f"{type(model).__name__} and {type(x).__name__}")
    with_loss = y is not None
    if with_loss and loss_fn is None:
        raise TypeError("activations(model, x, y) needs loss_fn= too, e.g. "
                        "loss_fn=F.cross_entropy")
    root = _name_of(model, _caller_names(), "model")
    captured = {}
    handles = []
    for name, m in model.named_modules():
        if any(True for _ in m.children()):
            continue
        path = f"{root}.{name}" if name else root

        def hook(mod, inp, out, path=path):
            if isinstance(out, torch.Tensor) and out.is_floating_point():
                if with_loss and out.requires_grad:
                    out.retain_grad()
                captured.pop(path, None)
                captured[path] = (type(mod).__name__, out)
        handles.append(m.register_forward_hook(hook))
    params = list(model.parameters())
    saved = [p.grad for p in params]
    try:
        with torch.set_grad_enabled(with_loss):
            for p in params:
                p.grad = None
            out = model(x)
            if with_loss:
                loss_fn(out, y).backward()
    finally:
        for h in handles:
            h.remove()
        for p, g in zip(params, saved):
            p.grad = g
    head = "%-24s %-10s %10s %10s %9s %7s" % ("layer", "kind", "mean", "std", "saturated",
                                                 "dead")
    if with_loss:
        head += " %10s %10s" % ("grad mean", "grad std")
    lines = [head + "  histogram (min .. max)"]
    rows, table = [], []
    for path, (kind, t) in captured.items():
        mean, std = _summary(t)
        saturated, dead = _kind_measures(kind, t)
        g = t.grad if with_loss else None
        gm, gs = _summary(g) if g is not None else (None, None)
        line = "%-24s %-10s %10s %10s %9s %7s" % (path, kind, _num(mean), _num(std),
                                                   _num(saturated), _num(dead))
        if with_loss:
            line += " %10s %10s" % (_num(gm), _num(gs))
        values = t.detach().double().flatten().tolist()
        finite = [v for v in values if math.isfinite(v)]
        lo, hi = (min(finite), max(finite)) if finite else (float("nan"), float("nan"))
        spark = _sparkline(values, lo, hi)
        lines.append(f"{line}  {spark} ({lo:.3g} .. {hi:.3g})")
        table.append((path, kind, _num(mean), _num(std), _num(saturated), _num(dead))
                     + ((_num(gm), _num(gs)) if with_loss else ()) + (spark,))
        rows.append(Row(layer=path, kind=kind, mean=mean, std=std, saturated=saturated,
                        dead=dead, grad_mean=gm, grad_std=gs))
    html_head = ["layer", "kind", "mean", "std", "saturated", "dead"] + (
        ["grad mean", "grad std"] if with_loss else []) + ["histogram"]
    html = _html_table(html_head, table)
    maps = _feature_maps(captured)
    if maps:
        lines.append(f"feature maps of example 0 ({len(maps)} layers with [N, C, H, W] outputs): "
                     f"shown as pictures in Jupyter; report.feature_maps['{next(iter(maps))}'] ...")
        html += "".join(
            f"<div><b>{_escape(path)}</b> {_escape(kind)} {_escape(shape)}, example 0</div>"
            f'<img src="data:image/png;base64,{grid._repr_mimebundle_()["image/png"]}">'
            for path, (kind, shape, grid) in maps.items())
    return Report("activations", "\n".join(lines), html, True, rows=rows,
                  feature_maps={path: grid for path, (_, _, grid) in maps.items()})


_MAX_MAP_LAYERS = 8
_MAX_MAPS = 16


def _feature_maps(captured):
    """{path: (kind, shape text, ImageGrid)} for the first layers whose output
    is [N, C, H, W] (convolutions, their norms, activations and pools):
    example 0's first 16 channels, each stretched to its own grey range."""
    from nndb import images
    out = {}
    for path, (kind, t) in captured.items():
        if t.dim() != 4 or len(out) >= _MAX_MAP_LAYERS:
            continue
        c = t.shape[1]
        grid = images.show_feature_maps(t, 0, _MAX_MAPS, show=False)
        shown = f" (first {_MAX_MAPS})" if c > _MAX_MAPS else ""
        out[path] = (kind, f"{c}x{t.shape[2]}x{t.shape[3]}{shown}", grid)
    return out


# ---- dependencies ----

def dependencies(model, x, i=0):
    """dependencies(model, x, i=0): Karpathy's "use backprop to chart
    dependencies". The sum of example i's outputs is differentiated with
    respect to the batch; the report names every other row whose gradient is
    not all zero (none for a clean model). int64 token ids are followed
    through every embedding lookup. Truthy when clean."""
    import torch
    from torch import _C
    if not isinstance(x, torch.Tensor):
        raise TypeError("dependencies(): x must be a Tensor batch")
    leaking, batch, norms = _C._dependencies(lambda xb: _as_output(model(xb)), x, int(i))
    if i < 0:
        i += batch
    if not leaking:
        lines = [f"dependencies: example {i}'s outputs depend on no other example of the batch "
                 f"of {batch} (clean)"]
    else:
        shown = ", ".join(str(r) for r in leaking[:32]) + (", ..." if len(leaking) > 32 else "")
        lines = [f"dependencies: LEAK: example {i}'s outputs depend on {len(leaking)} other "
                 f"example{'' if len(leaking) == 1 else 's'} of the batch of {batch}: rows "
                 f"{shown}",
                 "A view, transpose or reshape across the batch dim, or a statistic over the "
                 "batch (batch norm in training mode), mixes examples."]
    lines.append("row  |d out_i / d x_row| summed")
    for k in range(min(batch, 64)):
        lines.append("%4d %12.4g%s" % (k, norms[k], "  <- example" if k == i else ""))
    text = "\n".join(lines)
    return Report("dependencies", text, _pre(text), not leaking, rows=list(leaking),
                  leaks=bool(leaking), example=i, row_norm=list(norms))


# ---- profile ----

class _Labels:
    """While profiling: the module path each recorded node carries, set
    from global forward hooks (the innermost module that is running)."""

    def __init__(self, names):
        import torch
        self.paths = {}
        for k, v in names.items():
            if isinstance(v, torch.nn.Module) and not k.startswith("_"):
                for sub, m in v.named_modules():
                    self.paths.setdefault(id(m), f"{k}.{sub}" if sub else k)
        self.stack = []
        self.handles = []

    def __enter__(self):
        from torch.nn.modules import module as _module
        self.handles = [_module.register_module_forward_pre_hook(self._pre),
                        _module.register_module_forward_hook(self._post)]
        return self

    def _pre(self, mod, inp):
        from torch import _C
        path = self.paths.get(id(mod))
        if path is None:  # a module the namespace does not reach: its parent's path
            path = self.stack[-1] if self.stack else type(mod).__name__
        self.stack.append(path)
        _C._set_label(path)

    def _post(self, mod, inp, out):
        from torch import _C
        if self.stack:
            self.stack.pop()
        _C._set_label(self.stack[-1] if self.stack else None)

    def __exit__(self, *exc):
        from torch import _C
        for h in self.handles:
            h.remove()
        _C._set_label(None)
        return False


def _profile_rows(raw):
    return [Row(key=k, phase=ph, calls=c, seconds=s, flops=f, bytes_read=br, bytes_written=bw)
            for k, ph, c, s, f, br, bw in raw]


def _profile_table(rows, what, total, peak):
    head = "%-32s %-4s %7s %10s %10s %6s %10s %9s %9s %8s %6s" % (
        what, "pass", "calls", "total ms", "mean us", "%time", "MFLOP", "MB read", "MB writ",
        "GFLOP/s", "%peak")
    lines, table = [head], []
    for r in rows:
        rate = r.flops / r.seconds * 1e-9 if r.seconds > 0 else 0.0
        key = r.key or "(outside modules)"
        pas = "fwd" if r.phase == "forward" else "bwd"
        pk = "%.1f" % (100 * rate / peak) if peak > 0 and r.flops > 0 else "-"
        cells = (key, pas, r.calls, "%.3f" % (r.seconds * 1e3),
                 "%.2f" % (r.seconds / r.calls * 1e6 if r.calls else 0),
                 "%.1f" % (100 * r.seconds / total if total > 0 else 0),
                 "%.3f" % (r.flops * 1e-6), "%.3f" % (r.bytes_read * 1e-6),
                 "%.3f" % (r.bytes_written * 1e-6), "%.2f" % rate, pk)
        lines.append("%-32s %-4s %7d %10s %10s %6s %10s %9s %9s %8s %6s" % cells)
        table.append(cells)
    html = _html_table([what, "pass", "calls", "total ms", "mean \u00b5s", "% time", "MFLOP",
                        "MB read", "MB written", "GFLOP/s", "% peak"], table)
    return lines, html


class Profile(Report):
    """profile's answer: ops and modules (rows with key, phase, calls,
    seconds, flops, bytes_read, bytes_written), forward_seconds,
    backward_seconds, peak_gflops, wall_seconds."""

    def __init__(self):
        super().__init__("profile", "profile: not finished", "", True, ops=[], modules=[],
                         forward_seconds=0.0, backward_seconds=0.0, peak_gflops=0.0,
                         wall_seconds=0.0)

    def _fill(self, handle, wall):
        from torch import _C
        self.ops = _profile_rows(_C._profile_rows(handle, False))
        self.modules = _profile_rows(_C._profile_rows(handle, True))
        self.forward_seconds, self.backward_seconds = _C._profile_seconds(handle)
        self.wall_seconds = wall
        total = self.forward_seconds + self.backward_seconds
        head = ("profile: %.3f ms in ops (forward %.3f ms, backward %.3f ms) of %.3f ms wall; "
                "sgemm peak %.1f GFLOP/s" % (total * 1e3, self.forward_seconds * 1e3,
                                              self.backward_seconds * 1e3, wall * 1e3,
                                              self.peak_gflops))
        op_lines, op_html = _profile_table(self.ops, "op", total, self.peak_gflops)
        mod_lines, mod_html = _profile_table(self.modules, "module", total, self.peak_gflops)
        self.text = "\n".join([head] + op_lines + [""] + mod_lines)
        self.html = (f"<div><b>profile</b> <small>{_escape(head[9:])}</small>" + op_html
                     + mod_html + "</div>")


class _Profiling:
    """with profile() as p: ... -- p is filled when the block ends."""

    def __init__(self, names):
        self.names = names
        self.report = Profile()

    def __enter__(self):
        from torch import _C
        try:  # measure the machine first, so its product is not in the profile
            self.report.peak_gflops = _C._sgemm_peak()
        except RuntimeError:
            self.report.peak_gflops = 0.0
        self.labels = _Labels(self.names).__enter__()
        self.handle = _C._profile_start()
        self.t0 = time.perf_counter()
        return self.report

    def __exit__(self, *exc):
        from torch import _C
        wall = time.perf_counter() - self.t0
        _C._profile_stop(self.handle)
        self.labels.__exit__()
        self.report._fill(self.handle, wall)
        return False


def profile(fn=None, *args, **kwargs):
    """profile(fn, *args): call fn(*args) with the per-op profiler on and
    return the report; `with profile() as p:` profiles a block. Two tables,
    longest first: per op and per module path (your variables' names),
    forward and backward apart: calls, total and mean time, share of the time
    in ops, MFLOP, MB read and written, GFLOP/s and % of this machine's
    sgemm peak. The time is the kernels' (the nodes'); the header adds the
    wall time."""
    ctx = _Profiling(_caller_names())
    if fn is None:
        return ctx
    with ctx as report:
        fn(*args, **kwargs)
    return report


# ---- memory_report: where a training step's bytes and FLOPs go (CS336 L2) ----

def _nbytes(t):
    return t.numel() * t.element_size()


def _fmt_bytes(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(n) >= size:
            return "%.2f %s" % (n / size, unit)
    return "%d B" % n


# Optimizer state per parameter element, in elements: the textbook figure.
_STATE_PER_PARAM = {"SGD": 0, "Adam": 2, "AdamW": 2, "Adamax": 2, "NAdam": 2, "RAdam": 2,
                    "RMSprop": 1, "Adagrad": 1, "Adadelta": 2}


def _optimizer_state_bytes(opt):
    total = 0
    for state in opt.state.values():
        for v in state.values():
            if hasattr(v, "numel") and hasattr(v, "element_size") and v.dim() > 0:
                total += _nbytes(v)
    return total


def memory_report(model, optimizer=None, batch=None, loss_fn=None, *, tokens=None):
    """memory_report(model, optimizer, batch, loss_fn=None): run one training
    step (forward, loss, backward, optimizer.step) on [batch] -- an input, or
    (input, target) with [loss_fn] (cross_entropy by default; without a
    target the output's mean is the loss) -- and report where its memory
    goes, measured by the engine's allocator, next to the textbook figures:
    parameters, gradients and optimizer state (AdamW in float32: 16 bytes a
    parameter), the activations kept for backward (per module: what its
    forward left allocated), and the peak during the step; then the step's
    FLOPs (counted by the profiler) against 6 x parameters x [tokens]
    (default: the batch's first dimension, or its element count for integer
    token inputs), its time, and the share of this machine's sgemm peak."""
    import torch
    from torch import _C
    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"memory_report() needs a Module, not {type(model).__name__}")
    if batch is None:
        raise TypeError("memory_report(model, optimizer, batch): give a batch to step on, "
                        "e.g. (x, y)")
    if isinstance(batch, (tuple, list)):
        inputs, target = batch[0], (batch[1] if len(batch) > 1 else None)
    else:
        inputs, target = batch, None
    if loss_fn is None:
        loss_fn = torch.nn.functional.cross_entropy if target is not None else None
    params = [p for p in model.parameters()]
    n_params = sum(p.numel() for p in params)
    param_bytes = sum(_nbytes(p) for p in params)
    elem = params[0].element_size() if params else 4
    if tokens is None:
        tokens = inputs.numel() if not inputs.is_floating_point() else inputs.shape[0]

    # activations per module: what a leaf module's forward leaves allocated
    leaves = [(n or "(model)", m) for n, m in model.named_modules() if not list(m.children())]
    kept = {}
    handles = []
    for name, m in leaves:
        def pre(mod, args, name=name):
            kept[name] = -_C._mem_stats()["in_use"]

        def post(mod, args, out, name=name):
            kept[name] += _C._mem_stats()["in_use"]
        handles.append(m.register_forward_pre_hook(pre))
        handles.append(m.register_forward_hook(post))

    if optimizer is not None:
        optimizer.zero_grad(set_to_none=True)
    else:
        model.zero_grad(set_to_none=True)
    try:  # the machine's peak is measured once, before the step (its matrices are not ours)
        _C._sgemm_peak()
    except RuntimeError:
        pass
    base = _C._mem_stats()["in_use"]
    _C._mem_reset_peak()
    t0 = time.perf_counter()
    try:
        with profile() as prof:
            out = model(inputs)
            loss = loss_fn(out, target) if loss_fn is not None else out.float().mean()
            after_forward = _C._mem_stats()["in_use"]
            loss.backward()
            if optimizer is not None:
                optimizer.step()
    finally:
        for h in handles:
            h.remove()
    seconds = time.perf_counter() - t0
    st = _C._mem_stats()
    peak = st["peak"] - base
    activations = after_forward - base
    grad_bytes = sum(_nbytes(p.grad) for p in params if p.grad is not None)
    state_bytes = _optimizer_state_bytes(optimizer) if optimizer is not None else 0
    kind = type(optimizer).__name__ if optimizer is not None else None
    per = _STATE_PER_PARAM.get(kind)
    if kind == "SGD" and optimizer.defaults.get("momentum", 0):
        per = 1
    flops = sum(r.flops for r in prof.ops)
    textbook_flops = 6 * n_params * tokens
    peak_gflops = prof.peak_gflops
    rate = flops / seconds * 1e-9 if seconds > 0 else 0.0

    rows = [("parameters", param_bytes, n_params * elem, f"{elem} B x {n_params:,} parameters"),
            ("gradients", grad_bytes, n_params * elem, f"{elem} B x {n_params:,}"),
            ("optimizer state", state_bytes, None if per is None else per * n_params * elem,
             f"{kind}: {per} x {elem} B a parameter" if per is not None else (kind or "none")),
            ("activations kept for backward", activations, None,
             "what the forward (and the loss) left allocated"),
            ("peak during the step", peak, None,
             "above what was allocated before it (parameters included there)")]
    lines = [f"memory_report: {type(model).__name__}, {n_params:,} parameters, one step of "
             f"{_shape_str(inputs.shape)}" + (f" with {kind}" if kind else ""),
             f"{'':<31}{'measured':>12}  {'textbook':>12}  how"]
    for what, got, book, how in rows:
        lines.append(f"{what:<31}{_fmt_bytes(got):>12}  "
                     f"{_fmt_bytes(book) if book is not None else '-':>12}  {how}")
    total_state = param_bytes + grad_bytes + state_bytes
    lines.append(f"{'parameters+gradients+state':<31}{_fmt_bytes(total_state):>12}  "
                 f"{'':>12}  {total_state / max(n_params, 1):.1f} B a parameter")
    lines.append("")
    lines.append("activations per module (kept after its forward):")
    mods = sorted(kept.items(), key=lambda kv: -kv[1])
    for name, b in mods:
        lines.append(f"  {name:<28}{_fmt_bytes(b):>12}")
    lines.append("")
    lines.append(f"FLOPs: {flops / 1e6:,.2f} MFLOP counted; 6 x N x tokens = 6 x {n_params:,} x "
                 f"{tokens:,} = {textbook_flops / 1e6:,.2f} MFLOP "
                 f"({flops / textbook_flops if textbook_flops else 0:.2f}x)")
    lines.append(f"time: {seconds * 1e3:.2f} ms, {rate:.2f} GFLOP/s"
                 + (f", {100 * rate / peak_gflops:.1f}% of this machine's sgemm peak "
                    f"({peak_gflops:.1f} GFLOP/s)" if peak_gflops > 0 else ""))
    table = [(w, _fmt_bytes(g), _fmt_bytes(b) if b is not None else "-", h)
             for w, g, b, h in rows]
    html = ("<div><b>memory_report</b> <small>" + _escape(lines[0][15:]) + "</small>"
            + _html_table(["", "measured", "textbook", "how"], table)
            + _html_table(["module", "activations kept"], [(n, _fmt_bytes(b)) for n, b in mods])
            + _pre("\n".join(lines[-2:])) + "</div>")
    return Report("memory", "\n".join(lines), html, True, parameters=n_params,
                  parameter_bytes=param_bytes, gradient_bytes=grad_bytes,
                  optimizer_bytes=state_bytes, activation_bytes=activations, peak_bytes=peak,
                  per_module=dict(kept), flops=flops, textbook_flops=textbook_flops,
                  seconds=seconds, gflops=rate, peak_gflops=peak_gflops, tokens=tokens)


# ---- the magics (registered in nndb.magics' table) ----

def _show(report):
    from nndb import display
    display.display(report)


def _code_of(line):
    """A magic's Python argument without its trailing comment ("" when
    there is nothing else): %stats model  # a note."""
    import io
    import tokenize
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER, tokenize.INDENT,
            tokenize.DEDENT)
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(line).readline)
                  if t.type not in skip]
    except (tokenize.TokenError, SyntaxError):
        return line.strip()
    if not tokens:
        return ""
    end = tokens[-1].end[1] if tokens[-1].end[0] == 1 else len(line)
    return line[:end].strip()


def _profile_magic(session, line, frame):
    """%profile STATEMENT: profile one statement."""
    from nndb.magics import UsageError
    if not _code_of(line):
        raise UsageError("%profile needs a statement: %profile STATEMENT")
    code = compile(line, "<profile>", "exec", getattr(session, "flags", 0), True)
    names = dict(frame.f_globals)
    names.update(frame.f_locals)
    ctx = _Profiling(names)
    with ctx as report:
        exec(code, frame.f_globals, frame.f_locals)
    _show(report)


def _stats_magic(session, line, frame):
    """%stats model[, opt]: stats(model, opt) of the session's variables."""
    import ast
    from nndb.magics import UsageError
    code = _code_of(line)
    if not code:
        raise UsageError("%stats needs a model: %stats model[, opt]")
    names = dict(frame.f_globals)
    names.update(frame.f_locals)
    tree = ast.parse(code, "<stats>", "eval")
    value = eval(compile(tree, "<stats>", "eval"), frame.f_globals, frame.f_locals)
    parts = value if isinstance(tree.body, ast.Tuple) else (value,)
    if len(parts) > 2:
        raise UsageError("%stats model[, opt]")
    _show(stats(*parts, _names=names))


def _memory_magic(session, line, frame):
    """%memory STATEMENT: the engine's memory in use before and after the
    statement, and its peak while it ran."""
    from torch import _C
    from nndb.magics import UsageError
    if not _code_of(line):
        raise UsageError("%memory needs a statement: %memory loss.backward()")
    code = compile(line, "<memory>", "exec", getattr(session, "flags", 0), True)
    before = _C._mem_stats()["in_use"]
    _C._mem_reset_peak()
    t0 = time.perf_counter()
    exec(code, frame.f_globals, frame.f_locals)
    seconds = time.perf_counter() - t0
    st = _C._mem_stats()
    text = (f"memory: {_fmt_bytes(before)} in use before, {_fmt_bytes(st['in_use'])} after "
            f"({'+' if st['in_use'] >= before else '-'}{_fmt_bytes(abs(st['in_use'] - before))}); "
            f"peak {_fmt_bytes(st['peak'])} (+{_fmt_bytes(st['peak'] - before)} while it ran); "
            f"{seconds * 1e3:.2f} ms")
    _show(Report("memory", text, _pre(text), True, before=before, after=st["in_use"],
                 peak=st["peak"], seconds=seconds))


MAGICS = {"profile": _profile_magic, "stats": _stats_magic, "memory": _memory_magic}
DOCS = {"profile": "%profile STATEMENT: per op and per module: calls, time, FLOPs, bytes, % of "
                   "the step and of the machine's peak.",
        "stats": "%stats model[, opt]: per parameter: data, gradient, grad:data and "
                 "update:data ratios.",
        "memory": "%memory STATEMENT: the engine's memory in use before and after it, and its "
                  "peak while it ran (memory_report(model, opt, batch) breaks a step down)."}


def register(magics, docs):
    """Add %profile and %stats to a session's magic table (nndb.magics)."""
    magics.update(MAGICS)
    docs.update(DOCS)

"""The backward pass that records itself: autograd with create_graph=True.

The engine's own backward (nn_backward) computes each node's input
gradients with fast kernels and records nothing. When create_graph is set,
torch.autograd.grad and Tensor.backward come here instead: this pass walks
the same recorded nodes (torch._C._graph_nodes, latest first) and computes
each node's input gradients with ordinary torch ops while grad mode is on,
so the gradients it returns have a grad_fn and can be differentiated again
(Hessians, gradient penalties, meta-learning), to any order.

How a node's gradients are formed, by op (the table _RULES below):
- a formula in torch ops, as PyTorch's derivatives.yaml writes it (mul,
  div, pow, exp, log, tanh, sigmoid, relu, matmul, linear, softmax, ...);
  the formulas use the node's inputs and output with their history, so
  their own gradients flow through the forward graph too;
- ops that are linear in their differentiable inputs (reshape, permute,
  expand, slices, indexing, cat, sum, mean, nll_loss, dtype casts, ...):
  the gradient is the engine's own backward of the node, wrapped as a
  Function whose backward is the op itself applied again (a linear map's
  transpose is differentiated by the map): exact to every order;
- composite ops (cross_entropy, layer_norm, mse_loss, gelu, softplus, var,
  norm, ...): the op's forward is rebuilt from primitive ops over the
  node's inputs and this pass differentiates that rebuilt graph.
An op with none of these raises RuntimeError naming the op: never a
gradient that silently lacks its higher-order part.
"""

import math

import torch
from torch import _C

__all__ = []


class _Rec:
    """One recorded node, as _C._graph_nodes describes it."""
    __slots__ = ("fn", "key", "op", "inputs", "needs", "prods", "out", "saved", "dims", "i",
                 "f", "keepdim", "flags", "custom", "which")

    def __init__(self, r):
        (self.fn, self.key, self.op, self.inputs, self.needs, self.prods, self.out, self.saved,
         params, self.custom) = r
        self.dims, self.i, self.f, self.keepdim, self.flags = params
        self.which = None


def _not_implemented(rec):
    raise RuntimeError(
        f"derivative for {rec.op} is not implemented with create_graph=True: nndb cannot "
        f"differentiate the backward of '{rec.op}' again (the ops it can are listed in "
        "docs/language-tensors.md, 'Higher-order gradients')")


def _fit(d, t):
    """[d] brought to input [t]'s shape and dtype (broadcast summed away)."""
    if tuple(d.shape) != tuple(t.shape):
        d = d.sum_to_size(t.shape)
    if d.dtype != t.dtype:
        d = d.to(t.dtype)
    return d


def _add(a, b):
    return b if a is None else a + b


# ---- the pass ----

def run(root, grad, inputs=None, accumulate=False, retain_graph=True, stop=()):
    """Backpropagate [grad] from [root] recording every op. With [inputs]
    (a sequence of tensors) return their gradients (None where none
    arrived) and change no .grad; with [accumulate], add each leaf's
    gradient to its .grad (out of place, so the sum keeps its history).
    [stop]: tensors past which the graph is not followed."""
    prev = _C._set_grad_enabled(True)
    try:
        return _run(root, grad, inputs, accumulate, retain_graph, stop)
    finally:
        _C._set_grad_enabled(prev)


def _run(root, grad, inputs, accumulate, retain_graph, stop):
    targets = None
    if inputs is not None:
        targets = {}
        for k, t in enumerate(inputs):
            targets.setdefault(_C._grad_key(t), []).append(k)
    leaf_grads = {}  # key -> [leaf tensor, gradient]
    captured = {}
    root_key = _C._grad_key(root)
    if root.grad_fn is None:
        leaf_grads[root_key] = [root, grad]
        recs = []
    else:
        recs = [_Rec(r) for r in _C._graph_nodes(root, tuple(stop))]
    needed = None
    if targets is not None:
        # a node runs only when a target lies below it
        needed = set()
        for rec in reversed(recs):
            for p, nd in zip(rec.prods, rec.needs):
                if nd and (p in targets or p in needed):
                    needed.add(rec.key)
                    break
    grads = {root_key: grad} if root.grad_fn is not None else {}
    for rec in recs:
        g = grads.pop(rec.key, None)
        if g is None:
            continue
        g = _C._grad_hooks_run(rec.fn, None, g)
        if accumulate:  # retain_grad(): a recorded copy, summed over passes
            _C._node_retained(rec.fn, g)
        if targets is not None and rec.key in targets:
            captured[rec.key] = g
        if needed is not None and rec.key not in needed:
            continue
        _C._node_check(rec.fn)
        din = _node_grads(rec, g)
        for t, nd, p, d in zip(rec.inputs, rec.needs, rec.prods, din):
            if not nd or d is None or t is None:
                continue
            d = _fit(d, t)
            if t.grad_fn is not None:
                grads[p] = _add(grads.get(p), d)
            else:
                slot = leaf_grads.get(p)
                if slot is None:
                    leaf_grads[p] = [t, d]
                else:
                    slot[1] = slot[1] + d
        if not retain_graph:
            _C._node_free(rec.fn)
    if targets is not None:
        for key, (t, g) in leaf_grads.items():
            if key in targets:
                captured[key] = g
        result = [None] * len(inputs)
        for key, ks in targets.items():
            for k in ks:
                result[k] = captured.get(key)
        return result
    if accumulate:
        for key, (t, g) in leaf_grads.items():
            g = _C._grad_hooks_run(None, t, g)
            if t.grad is None:  # AccumulateGrad keeps a copy (PyTorch: CopyBackwards)
                t.grad = g.clone()
            else:
                t.grad = t.grad + g
    return None


def grad(outputs, grads, inputs, retain_graph):
    """torch.autograd.grad(create_graph=True) after its argument checks."""
    from torch.autograd import _root
    root, g = _root(outputs, grads)
    if g is None:
        g = torch.ones_like(root)
    return run(root, g.to(root.dtype), inputs=inputs, retain_graph=retain_graph)


def tensor_backward(t, gradient, retain_graph):
    """Tensor.backward(gradient, retain_graph, create_graph=True)."""
    if not t.requires_grad:
        raise RuntimeError("element 0 of tensors does not require grad and does not have a "
                           "grad_fn")
    if gradient is None:
        if t.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        gradient = torch.ones_like(t)
    elif tuple(gradient.shape) != tuple(t.shape):
        raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of {gradient.shape} "
                           f"and output[0] has a shape of {t.shape}.")
    import warnings
    warnings.warn("Using backward() with create_graph=True will create a reference cycle "
                  "between the parameter and its gradient which can cause a memory leak. We "
                  "recommend using autograd.grad when creating the graph to avoid this. If you "
                  "have to use this function, make sure to reset the .grad fields of your "
                  "parameters to None after use to break the cycle and avoid the leak.")
    run(t, gradient.to(t.dtype), accumulate=True, retain_graph=retain_graph)


def _node_grads(rec, g):
    if rec.custom is not None:
        if getattr(rec.custom, "_saves_output", False):
            raise RuntimeError(
                f"derivative for {type(rec.custom).__name__} is not implemented with "
                "create_graph=True: its forward saved its own output for backward, and nndb "
                "keeps that tensor without its history; save the inputs and recompute")
        return rec.custom._run_backward(g)
    rule = _RULES.get(rec.op)
    if rule is None:
        _not_implemented(rec)
    return rule(rec, g)


# ---- linear ops: the engine's backward, differentiated by the op itself ----

def _engine_vjp(ctx, rec, g):
    """The node's engine backward of g, as a Function's forward returns it:
    the gradients that exist (their input positions kept in ctx.which and
    rec.which), one tensor or a tuple."""
    ctx.rec = rec
    din = _C._node_vjp(rec.fn, g)
    ctx.which = rec.which = [k for k, d in enumerate(din) if d is not None]
    outs = tuple(din[k] for k in ctx.which)
    return outs[0] if len(outs) == 1 else outs


class _LinearTranspose(torch.autograd.Function):
    """forward(g): the node's engine backward L^T g (one gradient per input
    that needs one); backward(u...): L(u), the op applied again to the
    incoming gradients in place of its differentiable inputs."""

    @staticmethod
    def forward(ctx, rec, g):
        return _engine_vjp(ctx, rec, g)

    @staticmethod
    def backward(ctx, *us):
        rec = ctx.rec
        args = list(rec.inputs)
        for k, t in enumerate(args):
            if rec.needs[k] and t is not None and torch.is_floating_point(t):
                # t may be a husk (shape and dtype only: permute and
                # contiguous do not keep their input's values)
                args[k] = torch.zeros(t.shape, dtype=t.dtype)
        for k, u in zip(ctx.which, us):
            if u is not None:
                # a view's gradient may come strided where the view cannot
                # see it: reshape's derivative copies then, as PyTorch's does
                args[k] = u.contiguous() if rec.op == "reshape" else u
        return None, _C._node_apply(rec.fn, tuple(args))


def _by_input(rec, out):
    """A Function's gradients (see _engine_vjp) back at their input
    positions, None for the inputs without one."""
    outs = out if isinstance(out, tuple) else (out,)
    din = [None] * len(rec.inputs)
    for k, d in zip(rec.which, outs):
        din[k] = d
    return din


def _linear(rec, g):
    return _by_input(rec, _LinearTranspose.apply(rec, g))


def _linear_in_first(rec, g):
    """Ops linear in input 0 whose other inputs are indices, masks or
    targets (no gradient): the generic rule, when only input 0 needs one."""
    if any(rec.needs[1:]):
        _not_implemented(rec)
    return _linear(rec, g)


# ---- bilinear ops (convolution): f(x, w) + b ----

class _BilinearGrad(torch.autograd.Function):
    """forward(g, x, w): the node's engine backward (dx, dw[, db]);
    backward(u): with <u_x, dx> = <g, f(u_x, w)> and <u_w, dw> = <g, f(x, u_w)>,
    d/dg = f(u_x, w, u_b) + f(x, u_w, 0), d/dx = vjp_x f(., u_w)[g] and
    d/dw = vjp_w f(u_x, .)[g], each a pass of its own."""

    @staticmethod
    def forward(ctx, rec, g, x, w):
        ctx.save_for_backward(g, x, w)
        return _engine_vjp(ctx, rec, g)

    @staticmethod
    def backward(ctx, *us):
        rec = ctx.rec
        g, x, w = ctx.saved_tensors
        u = [None] * len(rec.inputs)
        for k, v in zip(ctx.which, us):
            u[k] = v
        return _C._reentrant(lambda: _bilinear_back(rec, g, x, w, u))


def _bilinear_back(rec, g, x, w, u):
    prev = _C._set_grad_enabled(True)
    try:
        has_b = len(rec.inputs) > 2
        zb = (torch.zeros_like(rec.inputs[2]),) if has_b else ()

        def f(a, b, bias=None):
            extra = (bias if bias is not None else zb[0],) if has_b else ()
            return _C._node_apply(rec.fn, (a, b) + extra)

        ux, uw = u[0], u[1]
        ub = u[2] if has_b else None
        dg = None
        if ux is not None or ub is not None:
            dg = f(ux if ux is not None else torch.zeros_like(x), w, ub)
        if uw is not None:
            dg = _add(dg, f(x, uw))
        dx = dw = None
        if uw is not None and x.requires_grad:
            xl = x.detach().requires_grad_(True)
            dx = run(f(xl, uw), g, inputs=[xl], stop=[xl])[0]
        if ux is not None and w.requires_grad:
            wl = w.detach().requires_grad_(True)
            dw = run(f(ux, wl), g, inputs=[wl], stop=[wl])[0]
        return None, dg, dx, dw
    finally:
        _C._set_grad_enabled(prev)


def _bilinear(rec, g):
    x, w = rec.inputs[0], rec.inputs[1]
    return _by_input(rec, _BilinearGrad.apply(rec, g, x, w))


# ---- formulas ----

def _x(rec, k=0):
    return rec.inputs[k]


def _need(rec, k):
    return k < len(rec.needs) and rec.needs[k]


def _add_rule(rec, g):
    return [g if _need(rec, 0) else None, g if _need(rec, 1) else None]


def _sub_rule(rec, g):
    return [g if _need(rec, 0) else None, -g if _need(rec, 1) else None]


def _mul_rule(rec, g):
    a, b = rec.inputs
    return [g * b if _need(rec, 0) else None, g * a if _need(rec, 1) else None]


def _div_rule(rec, g):
    a, b = rec.inputs
    return [g / b if _need(rec, 0) else None,
            -g * a / (b * b) if _need(rec, 1) else None]


def _pow_rule(rec, g):
    a, b = rec.inputs
    da = db = None
    if _need(rec, 0) and b.dim() == 0 and not _need(rec, 1):  # pow(Tensor, Scalar)
        e = b.item()
        da = torch.zeros_like(g) if e == 0 else g * (e * a.pow(e - 1))
    elif _need(rec, 0):
        da = torch.where(b == 0, torch.zeros_like(g), g * b * a.pow(b - 1))
    if _need(rec, 1):
        mask = (a == 0) & (b >= 0)
        db = g * torch.where(mask, torch.zeros_like(g), rec.out * torch.log(a))
    return [da, db]


def _unary(f):
    def rule(rec, g):
        return [f(rec, g, rec.inputs[0], rec.out)]
    return rule


def _clamp_rule(rec, g):
    x = rec.inputs[0]
    lo, hi = rec.f[0], rec.f[1]
    keep = torch.ones_like(x, dtype=torch.bool)
    if not math.isnan(lo) and lo != -math.inf:
        keep = keep & (x >= lo)
    if not math.isnan(hi) and hi != math.inf:
        keep = keep & (x <= hi)
    return [torch.where(keep, g, torch.zeros_like(g))]


def _where_rule(rec, g):
    c, a, b = rec.inputs
    z = torch.zeros_like(g)
    return [None, torch.where(c, g, z) if _need(rec, 1) else None,
            torch.where(c, z, g) if _need(rec, 2) else None]


def _maxmin_pair(is_max):
    def rule(rec, g):
        a, b = rec.inputs
        half = g / 2
        if is_max:
            wa, wb = a > b, b > a
        else:
            wa, wb = a < b, b < a
        eq = a == b
        z = torch.zeros_like(g)
        da = torch.where(wa, g, torch.where(eq, half, z)) if _need(rec, 0) else None
        db = torch.where(wb, g, torch.where(eq, half, z)) if _need(rec, 1) else None
        # NaN on either side: both get the whole gradient, as the engine does
        nan = torch.isnan(a) | torch.isnan(b)
        if da is not None:
            da = torch.where(nan, g, da)
        if db is not None:
            db = torch.where(nan, g, db)
        return [da, db]
    return rule


def _matmul_rule(rec, g):
    a, b = rec.inputs
    da = db = None
    if a.dim() == 1 and b.dim() == 1:
        return [g * b if _need(rec, 0) else None, g * a if _need(rec, 1) else None]
    if a.dim() == 1:  # (k) @ (..., k, n) -> (..., n)
        if _need(rec, 0):
            da = (b * g.unsqueeze(-2)).sum(-1)
        if _need(rec, 1):
            db = a.unsqueeze(-1) * g.unsqueeze(-2)
        return [da, db]
    if b.dim() == 1:  # (..., m, k) @ (k) -> (..., m)
        if _need(rec, 0):
            da = g.unsqueeze(-1) * b
        if _need(rec, 1):
            db = (a * g.unsqueeze(-1)).sum_to_size(*a.shape)
            db = db.reshape(-1, a.shape[-1]).sum(0)
        return [da, db]
    mm = torch.mm if a.dim() == 2 and b.dim() == 2 else torch.matmul  # torch: MmBackward0
    if _need(rec, 0):
        da = mm(g, b.transpose(-1, -2))
    if _need(rec, 1):
        db = mm(a.transpose(-1, -2), g)
    return [da, db]


def _linear_rule(rec, g):
    x, w = rec.inputs[0], rec.inputs[1]
    dx = (torch.mm(g, w) if g.dim() == 2 else g.matmul(w)) if _need(rec, 0) else None
    dw = None
    if _need(rec, 1):
        g2 = g.reshape(-1, g.shape[-1]) if g.dim() != 1 else g.reshape(1, -1)
        x2 = x.reshape(-1, x.shape[-1]) if x.dim() != 1 else x.reshape(1, -1)
        dw = g2.t().matmul(x2)
    db = None
    if len(rec.inputs) > 2 and _need(rec, 2):
        db = g.reshape(-1, g.shape[-1]).sum(0) if g.dim() != 1 else g
    return [dx, dw, db]


def _softmax_rule(rec, g):
    y, dim = rec.out, rec.i[0]
    return [y * (g - (g * y).sum(dim, keepdim=True))]


def _log_softmax_rule(rec, g):
    y, dim = rec.out, rec.i[0]
    return [g - torch.exp(y) * g.sum(dim, keepdim=True)]


def _reduced_dims(rec, x):
    if not rec.dims:
        return list(range(x.dim()))
    return [d % x.dim() for d in rec.dims]


def _expand_back(v, x, dims, keepdim):
    """A reduced tensor [v] broadcast back over [x]'s shape."""
    if not keepdim:
        for d in sorted(dims):
            v = v.unsqueeze(d)
    return v.expand(x.shape)


def _maxmin_reduce_rule(rec, g):
    x, y = rec.inputs[0], rec.out
    if rec.flags == 0:  # over everything: ties share the gradient evenly
        mask = (x == y)
        return [mask.to(g.dtype) * (g / mask.sum())]
    if rec.flags == 2:  # amax/amin over rec.dims: PyTorch's (g / count) * (x == y)
        nd = max(x.dim(), 1)
        dims = sorted({d % nd for d in rec.dims}) if rec.dims and x.dim() else []
        if not dims:
            mask = (x == y)
            return [(g / mask.sum()) * mask]
        mask = (x == _expand_back(y, x, dims, rec.keepdim))
        return [(_expand_back(g, x, dims, rec.keepdim) / mask.sum(dims, keepdim=True)) * mask]
    if any(rec.needs[1:]):
        _not_implemented(rec)
    dim = rec.i[0] % max(x.dim(), 1)
    idx = rec.saved[0] if rec.saved[0] is not None and rec.saved[0].dtype == torch.int64 \
        else rec.saved[1]
    if idx is None:
        _not_implemented(rec)
    gg, ii = g, idx
    if not rec.keepdim and x.dim() > 0:
        gg, ii = g.unsqueeze(dim), idx.unsqueeze(dim)
    return [torch.zeros_like(x).scatter(dim, ii, gg)]


def _fused_rule(rec, g):
    """add/sub with alpha, addcmul, addcdiv, lerp (ops_fused.c): the kind
    in i[0], the scalar in f[0]."""
    kind, v = rec.i[0], rec.f[0]
    a, b = rec.inputs[0], rec.inputs[1]
    c = rec.inputs[2] if len(rec.inputs) > 2 else None
    da = db = dc = None
    if kind == 0:  # a + v b
        da, db = g, g * v
    elif kind == 1:  # a + v b c
        da, db, dc = g, g * c * v, g * b * v
    elif kind == 2:  # a + v b / c
        da, db, dc = g, g * (v / c), -g * (v * b / (c * c))
    elif kind == 3:  # a + c (b - a)
        da, db, dc = g * (1 - c), g * c, g * (b - a)
    else:
        _not_implemented(rec)
    return [da if _need(rec, 0) else None, db if _need(rec, 1) else None,
            dc if _need(rec, 2) else None][:len(rec.inputs)]


def _atan2_rule(rec, g):
    a, b = rec.inputs
    d = a * a + b * b
    return [g * b / d if _need(rec, 0) else None, -g * a / d if _need(rec, 1) else None]


def _prod_rule(rec, g):
    """g * prod / x, where no element is 0 (PyTorch's general case)."""
    x, y = rec.inputs[0], rec.out
    if bool((x == 0).any()):
        _not_implemented_name("prod over a tensor holding zeros")
    if rec.dims == () and len(rec.dims) == 0 and y.dim() == 0:
        return [g * y / x]
    dim = rec.i[0] % max(x.dim(), 1)
    gb = _expand_back(g, x, [dim], rec.keepdim)
    yb = _expand_back(y, x, [dim], rec.keepdim)
    return [gb * yb / x]


def _max_pool_rule(rec, g):
    """The gradient goes to each window's maximum: a scatter of g at the
    saved per-plane flat indices, linear in g."""
    x, idx = rec.inputs[0], rec.saved[0]
    if any(rec.needs[1:]):
        _not_implemented(rec)
    if idx is None or idx.dtype != torch.int64:  # a 2x2 pooling's window offsets
        idx = _C._node_max_pool_indices(rec.fn)
    planes = x.shape[0] * x.shape[1]  # x may be a husk (shape only): the node did not keep it
    z = torch.zeros(planes, math.prod(x.shape[2:]), dtype=g.dtype)
    z = z.scatter_add(1, idx.reshape(planes, -1), g.reshape(planes, -1))
    return [z.view(x.shape)]


def _dropout_rule(rec, g):
    mask = rec.saved[0]
    if mask is None:  # identity (eval or p == 0)
        return [g]
    return [g * mask]


def _to_rule(rec, g):
    return [g.to(rec.inputs[0].dtype)]


# ---- composite ops: rebuilt from primitives and differentiated again ----

def _rebuilt(build):
    def rule(rec, g):
        xs = []
        for t, nd in zip(rec.inputs, rec.needs):
            # a view of its own per argument: each gets its own gradient
            xs.append(t.view_as(t) if nd and t is not None else t)
        y = build(rec, *xs)
        want = [x for x, nd in zip(xs, rec.needs) if nd and x is not None]
        got = iter(run(y, g, inputs=want, stop=want))
        return [next(got) if nd and x is not None else None for x, nd in zip(xs, rec.needs)]
    return rule


_REDUCTIONS = {0: "mean", 1: "sum", 2: "none"}


def _reduction_name(code):
    return _REDUCTIONS.get(code, "mean")


def _reduce(v, code):
    name = _reduction_name(code)
    return v.mean() if name == "mean" else v.sum() if name == "sum" else v


def _build_mse(rec, x, t):
    return _reduce((x - t) ** 2, rec.i[0])


def _build_bce(rec, x, t):
    v = -(t * torch.clamp(torch.log(x), min=-100) + (1 - t) * torch.clamp(torch.log(1 - x),
                                                                           min=-100))
    return _reduce(v, rec.i[0])


def _build_bce_logits(rec, x, t):
    v = (1 - t) * x + torch.nn.functional.softplus(-x)
    return _reduce(v, rec.i[0])


def _build_cross_entropy(rec, x, t):
    import torch.nn.functional as F
    if rec.f[0] != 0:
        return _build_ce_smooth(rec, x, t)
    dim = 0 if x.dim() == 1 else 1
    logp = torch.log_softmax(x, dim)
    if t.is_floating_point():  # class probabilities
        v = -(t * logp).sum(dim)
        return _reduce(v, rec.i[1])
    return F.nll_loss(logp, t, ignore_index=rec.i[0], reduction=_reduction_name(rec.i[1]))


def _build_layer_norm(rec, x, *wb):
    n = rec.i[0]
    dims = tuple(range(x.dim() - n, x.dim()))
    mu = x.mean(dims, keepdim=True)
    d = x - mu
    var = (d * d).mean(dims, keepdim=True)
    y = d * torch.rsqrt(var + rec.f[0])
    k = 0
    if rec.flags & 1:
        y = y * wb[k]
        k += 1
    if rec.flags & 2:
        y = y + wb[k]
    return y


def _build_batch_norm(rec, x, *rest):
    """x [N, C, *], then weight and bias when flags has 1 / 2, then the
    mean and invstd the node used (the batch's in training, flags 4)."""
    k = 0
    w = b = None
    if rec.flags & 1:
        w, k = rest[k], k + 1
    if rec.flags & 2:
        b, k = rest[k], k + 1
    mean, invstd = rest[k], rest[k + 1]
    shape = [1, x.shape[1]] + [1] * (x.dim() - 2)
    if rec.flags & 4:  # training: the statistics are functions of x
        dims = [0] + list(range(2, x.dim()))
        mu = x.mean(dims, keepdim=True)
        d = x - mu
        var = (d * d).mean(dims, keepdim=True)
        # eps is not kept in the node: it is what makes var + eps = invstd^-2
        eps = (1.0 / (invstd.detach().double() ** 2)).reshape(shape) - var.detach().double()
        y = d * torch.rsqrt(var + eps.to(var.dtype))
    else:
        y = (x - mean.reshape(shape)) * invstd.reshape(shape)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def _build_ce_smooth(rec, x, t):
    """cross_entropy with label_smoothing ls over class indices:
    (1 - ls) nll + ls mean_c(-log p), ignored rows left out of both."""
    import torch.nn.functional as F
    ls = rec.f[0]
    dim = 0 if x.dim() == 1 else 1
    logp = torch.log_softmax(x, dim)
    if t.is_floating_point():
        n = x.shape[dim]
        tt = t * (1 - ls) + ls / n
        return _reduce(-(tt * logp).sum(dim), rec.i[1])
    red = _reduction_name(rec.i[1])
    nll = F.nll_loss(logp, t, ignore_index=rec.i[0], reduction="none")
    keep = (t != rec.i[0]).to(x.dtype)
    smooth = -logp.sum(dim) * keep / x.shape[dim]
    v = (1 - ls) * nll + ls * smooth
    if red == "none":
        return v
    if red == "sum":
        return v.sum()
    return v.sum() / keep.sum()


def _build_gelu(rec, x):
    if rec.flags:
        c = math.sqrt(2 / math.pi)
        return 0.5 * x * (1 + torch.tanh(c * (x + 0.044715 * x * x * x)))
    return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))


def _build_silu(rec, x):
    return x * torch.sigmoid(x)


def _build_softplus(rec, x):
    beta, thr = rec.f[0], rec.f[1]
    bx = x * beta
    soft = torch.log1p(torch.exp(torch.where(bx > thr, torch.zeros_like(bx), bx))) / beta
    return torch.where(bx > thr, x, soft)


def _build_var(rec, x, std=False):
    dims = _reduced_dims(rec, x)
    n = 1
    for d in dims:
        n *= x.shape[d]
    mu = x.mean(dims, keepdim=True)
    d = x - mu
    v = (d * d).sum(dims, keepdim=rec.keepdim) / (n - rec.i[0])
    return torch.sqrt(v) if std else v


def _build_logsumexp(rec, x):
    dims = _reduced_dims(rec, x)
    m = x.detach().amax(dims, keepdim=True)
    m = torch.where(torch.isinf(m), torch.zeros_like(m), m)
    s = torch.exp(x - m).sum(dims, keepdim=True)
    r = torch.log(s) + m
    if not rec.keepdim:
        for d in sorted(dims, reverse=True):
            r = r.squeeze(d)
    return r


def _norm_rule(rec, g):
    """PyTorch's norm_backward: x |x|^(p-2) g / n^(p-1), 0 where n == 0."""
    x, y, p = rec.inputs[0], rec.out, rec.f[0]
    dims = _reduced_dims(rec, x)
    gb = _expand_back(g, x, dims, rec.keepdim)
    yb = _expand_back(y, x, dims, rec.keepdim)
    zero = torch.zeros_like(gb)
    if p == 2:
        return [torch.where(yb == 0, zero, x * (gb / yb))]
    if p == 1:
        return [torch.sign(x) * gb]
    if p == math.inf or p == -math.inf:
        mask = (x.abs() == yb)
        cnt = _expand_back(mask.sum(dims, keepdim=rec.keepdim).to(x.dtype), x, dims, rec.keepdim)
        return [torch.sign(x) * mask.to(x.dtype) * gb / cnt]
    if p == 0 or p != p:
        return [zero]
    if p < 1:
        _not_implemented_name("norm with p={}".format(p))
    r = x * x.abs().pow(p - 2) * gb / yb.pow(p - 1)
    return [torch.where(yb == 0, zero, r)]


def _not_implemented_name(name):
    raise RuntimeError(f"derivative for {name} is not implemented with create_graph=True")


def _build_sdpa(rec, q, k, v, *mask):
    scale = rec.f[0] if rec.f[0] > 0 else 1.0 / math.sqrt(q.shape[-1])
    s = q.matmul(k.transpose(-1, -2)) * scale
    if rec.flags & 1:
        L, S = q.shape[-2], k.shape[-2]
        causal = torch.ones(L, S, dtype=torch.bool).tril()
        s = s.masked_fill(~causal, float("-inf"))
    if mask:
        m = mask[0]
        if m.dtype == torch.bool:
            s = s.masked_fill(~m, float("-inf"))
        else:
            s = s + m
    return torch.softmax(s, -1).matmul(v)


def _build_mha_self(rec, qkv, *rest):
    # the packed self-attention node (ops_attn.c) as the composed path
    # computes it: flags 1 seq_first, 2 a mask input, 4 dropout multipliers
    heads, flags = rec.i[0], rec.flags
    mask = rest[0] if flags & 2 else None
    drop = rest[1 if flags & 2 else 0] if flags & 4 else None
    x = qkv if flags & 1 else qkv.transpose(0, 1)  # [L, N, 3E]
    L, N, E = x.shape[0], x.shape[1], x.shape[2] // 3
    hd = E // heads

    def split(t):
        return t.contiguous().view(L, N * heads, hd).transpose(0, 1)

    q, k, v = (split(t) for t in x.chunk(3, -1))
    s = torch.bmm(q / math.sqrt(hd), k.transpose(1, 2))
    if mask is not None:
        s = s + mask
    p = torch.softmax(s, -1)
    if drop is not None:
        p = p * drop
    o = torch.bmm(p, v).transpose(0, 1).contiguous().view(L, N, E)
    return o if flags & 1 else o.transpose(0, 1)


def _build_log2(rec, x):
    return torch.log(x) / math.log(2)


def _build_log10(rec, x):
    return torch.log(x) / math.log(10)


def _named(rule, name):
    """[rule] whose gradient shows PyTorch's node name: torch computes it
    with one backward kernel (threshold_backward, tanh_backward, ...), whose
    own backward is that name; here it is a composition."""
    def named(rec, g):
        din = rule(rec, g)
        if din and din[0] is not None and din[0].grad_fn is not None:
            din[0] = _C._nn_named(din[0], name)
        return din
    return named


_RULES = {
    "add": _add_rule,
    "sub": _sub_rule,
    "mul": _mul_rule,
    "div": _div_rule,
    "pow": _pow_rule,
    "neg": _unary(lambda rec, g, x, y: -g),
    "exp": _unary(lambda rec, g, x, y: g * y),
    "log": _unary(lambda rec, g, x, y: g / x),
    "log1p": _unary(lambda rec, g, x, y: g / (x + 1)),
    "sqrt": _unary(lambda rec, g, x, y: g / (2 * y)),
    "rsqrt": _unary(lambda rec, g, x, y: -0.5 * g * y * y * y),
    "abs": _unary(lambda rec, g, x, y: g * torch.sign(x)),
    "sign": _unary(lambda rec, g, x, y: torch.zeros_like(g)),
    "relu": _named(_unary(lambda rec, g, x, y: torch.where(y > 0, g, torch.zeros_like(g))),
                   "ThresholdBackwardBackward0"),
    "leaky_relu": _unary(lambda rec, g, x, y: torch.where(x > 0, g, g * rec.f[0])),
    "tanh": _named(_unary(lambda rec, g, x, y: g * (1 - y * y)), "TanhBackwardBackward0"),
    "sigmoid": _named(_unary(lambda rec, g, x, y: g * (y * (1 - y))), "SigmoidBackwardBackward0"),
    "sin": _unary(lambda rec, g, x, y: g * torch.cos(x)),
    "cos": _unary(lambda rec, g, x, y: -g * torch.sin(x)),
    "tan": _unary(lambda rec, g, x, y: g * (1 + y * y)),
    "sinh": _unary(lambda rec, g, x, y: g * torch.cosh(x)),
    "cosh": _unary(lambda rec, g, x, y: g * torch.sinh(x)),
    "expm1": _unary(lambda rec, g, x, y: g * (y + 1)),
    "erf": _unary(lambda rec, g, x, y: g * (2 / math.sqrt(math.pi)) * torch.exp(-x * x)),
    "reciprocal": _unary(lambda rec, g, x, y: -g * y * y),
    "atan": _unary(lambda rec, g, x, y: g / (1 + x * x)),
    "asin": _unary(lambda rec, g, x, y: g * torch.rsqrt(1 - x * x)),
    "acos": _unary(lambda rec, g, x, y: -g * torch.rsqrt(1 - x * x)),
    "floor": _unary(lambda rec, g, x, y: torch.zeros_like(g)),
    "ceil": _unary(lambda rec, g, x, y: torch.zeros_like(g)),
    "round": _unary(lambda rec, g, x, y: torch.zeros_like(g)),
    "trunc": _unary(lambda rec, g, x, y: torch.zeros_like(g)),
    "clamp": _clamp_rule,
    "where": _where_rule,
    "maximum": _maxmin_pair(True),
    "minimum": _maxmin_pair(False),
    "to": _to_rule,
    "matmul": _matmul_rule,
    "linear": _linear_rule,
    "softmax": _named(_softmax_rule, "SoftmaxBackwardDataBackward0"),
    "log_softmax": _named(_log_softmax_rule, "LogSoftmaxBackwardDataBackward0"),
    "max": _maxmin_reduce_rule,
    "min": _maxmin_reduce_rule,
    "dropout": _dropout_rule,
    "fused": _fused_rule,
    "atan2": _atan2_rule,
    "prod": _prod_rule,
    "max_pool": _max_pool_rule,
    # linear in their differentiable inputs
    "reshape": _linear,
    "permute": _linear,
    "expand": _linear,
    "slice": _linear,
    "select": _linear,
    "contiguous": _linear,
    "cat": _linear,
    "sum": _linear,
    "mean": _linear,
    "tril": _linear,
    "cumsum": _linear,
    "index": _linear_in_first,
    "masked_select": _linear_in_first,
    "gather": _linear_in_first,
    "nll_loss": _linear_in_first,
    "embedding": _linear_in_first,
    "index_put": _linear,
    "as_strided": _linear_in_first,
    "im2col": _linear,
    "col2im": _linear,
    "avg_pool": _linear,
    "convolution": _bilinear,
    # rebuilt from primitives
    "mse_loss": _rebuilt(_build_mse),
    "binary_cross_entropy": _rebuilt(_build_bce),
    "binary_cross_entropy_with_logits": _rebuilt(_build_bce_logits),
    "cross_entropy": _rebuilt(_build_cross_entropy),
    "layer_norm": _rebuilt(_build_layer_norm),
    "batch_norm": _rebuilt(_build_batch_norm),
    "gelu": _rebuilt(_build_gelu),
    "silu": _rebuilt(_build_silu),
    "softplus": _rebuilt(_build_softplus),
    "var": _rebuilt(lambda rec, x: _build_var(rec, x)),
    "std": _rebuilt(lambda rec, x: _build_var(rec, x, True)),
    "logsumexp": _rebuilt(_build_logsumexp),
    "norm": _norm_rule,
    "scaled_dot_product_attention": _rebuilt(_build_sdpa),
    "multi_head_self_attention": _rebuilt(_build_mha_self),
    "log2": _rebuilt(_build_log2),
    "log10": _rebuilt(_build_log10),
}

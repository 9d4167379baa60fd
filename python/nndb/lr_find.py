"""lr_find(): the learning-rate range test (Leslie Smith; fastai's lr_find).

Train from lr=start, growing the rate by a constant factor per step up to
end, stop when the smoothed loss diverges (4x its best), put the model back
as it was (its values and its gradients), and return the curve with a
suggested rate: a tenth of the rate at the lowest smoothed loss. The same
procedure, numbers and words as the old interpreter's lr_find; the curve is
drawn by nndb.plot's engine code.
"""

import html
import math

import torch
from torch import _C

__all__ = ["lr_find", "LRFind"]


class LRFind:
    """lr_find's result: lrs, losses (one per step taken), suggestion, and
    diverged_at (the rate where the loss blew up, or None). It shows as the
    report text in the terminal and the text with the curve in Jupyter."""

    def __init__(self, lrs, losses, suggestion, diverged_at, text, svg):
        self.lrs = lrs
        self.losses = losses
        self.suggestion = suggestion
        self.diverged_at = diverged_at
        self.text = text
        self.html = f"<div><pre>{html.escape(text)}</pre>{svg}</div>"

    def __repr__(self):
        return self.text

    def _repr_html_(self):
        return self.html


def _pair(item):
    if isinstance(item, (tuple, list)) and len(item) == 2:
        return item[0], item[1]
    return item.x, item.y


class _Batches:
    """The next (x, y) of [data]: a fixed (x, y) pair, or the next batch of an
    iterable (restarted when it ends) whose items are (x, y) pairs or batches
    with .x and .y."""

    def __init__(self, data):
        self.data = data
        self.fixed = (isinstance(data, (tuple, list)) and len(data) == 2 and
                      isinstance(data[0], torch.Tensor))
        self.it = None

    def next(self):
        if self.fixed:
            return _pair(self.data)
        for _ in range(2):
            if self.it is None:
                self.it = iter(self.data)
            try:
                return _pair(next(self.it))
            except StopIteration:
                self.it = None
        raise ValueError("lr_find(): the data gave no batch")


def lr_find(model, loss_fn, data, opt_class, start=1e-6, end=1.0, steps=100):
    """The learning-rate range test. data is an (x, y) pair or an iterable of
    batches; opt_class(params, lr=...) makes the optimizer.

        lr_find(model, cross_entropy, (x, y), SGD)
    """
    if not isinstance(model, torch.nn.Module):
        raise TypeError("lr_find(): model must be a Module")
    start, end, steps = float(start), float(end), int(steps)
    if not (0 < start < end) or steps < 2 or steps > 100000:
        raise ValueError(f"lr_find(): needs 0 < start < end and 2 <= steps (got start={start:g}, "
                         f"end={end:g}, steps={steps})")
    params = list(model.parameters())
    with torch.no_grad():
        saved = [p.detach().clone() for p in params]
    grads = [p.grad for p in params]
    for p in params:
        p.grad = None
    lrs, losses = [], []
    avg, best, best_lr, diverged = 0.0, math.inf, start, None
    try:
        opt = opt_class(params, lr=start)
        if not isinstance(opt, torch.optim.Optimizer):
            raise TypeError(f"lr_find(): opt_class(params, lr=...) returned "
                            f"{type(opt).__name__}, not an optimizer")
        batches = _Batches(data)
        for k in range(steps):
            lr = start * (end / start) ** (k / (steps - 1))
            for group in opt.param_groups:
                group["lr"] = lr
            x, y = batches.next()
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(x), y)
            if not isinstance(loss, torch.Tensor):
                raise TypeError("lr_find(): loss_fn must return a Tensor")
            value = loss.item()
            lrs.append(lr)
            losses.append(value)
            # Exponentially smoothed with bias correction; stop when it blows up.
            avg = 0.98 * avg + 0.02 * value
            smooth = avg / (1 - 0.98 ** (k + 1))
            if not math.isfinite(value) or (k > 0 and smooth > 4 * best):
                diverged = lr
                break
            if smooth < best:
                best, best_lr = smooth, lr
            loss.backward()
            opt.step()
    finally:
        # Put the model back whatever happened.
        with torch.no_grad():
            for p, s, g in zip(params, saved, grads):
                p.copy_(s)
                p.grad = g
    suggestion = best_lr / 10
    title = f"loss over an exponential lr sweep, {start:.3g} .. {lrs[-1] if lrs else start:.3g}"
    curve, svg = _C._plot([losses], ["loss"], title,
                          "step (lr grows by a constant factor per step)", "loss", False)
    text = f"lr_find: {len(lrs)} steps from lr {start:.3g}"
    if diverged is not None:
        text += f", stopped when the loss diverged at lr {diverged:.3g}"
    text += (f"\nlowest smoothed loss {best:.4g} at lr {best_lr:.3g}; suggested lr "
             f"{suggestion:.3g} (a tenth of it)\n")
    text = (text + curve).rstrip("\n")
    return LRFind(lrs, losses, suggestion, diverged, text, svg)

"""PyTorch reference runs of the optimizers for tests/unit/test_optim.c.

Each case runs torch.optim on two parameters, a [3, 4] and b [5], for STEPS
steps with fixed gradients. Inputs: a0, b0, the gradients ga [STEPS, 3, 4]
and gb [STEPS, 5] (a row of NaN in gb means "b has no gradient at that
step": the optimizer must skip it), and a learning-rate factor per step
(scheduler test). Output, one flat vector: a and b after every step, then
each state buffer of a and of b in the order nndb names them, then, for Adam
and AdamW, state['step'] of a and b. Clip cases record clip_grad_norm_.
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refgen import RefFile  # noqa: E402

STEPS = 5


def state_names(opt):
    if isinstance(opt, torch.optim.SGD):
        return ["momentum_buffer"] if opt.defaults["momentum"] != 0 else []
    names = ["exp_avg", "exp_avg_sq"]
    if opt.defaults["amsgrad"]:
        names.append("max_exp_avg_sq")
    return names


def make_run(kind, **kw):
    def run(a0, b0, ga, gb, lr_scale):
        a = a0.detach().clone().requires_grad_(True)
        b = b0.detach().clone().requires_grad_(True)
        # foreach=False: the single-tensor code whose operation order nndb follows.
        opt = getattr(torch.optim, kind)([a, b], foreach=False, **kw)
        base_lr = opt.param_groups[0]["lr"]
        traj = []
        for s in range(STEPS):
            opt.param_groups[0]["lr"] = base_lr * float(lr_scale[s])
            a.grad = ga[s].clone()
            b.grad = None if math.isnan(float(gb[s][0])) else gb[s].clone()
            opt.step()
            traj += [a.detach().reshape(-1).clone(), b.detach().reshape(-1).clone()]
        for name in state_names(opt):
            for p in (a, b):
                traj.append(opt.state[p][name].reshape(-1).clone())
        if kind != "SGD":
            for p in (a, b):
                traj.append(opt.state[p]["step"].reshape(1).to(a.dtype))
        return torch.cat(traj)

    return run


def inputs(dtype, skip=(), lr_scale=None):
    a0 = torch.randn(3, 4, dtype=dtype)
    b0 = torch.randn(5, dtype=dtype)
    ga = torch.randn(STEPS, 3, 4, dtype=dtype)
    gb = torch.randn(STEPS, 5, dtype=dtype)
    for s in skip:
        gb[s] = float("nan")
    scale = torch.tensor(lr_scale or [1.0] * STEPS, dtype=torch.float64)
    return a0, b0, ga, gb, scale


CASES = [
    ("sgd_plain", "SGD", dict(lr=0.1)),
    ("sgd_momentum", "SGD", dict(lr=0.1, momentum=0.9)),
    ("sgd_dampening", "SGD", dict(lr=0.1, momentum=0.9, dampening=0.3)),
    ("sgd_nesterov", "SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
    ("sgd_weight_decay", "SGD", dict(lr=0.1, weight_decay=0.05)),
    ("sgd_momentum_wd", "SGD", dict(lr=0.05, momentum=0.8, weight_decay=0.1)),
    ("sgd_nesterov_wd", "SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("adam_default", "Adam", dict()),
    ("adam_lr", "Adam", dict(lr=0.05)),
    ("adam_betas_eps", "Adam", dict(lr=0.02, betas=(0.8, 0.95), eps=1e-3)),
    ("adam_weight_decay", "Adam", dict(lr=0.02, weight_decay=0.1)),
    ("adam_amsgrad", "Adam", dict(lr=0.02, amsgrad=True)),
    ("adam_amsgrad_wd", "Adam", dict(lr=0.02, amsgrad=True, weight_decay=0.05)),
    ("adam_beta1_zero", "Adam", dict(lr=0.02, betas=(0.0, 0.9))),
    ("adamw_default", "AdamW", dict()),
    ("adamw_lr_wd", "AdamW", dict(lr=0.05, weight_decay=0.3)),
    ("adamw_amsgrad", "AdamW", dict(lr=0.02, weight_decay=0.1, amsgrad=True)),
    ("adamw_no_decay", "AdamW", dict(lr=0.02, weight_decay=0.0)),
]


def clip_case(norm_type, max_norm):
    def run(a0, b0, ga, gb):
        a = a0.detach().clone().requires_grad_(True)
        b = b0.detach().clone().requires_grad_(True)
        a.grad = ga.clone()
        b.grad = gb.clone()
        total = torch.nn.utils.clip_grad_norm_([a, b], max_norm, norm_type)
        return torch.cat([total.reshape(1).to(a.dtype), a.grad.reshape(-1), b.grad.reshape(-1)])

    return run


def main():
    torch.manual_seed(0)
    ref = RefFile("optim")
    for name, kind, kw in CASES:
        ref.case(name, make_run(kind, **kw), *inputs(torch.float32), grad=False)
    # float64: the tolerance is 1e-9, so these pin the formulas themselves.
    for name, kind, kw in CASES:
        if name in ("sgd_nesterov_wd", "sgd_dampening", "adam_amsgrad_wd", "adamw_amsgrad"):
            ref.case(name + "_f64", make_run(kind, **kw), *inputs(torch.float64), grad=False)
    # b has no gradient at steps 1 and 2: skipped, its state and step count stand still.
    ref.case("sgd_momentum_skip", make_run("SGD", lr=0.1, momentum=0.9),
             *inputs(torch.float32, skip=(1, 2)), grad=False)
    ref.case("adam_skip", make_run("Adam", lr=0.02), *inputs(torch.float32, skip=(0, 3)),
             grad=False)
    # The learning rate changed between steps, as a scheduler does.
    ref.case("adam_lr_schedule", make_run("Adam", lr=0.05),
             *inputs(torch.float32, lr_scale=[1.0, 1.0, 0.5, 0.25, 0.1]), grad=False)
    ref.case("sgd_lr_schedule", make_run("SGD", lr=0.1, momentum=0.9),
             *inputs(torch.float32, lr_scale=[1.0, 0.5, 0.5, 0.2, 0.0]), grad=False)
    # clip_grad_norm_: clipping (2 and inf norms) and no clipping (max_norm large).
    for name, p, mx in [("clip_l2", 2.0, 1.0), ("clip_inf", math.inf, 0.5),
                        ("clip_l2_noop", 2.0, 100.0), ("clip_l1", 1.0, 2.0)]:
        a0 = torch.randn(3, 4)
        b0 = torch.randn(5)
        ref.case(name, clip_case(p, mx), a0, b0, torch.randn(3, 4), torch.randn(5), grad=False)
    ref.close()


if __name__ == "__main__":
    main()

"""torch.optim.Adam (with amsgrad and maximize), as PyTorch 1.13 computes it."""

from collections import defaultdict as _defaultdict

import torch
from torch import _C
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_not_differentiable, \
    _check_nonnegative, _closure_loss

__all__ = ['Adam', 'adam']


def _check_adam_args(lr, betas, eps, weight_decay):
    _check_nonnegative("learning rate", lr)
    _check_nonnegative("epsilon value", eps)
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
    _check_nonnegative("weight_decay value", weight_decay)


def _adam_like_step(opt, decoupled):
    """One step of Adam or AdamW over every group of [opt]: lazy state
    (step, exp_avg, exp_avg_sq, max_exp_avg_sq), then the kernel over the
    whole group."""
    state_of = opt.state
    # Every step after the first: the gathering below in one C call (it
    # returns False, having changed nothing, for anything unusual).
    fast = type(state_of) is _defaultdict
    for group in opt.param_groups:
        if fast and _C._adam_group(group, state_of, decoupled):
            continue
        params_with_grad = []
        grads = []
        exp_avgs = []
        exp_avg_sqs = []
        max_exp_avg_sqs = []
        state_steps = []
        beta1, beta2 = group['betas']
        amsgrad = group['amsgrad']
        for p in group['params']:
            grad = p.grad
            if grad is None:
                continue
            params_with_grad.append(p)
            grads.append(grad)
            state = state_of[p]
            if len(state) == 0:
                state['step'] = (torch.zeros((1,), dtype=torch.float)
                                 if opt.defaults.get('capturable') or opt.defaults.get('fused')
                                 else torch.tensor(0.))
                # torch.zeros_like(p), placed in memory no tensor has had
                # yet: the activations the next step makes go back where
                # this step's were (_C._state_zeros_like).
                state['exp_avg'] = _C._state_zeros_like(p)
                state['exp_avg_sq'] = _C._state_zeros_like(p)
                if amsgrad:
                    state['max_exp_avg_sq'] = _C._state_zeros_like(p)
            exp_avgs.append(state['exp_avg'])
            exp_avg_sqs.append(state['exp_avg_sq'])
            if amsgrad:
                max_exp_avg_sqs.append(state['max_exp_avg_sq'])
            state_steps.append(state['step'])

        _adam_kernel(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
                     state_steps, amsgrad=amsgrad, beta1=beta1, beta2=beta2,
                     lr=group['lr'], weight_decay=group['weight_decay'], eps=group['eps'],
                     maximize=group['maximize'], decoupled=decoupled)


def _adam_kernel(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *,
                 amsgrad, beta1, beta2, lr, weight_decay, eps, maximize, decoupled):
    # One C call for the group (torch's multi-tensor path has the same
    # effect): it checks that every step is a tensor, as torch's adam()
    # does, then per parameter increments the step and updates.
    _C._adam_multi(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr,
                   beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled)


class Adam(Optimizer):
    """Adam: m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2 (v_max with
    amsgrad), p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps),
    with weight_decay added to the gradient as L2."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=0, amsgrad=False, *, foreach=None,
                 maximize=False, capturable=False,
                 differentiable=False, fused=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps,
                        weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused)
        _check_not_differentiable(defaults)
        super(Adam, self).__init__(params, defaults)
        if fused:
            raise RuntimeError("FusedAdam requires all the params to be CUDA, floating point")

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(amsgrad=False, maximize=False, foreach=None, capturable=False,
                                differentiable=False, fused=False)
        _steps_as_tensors(self.state)

    @_use_grad_for_differentiable
    def step(self, closure=None, *, grad_scaler=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        _adam_like_step(self, decoupled=False)
        return loss


def _steps_as_tensors(state):
    # Older checkpoints saved 'step' as a number.
    values = list(state.values())
    if values and not torch.is_tensor(values[0].get('step')):
        for s in values:
            if 'step' in s:
                s['step'] = torch.tensor(float(s['step']))


def adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
         foreach=None, capturable=False, differentiable=False, fused=False,
         grad_scale=None, found_inf=None, *, amsgrad, beta1, beta2, lr, weight_decay, eps,
         maximize):
    """The functional form of Adam (state_steps are tensors, incremented here)."""
    _adam_kernel(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
                 amsgrad=amsgrad, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay,
                 eps=eps, maximize=maximize, decoupled=False)

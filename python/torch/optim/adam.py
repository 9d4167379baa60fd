"""torch.optim.Adam (with amsgrad and maximize), as PyTorch 1.13 computes it."""

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
    (step, exp_avg, exp_avg_sq, max_exp_avg_sq), then the kernel."""
    for group in opt.param_groups:
        beta1, beta2 = group['betas']
        amsgrad = group['amsgrad']

        def init_state(p, state):
            state['step'] = (torch.zeros((1,), dtype=torch.float)
                             if opt.defaults.get('capturable') or opt.defaults.get('fused')
                             else torch.tensor(0.))
            state['exp_avg'] = torch.zeros_like(p)
            state['exp_avg_sq'] = torch.zeros_like(p)
            if amsgrad:
                state['max_exp_avg_sq'] = torch.zeros_like(p)

        params_with_grad, grads, states = opt._init_group(group, init_state)
        exp_avgs = [state['exp_avg'] for state in states]
        exp_avg_sqs = [state['exp_avg_sq'] for state in states]
        max_exp_avg_sqs = [state['max_exp_avg_sq'] for state in states] if amsgrad else []
        state_steps = [state['step'] for state in states]

        _adam_kernel(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
                     state_steps, amsgrad=group['amsgrad'], beta1=beta1, beta2=beta2,
                     lr=group['lr'], weight_decay=group['weight_decay'], eps=group['eps'],
                     maximize=group['maximize'], decoupled=decoupled)


def _adam_kernel(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *,
                 amsgrad, beta1, beta2, lr, weight_decay, eps, maximize, decoupled):
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of "
                           "singleton tensors")
    for i, param in enumerate(params):
        step_t = state_steps[i]
        step_t += 1
        _C._adam_step(param, grads[i], exp_avgs[i], exp_avg_sqs[i],
                      max_exp_avg_sqs[i] if amsgrad else None, step_t.item(), lr, beta1,
                      beta2, eps, weight_decay, amsgrad, maximize, decoupled)


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

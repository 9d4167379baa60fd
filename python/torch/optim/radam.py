"""torch.optim.RAdam (weight decay), as PyTorch 1.13 computes it, operation
for operation."""

import math

import torch
from .optimizer import Optimizer, _closure_loss
from .adam import _check_adam_args, _steps_as_tensors

__all__ = ['RAdam', 'radam']


class RAdam(Optimizer):
    """RAdam: Adam whose adaptive term is switched on, and rectified, once
    the approximated simple moving average is long enough (rho_t > 5);
    before that the step is plain momentum SGD."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        foreach=foreach)
        super(RAdam, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(foreach=None)
        _steps_as_tensors(self.state)

    @torch.no_grad()
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            def init_state(p, state):
                state['step'] = torch.tensor(0.)
                state['exp_avg'] = torch.zeros_like(p)
                state['exp_avg_sq'] = torch.zeros_like(p)

            params, grads, states = self._init_group(group, init_state)
            beta1, beta2 = group['betas']
            radam(params, grads, [s['exp_avg'] for s in states],
                  [s['exp_avg_sq'] for s in states], [s['step'] for s in states],
                  beta1=beta1, beta2=beta2, lr=group['lr'],
                  weight_decay=group['weight_decay'], eps=group['eps'])
        return loss


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, foreach=None, *, beta1, beta2,
          lr, weight_decay, eps):
    """The functional form of RAdam (state_steps are tensors, incremented
    here)."""
    rho_inf = 2 / (1 - beta2) - 1
    for param, grad, exp_avg, exp_avg_sq, step_t in zip(params, grads, exp_avgs, exp_avg_sqs,
                                                       state_steps):
        step_t += 1
        step = step_t.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        corrected = exp_avg / bias_correction1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.:
            rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                             / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(eps)
            param.sub_(corrected * lr * adaptive_lr * rect)
        else:
            param.sub_(corrected * lr)

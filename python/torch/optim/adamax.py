"""torch.optim.Adamax (weight decay, maximize), as PyTorch 1.13 computes it,
operation for operation."""

import torch
from .optimizer import Optimizer, _closure_loss
from .adam import _check_adam_args, _steps_as_tensors

__all__ = ['Adamax', 'adamax']


class Adamax(Optimizer):
    """Adamax: m = b1 m + (1 - b1) g; u = max(b2 u, |g| + eps);
    p -= lr / (1 - b1^t) * m / u."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize)
        super(Adamax, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(foreach=None, maximize=False)
        _steps_as_tensors(self.state)

    @torch.no_grad()
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            def init_state(p, state):
                state['step'] = torch.tensor(0.)
                state['exp_avg'] = torch.zeros_like(p)
                state['exp_inf'] = torch.zeros_like(p)

            params, grads, states = self._init_group(group, init_state)
            beta1, beta2 = group['betas']
            adamax(params, grads, [s['exp_avg'] for s in states],
                   [s['exp_inf'] for s in states], [s['step'] for s in states],
                   eps=group['eps'], beta1=beta1, beta2=beta2, lr=group['lr'],
                   weight_decay=group['weight_decay'], maximize=group['maximize'])
        return loss


def adamax(params, grads, exp_avgs, exp_infs, state_steps, foreach=None, maximize=False, *,
           eps, beta1, beta2, lr, weight_decay):
    """The functional form of Adamax (state_steps are tensors, incremented
    here)."""
    for param, grad, exp_avg, exp_inf, step_t in zip(params, grads, exp_avgs, exp_infs,
                                                    state_steps):
        if maximize:
            grad = -grad
        step_t += 1
        step = step_t.item()
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        # The infinity norm: the larger of the decayed norm and |g| + eps.
        exp_inf.copy_(torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
        clr = lr / (1 - beta1 ** step)
        param.addcdiv_(exp_avg, exp_inf, value=-clr)

"""torch.optim.ASGD (averaged SGD), as PyTorch 1.13 computes it, operation
for operation; 'eta' and 'mu' are float32 tensors as in torch."""

import math

import torch
from .optimizer import Optimizer, _check_nonnegative, _closure_loss
from .adam import _steps_as_tensors

__all__ = ['ASGD', 'asgd']


class ASGD(Optimizer):
    """Averaged SGD: p = p (1 - lambd eta) - eta g; the average 'ax' follows
    p from step t0 on; eta = lr / (1 + lambd lr t)^alpha."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False):
        _check_nonnegative("learning rate", lr)
        _check_nonnegative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize)
        super(ASGD, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(foreach=None, maximize=False)
        _steps_as_tensors(self.state)
        for s in self.state.values():
            if 'eta' in s and not torch.is_tensor(s['eta']):
                s['eta'] = torch.tensor(s['eta'])
            if 'mu' in s and not torch.is_tensor(s['mu']):
                s['mu'] = torch.tensor(float(s['mu']))

    @torch.no_grad()
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            def init_state(p, state):
                state['step'] = torch.tensor(0.)
                state['eta'] = torch.tensor(group['lr'])
                state['mu'] = torch.tensor(1.)
                state['ax'] = torch.zeros_like(p)

            params, grads, states = self._init_group(group, init_state)
            asgd(params, grads, [s['ax'] for s in states], [s['mu'] for s in states],
                 [s['eta'] for s in states], [s['step'] for s in states],
                 lambd=group['lambd'], lr=group['lr'], t0=group['t0'], alpha=group['alpha'],
                 weight_decay=group['weight_decay'], maximize=group['maximize'])
        return loss


def asgd(params, grads, axs, mus, etas, state_steps, foreach=None, maximize=False, *, lambd,
         lr, t0, alpha, weight_decay):
    """The functional form of ASGD (state_steps, mus and etas are tensors,
    updated here)."""
    for param, grad, ax, mu, eta, step_t in zip(params, grads, axs, mus, etas, state_steps):
        if maximize:
            grad = -grad
        step_t += 1
        step = step_t.item()
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        param.mul_(1 - lambd * eta.item())
        param.add_(grad, alpha=-eta.item())
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul(mu))
        else:
            ax.copy_(param)
        eta.copy_(torch.tensor(lr / math.pow(1 + lambd * lr * step, alpha)))
        mu.copy_(torch.tensor(1 / max(1, step - t0)))

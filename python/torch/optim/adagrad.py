"""torch.optim.Adagrad (lr_decay, weight decay, initial accumulator,
maximize), as PyTorch 1.13 computes it."""

import torch
from torch import _C
from .optimizer import Optimizer, _check_nonnegative, _closure_loss

__all__ = ['Adagrad', 'adagrad']


class Adagrad(Optimizer):
    """Adagrad: sum += g^2; p -= clr * g / (sqrt(sum) + eps) with
    clr = lr / (1 + (t - 1) * lr_decay). Its state exists from the start."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False):
        _check_nonnegative("learning rate", lr)
        _check_nonnegative("lr_decay value", lr_decay)
        _check_nonnegative("weight_decay value", weight_decay)
        _check_nonnegative("initial_accumulator_value value", initial_accumulator_value)
        _check_nonnegative("epsilon value", eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value,
                        foreach=foreach, maximize=maximize)
        super(Adagrad, self).__init__(params, defaults)
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = torch.tensor(0.0)
                state['sum'] = torch.full_like(p, initial_accumulator_value)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(foreach=None, maximize=False)
        values = list(self.state.values())
        if values and not torch.is_tensor(values[0]['step']):
            for s in values:
                s['step'] = torch.tensor(float(s['step']))

    def share_memory(self):
        pass  # one process: nothing to share

    @torch.no_grad()
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params_with_grad, grads, states = self._init_group(group)
            state_sums = [state['sum'] for state in states]
            state_steps = [state['step'] for state in states]
            adagrad(params_with_grad, grads, state_sums, state_steps, lr=group['lr'],
                    weight_decay=group['weight_decay'], lr_decay=group['lr_decay'],
                    eps=group['eps'], maximize=group['maximize'])
        return loss


def adagrad(params, grads, state_sums, state_steps, has_sparse_grad=None, foreach=None, *,
            lr, weight_decay, lr_decay, eps, maximize):
    """The functional form of Adagrad (state_steps are tensors, incremented
    here)."""
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        _C._adagrad_step(param, grad, state_sum, step_t.item(), lr, lr_decay, weight_decay,
                         eps, maximize)

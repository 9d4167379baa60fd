"""torch.optim.Adadelta (weight decay, maximize), as PyTorch 1.13 computes
it: the same tensor operations in the same order as torch's single-tensor
loop, so the floats agree bit for bit."""

import torch
from .optimizer import Optimizer, _check_nonnegative, _closure_loss

__all__ = ['Adadelta', 'adadelta']


class Adadelta(Optimizer):
    """Adadelta: square_avg = rho sa + (1 - rho) g^2; delta = sqrt(acc_delta
    + eps) / sqrt(square_avg + eps) * g; acc_delta = rho ad + (1 - rho)
    delta^2; p -= lr * delta."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 maximize=False):
        _check_nonnegative("learning rate", lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError("Invalid rho value: {}".format(rho))
        _check_nonnegative("epsilon value", eps)
        _check_nonnegative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        foreach=foreach)
        super(Adadelta, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(foreach=None, maximize=False)

    @torch.no_grad()
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            def init_state(p, state):
                state['step'] = 0
                state['square_avg'] = torch.zeros_like(p)
                state['acc_delta'] = torch.zeros_like(p)

            params, grads, states = self._init_group(group, init_state)
            for state in states:
                state['step'] += 1
            adadelta(params, grads, [s['square_avg'] for s in states],
                     [s['acc_delta'] for s in states], lr=group['lr'], rho=group['rho'],
                     eps=group['eps'], weight_decay=group['weight_decay'],
                     maximize=group['maximize'])
        return loss


def adadelta(params, grads, square_avgs, acc_deltas, foreach=None, *, lr, rho, eps,
             weight_decay, maximize):
    """The functional form of Adadelta."""
    for param, grad, square_avg, acc_delta in zip(params, grads, square_avgs, acc_deltas):
        if maximize:
            grad = -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)

"""torch.optim.RMSprop (centered, momentum, weight decay, maximize), as
PyTorch 1.13 computes it."""

import torch
from torch import _C
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_not_differentiable, \
    _check_nonnegative, _closure_loss

__all__ = ['RMSprop', 'rmsprop']


class RMSprop(Optimizer):
    """RMSprop: square_avg = alpha sa + (1 - alpha) g^2; the step divides
    the gradient by sqrt(square_avg) + eps (less grad_avg^2 when centered),
    through a momentum buffer when momentum > 0."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, foreach=None, maximize=False, differentiable=False):
        _check_nonnegative("learning rate", lr)
        _check_nonnegative("epsilon value", eps)
        _check_nonnegative("momentum value", momentum)
        _check_nonnegative("weight_decay value", weight_decay)
        _check_nonnegative("alpha value", alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        _check_not_differentiable(defaults)
        super(RMSprop, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(momentum=0, centered=False, foreach=None, maximize=False,
                                differentiable=False)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            momentum = group['momentum'] > 0
            centered = group['centered']

            def init_state(p, state):
                state['step'] = 0
                state['square_avg'] = torch.zeros_like(p)
                if momentum:
                    state['momentum_buffer'] = torch.zeros_like(p)
                if centered:
                    state['grad_avg'] = torch.zeros_like(p)

            params_with_grad, grads, states = self._init_group(group, init_state)
            square_avgs = [state['square_avg'] for state in states]
            momentum_buffer_list = [state['momentum_buffer'] for state in states] \
                if momentum else []
            grad_avgs = [state['grad_avg'] for state in states] if centered else []
            for state in states:
                state['step'] += 1

            rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list,
                    lr=group['lr'], alpha=group['alpha'], eps=group['eps'],
                    weight_decay=group['weight_decay'], momentum=group['momentum'],
                    centered=group['centered'], maximize=group['maximize'])
        return loss


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, foreach=None,
            maximize=False, differentiable=False, *, lr, alpha, eps, weight_decay, momentum,
            centered):
    """The functional form of RMSprop."""
    for i, param in enumerate(params):
        _C._rmsprop_step(param, grads[i], square_avgs[i],
                         momentum_buffer_list[i] if momentum > 0 else None,
                         grad_avgs[i] if centered else None,
                         lr, alpha, eps, weight_decay, momentum, centered, maximize)

"""torch.optim.SGD: stochastic gradient descent with momentum, dampening,
Nesterov momentum, weight decay and maximize, as PyTorch 1.13 computes it."""

import torch
from torch import _C
from .optimizer import Optimizer, required, _use_grad_for_differentiable, \
    _check_not_differentiable, _closure_loss

__all__ = ['SGD', 'sgd']


class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum.

    d_p = grad (+ weight_decay * p); with momentum the buffer b becomes d_p
    on the first step and momentum * b + (1 - dampening) * d_p after, and
    d_p becomes b (or d_p + momentum * b with nesterov); p -= lr * d_p.
    The buffer is state['momentum_buffer'] (None without momentum).
    """

    def __init__(self, params, lr=required, momentum=0, dampening=0,
                 weight_decay=0, nesterov=False, *, maximize=False, foreach=None,
                 differentiable=False):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach,
                        differentiable=differentiable)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        _check_not_differentiable(defaults)
        super(SGD, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(nesterov=False, maximize=False, foreach=None,
                                differentiable=False)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params_with_grad, d_p_list, states = self._init_group(group)
            momentum_buffer_list = [state.get('momentum_buffer') for state in states]
            sgd(params_with_grad, d_p_list, momentum_buffer_list,
                weight_decay=group['weight_decay'], momentum=group['momentum'],
                lr=group['lr'], dampening=group['dampening'],
                nesterov=group['nesterov'], maximize=group['maximize'])

            for state, momentum_buffer in zip(states, momentum_buffer_list):
                state['momentum_buffer'] = momentum_buffer

        return loss


def sgd(params, d_p_list, momentum_buffer_list, has_sparse_grad=None, foreach=None, *,
        weight_decay, momentum, lr, dampening, nesterov, maximize):
    """The functional form of SGD. momentum_buffer_list[i] is None until the
    first step with momentum, which puts the new buffer there."""
    for i, param in enumerate(params):
        buf = momentum_buffer_list[i]
        first = False
        if momentum != 0 and buf is None:
            buf = torch.empty_like(param)
            momentum_buffer_list[i] = buf
            first = True
        _C._sgd_step(param, d_p_list[i], buf if momentum != 0 else None, lr, momentum,
                     dampening, weight_decay, nesterov, maximize, first)

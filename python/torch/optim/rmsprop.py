"""torch.optim.RMSprop (centered, momentum, weight decay, maximize), as
PyTorch 1.13 computes it."""

import torch
from torch import _C
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_not_differentiable

__all__ = ['RMSprop', 'rmsprop']


class RMSprop(Optimizer):
    """RMSprop: square_avg = alpha sa + (1 - alpha) g^2; the step divides
    the gradient by sqrt(square_avg) + eps (less grad_avg^2 when centered),
    through a momentum buffer when momentum > 0."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= momentum:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= alpha:
            raise ValueError("Invalid alpha value: {}".format(alpha))
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        _check_not_differentiable(defaults)
        super(RMSprop, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('momentum', 0)
            group.setdefault('centered', False)
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            params_with_grad = []
            grads = []
            square_avgs = []
            grad_avgs = []
            momentum_buffer_list = []
            for p in group['params']:
                if p.grad is None:
                    continue
                params_with_grad.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = 0
                    state['square_avg'] = torch.zeros_like(p)
                    if group['momentum'] > 0:
                        state['momentum_buffer'] = torch.zeros_like(p)
                    if group['centered']:
                        state['grad_avg'] = torch.zeros_like(p)
                square_avgs.append(state['square_avg'])
                if group['momentum'] > 0:
                    momentum_buffer_list.append(state['momentum_buffer'])
                if group['centered']:
                    grad_avgs.append(state['grad_avg'])
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

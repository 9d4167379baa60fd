"""torch.optim.AdamW: Adam with decoupled weight decay (p *= 1 - lr * wd
before the Adam update), as PyTorch 1.13 computes it."""

import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _closure_loss
from .adam import _check_adam_args, _adam_like_step, _adam_kernel, _steps_as_tensors

__all__ = ['AdamW', 'adamw']


class AdamW(Optimizer):
    """AdamW (Loshchilov and Hutter): weight decay shrinks the parameter
    instead of entering the gradient."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=1e-2, amsgrad=False, *, maximize=False,
                 foreach=None, capturable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps,
                        weight_decay=weight_decay, amsgrad=amsgrad,
                        foreach=foreach, maximize=maximize, capturable=capturable)
        super(AdamW, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(amsgrad=False, maximize=False, foreach=None, capturable=False)
        _steps_as_tensors(self.state)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        _adam_like_step(self, decoupled=True)
        return loss


def adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
          foreach=None, capturable=False, *, amsgrad, beta1, beta2, lr, weight_decay, eps,
          maximize):
    """The functional form of AdamW (state_steps are tensors, incremented here)."""
    _adam_kernel(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
                 amsgrad=amsgrad, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay,
                 eps=eps, maximize=maximize, decoupled=True)

"""torch.optim.NAdam (momentum decay, weight decay), as PyTorch 1.13
computes it, operation for operation."""

import torch
from .optimizer import Optimizer, _check_nonnegative, _closure_loss
from .adam import _check_adam_args, _steps_as_tensors

__all__ = ['NAdam', 'nadam']


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum; the momentum coefficient
    mu_t = b1 (1 - 0.96^(t psi) / 2) and the product of the mu's are kept
    per parameter ('mu_product', a float32 tensor as in torch)."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, foreach=None):
        _check_adam_args(lr, betas, eps, weight_decay)
        _check_nonnegative("momentum_decay value", momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay, foreach=foreach)
        super(NAdam, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._setdefault_groups(foreach=None)
        _steps_as_tensors(self.state)
        for s in self.state.values():
            if 'mu_product' in s and not torch.is_tensor(s['mu_product']):
                s['mu_product'] = torch.tensor(s['mu_product'])

    @torch.no_grad()
    def step(self, closure=None):
        """One update; [closure] re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            def init_state(p, state):
                state['step'] = torch.tensor(0.)
                state['mu_product'] = torch.tensor(1.)
                state['exp_avg'] = torch.zeros_like(p)
                state['exp_avg_sq'] = torch.zeros_like(p)

            params, grads, states = self._init_group(group, init_state)
            beta1, beta2 = group['betas']
            nadam(params, grads, [s['exp_avg'] for s in states],
                  [s['exp_avg_sq'] for s in states], [s['mu_product'] for s in states],
                  [s['step'] for s in states], beta1=beta1, beta2=beta2, lr=group['lr'],
                  weight_decay=group['weight_decay'], momentum_decay=group['momentum_decay'],
                  eps=group['eps'])
        return loss


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, foreach=None, *,
          beta1, beta2, lr, weight_decay, momentum_decay, eps):
    """The functional form of NAdam (state_steps and mu_products are tensors,
    updated here)."""
    for i, param in enumerate(params):
        grad, exp_avg, exp_avg_sq = grads[i], exp_avgs[i], exp_avg_sqs[i]
        mu_product, step_t = mu_products[i], state_steps[i]
        step_t += 1
        step = step_t.item()
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        mu = beta1 * (1. - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu
        mu_product_next = mu_product * mu * mu_next
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
        param.addcdiv_(grad, denom, value=-lr * (1. - mu) / (1. - mu_product.item()))
        param.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1. - mu_product_next.item()))

"""torch.optim.Rprop (resilient backpropagation), as PyTorch 1.13 computes
it, operation for operation."""

import torch
from .optimizer import Optimizer, _check_nonnegative, _closure_loss

__all__ = ['Rprop', 'rprop']


class Rprop(Optimizer):
    """Rprop: each weight's step size grows by etaplus while its gradient
    keeps its sign and shrinks by etaminus when it flips (that step then
    skips the weight), within step_sizes; p -= sign(g) * step_size."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None,
                 maximize=False):
        _check_nonnegative("learning rate", lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("Invalid eta values: {}, {}".format(etas[0], etas[1]))
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize)
        super(Rprop, self).__init__(params, defaults)

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
                state['prev'] = torch.zeros_like(p)
                state['step_size'] = torch.full_like(p.grad, group['lr'])

            params, grads, states = self._init_group(group, init_state)
            for state in states:
                state['step'] += 1
            etaminus, etaplus = group['etas']
            step_size_min, step_size_max = group['step_sizes']
            rprop(params, grads, [s['prev'] for s in states], [s['step_size'] for s in states],
                  step_size_min=step_size_min, step_size_max=step_size_max,
                  etaminus=etaminus, etaplus=etaplus, maximize=group['maximize'])
        return loss


def rprop(params, grads, prevs, step_sizes, foreach=None, maximize=False, *, step_size_min,
          step_size_max, etaminus, etaplus):
    """The functional form of Rprop."""
    for param, grad, prev, step_size in zip(params, grads, prevs, step_sizes):
        if maximize:
            grad = -grad
        sign = grad.mul(prev).sign()
        # The factor per weight: etaplus where the sign held, etaminus where
        # it flipped, 1 where either gradient is zero.
        factor = torch.where(sign > 0, torch.full_like(sign, etaplus),
                             torch.where(sign < 0, torch.full_like(sign, etaminus),
                                         torch.ones_like(sign)))
        step_size.mul_(factor).clamp_(step_size_min, step_size_max)
        grad = torch.where(sign < 0, torch.zeros_like(grad), grad)
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)

"""torch.optim.swa_utils: stochastic weight averaging, as PyTorch 1.13 has
it: AveragedModel (a running average of a model's parameters), SWALR (anneal
each group's learning rate to a constant SWA rate) and update_bn (recompute
BatchNorm statistics for the averaged weights)."""

import itertools
import math
import warnings
from copy import deepcopy

import torch
from torch.nn import Module
from torch.optim.lr_scheduler import _LRScheduler

__all__ = ['AveragedModel', 'update_bn', 'SWALR']


class AveragedModel(Module):
    """A copy of [model] whose parameters (and buffers, with
    use_buffers=True) hold the average of every model passed to
    update_parameters(); avg_fn(averaged, current, n) replaces the equal
    running mean. Calling it calls the copy."""

    def __init__(self, model, device=None, avg_fn=None, use_buffers=False):
        super(AveragedModel, self).__init__()
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer('n_averaged', torch.tensor(0, dtype=torch.long))
        if avg_fn is None:
            def avg_fn(averaged, current, num_averaged):
                return averaged + (current - averaged) / (num_averaged + 1)
        self.avg_fn = avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        if self.use_buffers:
            mine = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            mine, theirs = self.parameters(), model.parameters()
        first = self.n_averaged.item() == 0
        for p_avg, p_model in zip(mine, theirs):
            current = p_model.detach()
            if first:
                p_avg.detach().copy_(current)
            else:
                p_avg.detach().copy_(self.avg_fn(p_avg.detach(), current, self.n_averaged))
        self.n_averaged += 1


@torch.no_grad()
def update_bn(loader, model, device=None):
    """One pass over [loader] in train mode to recompute every BatchNorm
    layer's running statistics as a plain average (momentum None), then the
    layers' momenta and the model's mode are put back."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
            module.running_mean = torch.zeros_like(module.running_mean)
            module.running_var = torch.ones_like(module.running_var)
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
        module.num_batches_tracked *= 0
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(_LRScheduler):
    """Anneal each group's learning rate from its value to swa_lr over
    anneal_epochs steps ('cos' or 'linear'), then hold it there."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy='cos',
                 last_epoch=-1):
        for rate, group in zip(self._format_param(optimizer, swa_lr), optimizer.param_groups):
            group['swa_lr'] = rate
        if anneal_strategy not in ['cos', 'linear']:
            raise ValueError("anneal_strategy must by one of 'cos' or 'linear', "
                             f"instead got {anneal_strategy}")
        self.anneal_func = self._cosine_anneal if anneal_strategy == 'cos' \
            else self._linear_anneal
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super(SWALR, self).__init__(optimizer, last_epoch)

    @staticmethod
    def _format_param(optimizer, swa_lrs):
        if isinstance(swa_lrs, (list, tuple)):
            if len(swa_lrs) != len(optimizer.param_groups):
                raise ValueError("swa_lr must have the same length as "
                                 f"optimizer.param_groups: swa_lr has {len(swa_lrs)}, "
                                 f"optimizer.param_groups has {len(optimizer.param_groups)}")
            return swa_lrs
        return [swa_lrs] * len(optimizer.param_groups)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        if not getattr(self, '_get_lr_called_within_step', False):
            warnings.warn("To get the last learning rate computed by the scheduler, "
                          "please use `get_last_lr()`.", UserWarning)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        # Undo the previous step's mix to find the rate being annealed from.
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [self._get_initial_lr(group['lr'], group['swa_lr'], prev_alpha)
                    for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group['swa_lr'] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

"""torch.optim.lr_scheduler: learning-rate schedules that write each
param_group's 'lr', with PyTorch 1.13's chainable (recursive) formulas, so
the values are the same floats PyTorch computes, step after step.
"""

import math
from math import inf  # noqa: F401  (torch.optim.lr_scheduler.inf, as PyTorch has it)
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from functools import wraps

from .optimizer import Optimizer

__all__ = ['LambdaLR', 'MultiplicativeLR', 'StepLR', 'MultiStepLR', 'ConstantLR', 'LinearLR',
           'ExponentialLR', 'SequentialLR', 'CosineAnnealingLR', 'ChainedScheduler',
           'ReduceLROnPlateau', 'CyclicLR', 'CosineAnnealingWarmRestarts', 'OneCycleLR',
           'PolynomialLR']

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

_GET_LR_WARNING = ("To get the last learning rate computed by the scheduler, "
                   "please use `get_last_lr()`.")


def _check_optimizer(optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError('{} is not an Optimizer'.format(type(optimizer).__name__))


def _format_param(name, optimizer, param):
    """One value per parameter group: [param] repeated, or a list of them."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError("expected {} values for {}, got {}".format(
                len(optimizer.param_groups), name, len(param)))
        return param
    return [param] * len(optimizer.param_groups)


class _InStep:
    """Marks get_lr() calls made by step() (others warn, as torch's do)."""

    def __init__(self, sched):
        self.sched = sched

    def __enter__(self):
        self.sched._get_lr_called_within_step = True
        return self

    def __exit__(self, *exc):
        self.sched._get_lr_called_within_step = False


def _count_optimizer_steps(optimizer):
    """Wrap optimizer.step so it counts its calls in optimizer._step_count
    (the scheduler warns when it is stepped before the optimizer)."""
    method = optimizer.step
    if getattr(method, '_with_counter', False):
        return
    instance_ref = weakref.ref(method.__self__)
    func = method.__func__
    cls = type(method.__self__)
    del method

    @wraps(func)
    def wrapper(*args, **kwargs):
        instance = instance_ref()
        instance._step_count += 1
        return func.__get__(instance, cls)(*args, **kwargs)

    wrapper._with_counter = True
    optimizer.step = wrapper


class _LRScheduler(object):
    """Base class: remembers each group's initial_lr as base_lrs, and each
    step() sets every group's lr to get_lr()'s value for the next epoch."""

    def __init__(self, optimizer, last_epoch=-1, verbose=False):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault('initial_lr', group['lr'])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if 'initial_lr' not in group:
                    raise KeyError("param 'initial_lr' is not specified "
                                   "in param_groups[{}] when resuming an optimizer".format(i))
        self.base_lrs = [group['initial_lr'] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _count_optimizer_steps(self.optimizer)
        self.verbose = verbose
        self._initial_step()

    def _initial_step(self):
        self.optimizer._step_count = 0
        self._step_count = 0
        self.step()

    def state_dict(self):
        """Every attribute but the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != 'optimizer'}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        """The learning rates the last step() set, one per group."""
        return self._last_lr

    def get_lr(self):
        raise NotImplementedError

    def print_lr(self, is_verbose, group, lr, epoch=None):
        if not is_verbose:
            return
        if epoch is None:
            print('Adjusting learning rate of group {} to {:.4e}.'.format(group, lr))
        else:
            epoch_str = ("%.2f" if isinstance(epoch, float) else "%.5d") % epoch
            print('Epoch {}: adjusting learning rate of group {} to {:.4e}.'.format(
                epoch_str, group, lr))

    def step(self, epoch=None):
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_with_counter"):
                warnings.warn("Seems like `optimizer.step()` has been overridden after learning "
                              "rate scheduler initialization. Please, make sure to call "
                              "`optimizer.step()` before `lr_scheduler.step()`. See more details "
                              "at https://pytorch.org/docs/stable/optim.html"
                              "#how-to-adjust-learning-rate", UserWarning)
            elif self.optimizer._step_count < 1:
                warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                              "In PyTorch 1.1.0 and later, you should call them in the opposite "
                              "order: `optimizer.step()` before `lr_scheduler.step()`.  Failure "
                              "to do this will result in PyTorch skipping the first value of the "
                              "learning rate schedule. See more details at "
                              "https://pytorch.org/docs/stable/optim.html"
                              "#how-to-adjust-learning-rate", UserWarning)
        self._step_count += 1
        with _InStep(self):
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning)
                self.last_epoch = epoch
                if hasattr(self, "_get_closed_form_lr"):
                    values = self._get_closed_form_lr()
                else:
                    values = self.get_lr()
        for i, (group, lr) in enumerate(zip(self.optimizer.param_groups, values)):
            group['lr'] = lr
            self.print_lr(self.verbose, i, lr, epoch)
        self._last_lr = [group['lr'] for group in self.optimizer.param_groups]

    def _warn_outside_step(self):
        if not getattr(self, '_get_lr_called_within_step', False):
            warnings.warn(_GET_LR_WARNING, UserWarning)


# PyTorch 2 names the base class LRScheduler.
LRScheduler = _LRScheduler


class _LambdaScheduler(_LRScheduler):
    """What LambdaLR and MultiplicativeLR share: one lr_lambda per group
    (a single one repeated), and a state_dict in which callable objects
    keep their __dict__ and plain functions are saved as None."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose=False):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError("Expected {} lr_lambdas, but got {}".format(
                    len(optimizer.param_groups), len(lr_lambda)))
            self.lr_lambdas = list(lr_lambda)
        super(_LambdaScheduler, self).__init__(optimizer, last_epoch, verbose)

    def state_dict(self):
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ('optimizer', 'lr_lambdas')}
        state['lr_lambdas'] = [None] * len(self.lr_lambdas)
        for i, fn in enumerate(self.lr_lambdas):
            if not isinstance(fn, types.FunctionType):
                state['lr_lambdas'][i] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        lr_lambdas = state_dict.pop('lr_lambdas')
        self.__dict__.update(state_dict)
        state_dict['lr_lambdas'] = lr_lambdas
        for i, fn in enumerate(lr_lambdas):
            if fn is not None:
                self.lr_lambdas[i].__dict__.update(fn)


class LambdaLR(_LambdaScheduler):
    """lr = initial_lr * lr_lambda(epoch)."""

    def get_lr(self):
        self._warn_outside_step()
        return [base_lr * lmbda(self.last_epoch)
                for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaScheduler):
    """lr *= lr_lambda(epoch) at every step after the first."""

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch > 0:
            return [group['lr'] * lmbda(self.last_epoch)
                    for lmbda, group in zip(self.lr_lambdas, self.optimizer.param_groups)]
        return [group['lr'] for group in self.optimizer.param_groups]


class StepLR(_LRScheduler):
    """lr *= gamma every step_size epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        self.step_size = step_size
        self.gamma = gamma
        super(StepLR, self).__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return [group['lr'] for group in self.optimizer.param_groups]
        return [group['lr'] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size)
                for base_lr in self.base_lrs]


class MultiStepLR(_LRScheduler):
    """lr *= gamma at each milestone epoch (gamma^k for a milestone given
    k times)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super(MultiStepLR, self).__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return [group['lr'] for group in self.optimizer.param_groups]
        return [group['lr'] * self.gamma ** self.milestones[self.last_epoch]
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        milestones = list(sorted(self.milestones.elements()))
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base_lr in self.base_lrs]


class ConstantLR(_LRScheduler):
    """lr = initial_lr * factor until total_iters, then initial_lr."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1, verbose=False):
        if factor > 1.0 or factor < 0:
            raise ValueError('Constant multiplicative factor expected to be between 0 and 1.')
        self.factor = factor
        self.total_iters = total_iters
        super(ConstantLR, self).__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [group['lr'] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return [group['lr'] for group in self.optimizer.param_groups]
        return [group['lr'] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(_LRScheduler):
    """The factor of initial_lr goes linearly from start_factor to
    end_factor over total_iters epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1, verbose=False):
        if start_factor > 1.0 or start_factor < 0:
            raise ValueError('Starting multiplicative factor expected to be between 0 and 1.')
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError('Ending multiplicative factor expected to be between 0 and 1.')
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super(LinearLR, self).__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [group['lr'] * self.start_factor for group in self.optimizer.param_groups]
        if self.last_epoch > self.total_iters:
            return [group['lr'] for group in self.optimizer.param_groups]
        delta = self.end_factor - self.start_factor
        ratio = 1. + delta / (self.total_iters * self.start_factor + (self.last_epoch - 1) * delta)
        return [group['lr'] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor) *
                           min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(_LRScheduler):
    """lr *= gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super(ExponentialLR, self).__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [group['lr'] for group in self.optimizer.param_groups]
        return [group['lr'] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class _SchedulerList(_LRScheduler):
    """What SequentialLR and ChainedScheduler share: a state_dict that
    holds each of their _schedulers' state_dicts."""

    def state_dict(self):
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ('optimizer', '_schedulers')}
        state['_schedulers'] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        schedulers = state_dict.pop('_schedulers')
        self.__dict__.update(state_dict)
        state_dict['_schedulers'] = schedulers
        for i, s in enumerate(schedulers):
            self._schedulers[i].load_state_dict(s)


class SequentialLR(_SchedulerList):
    """Run schedulers one after another, switching at the milestones."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1, verbose=False):
        for i in range(len(schedulers)):
            if schedulers[i].optimizer != optimizer:
                raise ValueError(
                    "Sequential Schedulers expects all schedulers to belong to the same "
                    "optimizer, but got schedulers at index {} to be different than the "
                    "optimizer passed in.".format(i))
            if schedulers[i].optimizer != schedulers[0].optimizer:
                raise ValueError(
                    "Sequential Schedulers expects all schedulers to belong to the same "
                    "optimizer, but got schedulers at index {} and {} to be different.".format(
                        0, i))
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers {} and the "
                "number of milestones to be equal to {}".format(len(schedulers), len(milestones)))
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in self.optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        # Undo the steps the schedulers took when they were made.
        for scheduler in self._schedulers:
            scheduler.last_epoch -= 1
        self._schedulers[0]._initial_step()
        self._last_lr = schedulers[0].get_last_lr()

    def step(self):
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class PolynomialLR(_LRScheduler):
    """lr decays as (1 - epoch / total_iters) ** power."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1, verbose=False):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch > self.total_iters:
            return [group["lr"] for group in self.optimizer.param_groups]
        decay = ((1.0 - self.last_epoch / self.total_iters) /
                 (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [group["lr"] * decay for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters)
                ** self.power for base_lr in self.base_lrs]


class CosineAnnealingLR(_LRScheduler):
    """Cosine annealing from initial_lr to eta_min over T_max epochs (and
    back up over the next T_max, as SGDR without restarts)."""

    def __init__(self, optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False):
        self.T_max = T_max
        self.eta_min = eta_min
        super(CosineAnnealingLR, self).__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [group['lr'] for group in groups]
        if self._step_count == 1 and self.last_epoch > 0:
            return [self.eta_min + (base_lr - self.eta_min) *
                    (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2
                    for base_lr in self.base_lrs]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [group['lr'] + (base_lr - self.eta_min) *
                    (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups)]
        return [(1 + math.cos(math.pi * self.last_epoch / self.T_max)) /
                (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)) *
                (group['lr'] - self.eta_min) + self.eta_min
                for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) *
                (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class ChainedScheduler(_SchedulerList):
    """Step several schedulers together (their factors multiply)."""

    def __init__(self, schedulers):
        for i in range(1, len(schedulers)):
            if schedulers[i].optimizer != schedulers[0].optimizer:
                raise ValueError(
                    "ChainedScheduler expects all schedulers to belong to the same optimizer, "
                    "but got schedulers at index {} and {} to be different".format(0, i))
        self._schedulers = list(schedulers)
        self.optimizer = schedulers[0].optimizer
        self._last_lr = [group['lr'] for group in self._schedulers[-1].optimizer.param_groups]

    def step(self):
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = [group['lr'] for group in self._schedulers[-1].optimizer.param_groups]


class ReduceLROnPlateau(object):
    """lr *= factor when a metric has not improved for [patience] epochs
    (then waits [cooldown] epochs)."""

    def __init__(self, optimizer, mode='min', factor=0.1, patience=10,
                 threshold=1e-4, threshold_mode='rel', cooldown=0,
                 min_lr=0, eps=1e-8, verbose=False):
        if factor >= 1.0:
            raise ValueError('Factor should be < 1.0.')
        self.factor = factor
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError("expected {} min_lrs, got {}".format(
                    len(optimizer.param_groups), len(min_lr)))
            self.min_lrs = list(min_lr)
        else:
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self.best = None
        self.num_bad_epochs = None
        self.mode_worse = None
        self.eps = eps
        self.last_epoch = 0
        self._init_is_better(mode=mode, threshold=threshold, threshold_mode=threshold_mode)
        self._reset()

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch=None):
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [group['lr'] for group in self.optimizer.param_groups]

    def _reduce_lr(self, epoch):
        for i, group in enumerate(self.optimizer.param_groups):
            old_lr = float(group['lr'])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                group['lr'] = new_lr
                if self.verbose:
                    epoch_str = ("%.2f" if isinstance(epoch, float) else "%.5d") % epoch
                    print('Epoch {}: reducing learning rate of group {} to {:.4e}.'.format(
                        epoch_str, i, new_lr))

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def is_better(self, a, best):
        if self.mode == 'min' and self.threshold_mode == 'rel':
            return a < best * (1. - self.threshold)
        if self.mode == 'min' and self.threshold_mode == 'abs':
            return a < best - self.threshold
        if self.mode == 'max' and self.threshold_mode == 'rel':
            return a > best * (self.threshold + 1.)
        return a > best + self.threshold

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in {'min', 'max'}:
            raise ValueError('mode ' + mode + ' is unknown!')
        if threshold_mode not in {'rel', 'abs'}:
            raise ValueError('threshold mode ' + threshold_mode + ' is unknown!')
        self.mode_worse = math.inf if mode == 'min' else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key != 'optimizer'}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._init_is_better(mode=self.mode, threshold=self.threshold,
                             threshold_mode=self.threshold_mode)



class CyclicLR(_LRScheduler):
    """lr cycles between base_lr and max_lr (triangular, triangular2,
    exp_range or a scale_fn), momentum the opposite way."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode='triangular', gamma=1., scale_fn=None, scale_mode='cycle',
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1,
                 verbose=False):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _format_param('base_lr', optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group['lr'] = lr
        self.max_lrs = _format_param('max_lr', optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ['triangular', 'triangular2', 'exp_range'] and scale_fn is None:
            raise ValueError('mode is invalid and scale_fn is None')
        self.mode = mode
        self.gamma = gamma
        if scale_fn is None:
            self._scale_fn_custom = None
            if self.mode == 'triangular':
                self._scale_fn_ref = weakref.WeakMethod(self._triangular_scale_fn)
                self.scale_mode = 'cycle'
            elif self.mode == 'triangular2':
                self._scale_fn_ref = weakref.WeakMethod(self._triangular2_scale_fn)
                self.scale_mode = 'cycle'
            else:
                self._scale_fn_ref = weakref.WeakMethod(self._exp_range_scale_fn)
                self.scale_mode = 'iterations'
        else:
            self._scale_fn_custom = scale_fn
            self._scale_fn_ref = None
            self.scale_mode = scale_mode
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if 'momentum' not in optimizer.defaults:
                raise ValueError('optimizer must support momentum with `cycle_momentum` '
                                 'option enabled')
            base_momentums = _format_param('base_momentum', optimizer, base_momentum)
            if last_epoch == -1:
                for momentum, group in zip(base_momentums, optimizer.param_groups):
                    group['momentum'] = momentum
            self.base_momentums = [group['momentum'] for group in optimizer.param_groups]
            self.max_momentums = _format_param('max_momentum', optimizer, max_momentum)
        super(CyclicLR, self).__init__(optimizer, last_epoch, verbose)
        self.base_lrs = base_lrs

    def scale_fn(self, x):
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref()(x)

    def _triangular_scale_fn(self, x):
        return 1.

    def _triangular2_scale_fn(self, x):
        return 1 / (2. ** (x - 1))

    def _exp_range_scale_fn(self, x):
        return self.gamma ** x

    def get_lr(self):
        self._warn_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1. + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == 'cycle' else self.last_epoch
        lrs = []
        for base_lr, max_lr in zip(self.base_lrs, self.max_lrs):
            base_height = (max_lr - base_lr) * scale_factor
            lrs.append(base_lr + base_height * self.scale_fn(at))
        if self.cycle_momentum:
            for group, base_m, max_m in zip(self.optimizer.param_groups, self.base_momentums,
                                            self.max_momentums):
                base_height = (max_m - base_m) * scale_factor
                group['momentum'] = max_m - base_height * self.scale_fn(at)
        return lrs


class CosineAnnealingWarmRestarts(_LRScheduler):
    """SGDR: cosine annealing restarted every T_i epochs (T_i grows by
    T_mult at each restart)."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError("Expected positive integer T_0, but got {}".format(T_0))
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError("Expected integer T_mult >= 1, but got {}".format(T_mult))
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super(CosineAnnealingWarmRestarts, self).__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_outside_step()
        return [self.eta_min + (base_lr - self.eta_min) *
                (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch=None):
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError("Expected non-negative epoch, but got {}".format(epoch))
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        with _InStep(self):
            for i, (group, lr) in enumerate(zip(self.optimizer.param_groups, self.get_lr())):
                group['lr'] = lr
                self.print_lr(self.verbose, i, lr, epoch)
        self._last_lr = [group['lr'] for group in self.optimizer.param_groups]


class OneCycleLR(_LRScheduler):
    """The 1cycle policy: lr warms from max_lr / div_factor up to max_lr,
    then anneals to initial_lr / final_div_factor (cosine or linear), with
    momentum (or Adam's beta1) cycled the opposite way; one step per batch."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85,
                 max_momentum=0.95, div_factor=25., final_div_factor=1e4, three_phase=False,
                 last_epoch=-1, verbose=False):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if total_steps is None and epochs is None and steps_per_epoch is None:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        elif total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError("Expected positive integer total_steps, but got {}".format(
                    total_steps))
            self.total_steps = total_steps
        else:
            if epochs <= 0 or not isinstance(epochs, int):
                raise ValueError("Expected positive integer epochs, but got {}".format(epochs))
            if steps_per_epoch <= 0 or not isinstance(steps_per_epoch, int):
                raise ValueError("Expected positive integer steps_per_epoch, but got {}".format(
                    steps_per_epoch))
            self.total_steps = epochs * steps_per_epoch

        def phase(end_step, start_lr, end_lr, start_m, end_m):
            return {'end_step': end_step, 'start_lr': start_lr, 'end_lr': end_lr,
                    'start_momentum': start_m, 'end_momentum': end_m}

        if three_phase:
            self._schedule_phases = [
                phase(float(pct_start * self.total_steps) - 1, 'initial_lr', 'max_lr',
                      'max_momentum', 'base_momentum'),
                phase(float(2 * pct_start * self.total_steps) - 2, 'max_lr', 'initial_lr',
                      'base_momentum', 'max_momentum'),
                phase(self.total_steps - 1, 'initial_lr', 'min_lr',
                      'max_momentum', 'max_momentum'),
            ]
        else:
            self._schedule_phases = [
                phase(float(pct_start * self.total_steps) - 1, 'initial_lr', 'max_lr',
                      'max_momentum', 'base_momentum'),
                phase(self.total_steps - 1, 'max_lr', 'min_lr',
                      'base_momentum', 'max_momentum'),
            ]

        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError("Expected float between 0 and 1 pct_start, but got {}".format(
                pct_start))
        if anneal_strategy not in ['cos', 'linear']:
            raise ValueError("anneal_strategy must by one of 'cos' or 'linear', instead got "
                             "{}".format(anneal_strategy))
        self.anneal_func = (self._annealing_cos if anneal_strategy == 'cos'
                            else self._annealing_linear)

        max_lrs = _format_param('max_lr', self.optimizer, max_lr)
        if last_epoch == -1:
            for idx, group in enumerate(self.optimizer.param_groups):
                group['initial_lr'] = max_lrs[idx] / div_factor
                group['max_lr'] = max_lrs[idx]
                group['min_lr'] = group['initial_lr'] / final_div_factor

        self.cycle_momentum = cycle_momentum
        if self.cycle_momentum:
            if 'momentum' not in self.optimizer.defaults and \
                    'betas' not in self.optimizer.defaults:
                raise ValueError('optimizer must support momentum with `cycle_momentum` '
                                 'option enabled')
            self.use_beta1 = 'betas' in self.optimizer.defaults
            max_momentums = _format_param('max_momentum', optimizer, max_momentum)
            base_momentums = _format_param('base_momentum', optimizer, base_momentum)
            if last_epoch == -1:
                for m_momentum, b_momentum, group in zip(max_momentums, base_momentums,
                                                         optimizer.param_groups):
                    if self.use_beta1:
                        group['betas'] = (m_momentum, *group['betas'][1:])
                    else:
                        group['momentum'] = m_momentum
                    group['max_momentum'] = m_momentum
                    group['base_momentum'] = b_momentum
        super(OneCycleLR, self).__init__(optimizer, last_epoch, verbose)

    def _annealing_cos(self, start, end, pct):
        """Cosine anneal from start to end as pct goes from 0 to 1."""
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    def _annealing_linear(self, start, end, pct):
        """Linear anneal from start to end as pct goes from 0 to 1."""
        return (end - start) * pct + start

    def get_lr(self):
        self._warn_outside_step()
        lrs = []
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError("Tried to step {} times. The specified number of total steps is {}"
                             .format(step_num + 1, self.total_steps))
        for group in self.optimizer.param_groups:
            start_step = 0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase['end_step']
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    computed_lr = self.anneal_func(group[phase['start_lr']],
                                                   group[phase['end_lr']], pct)
                    if self.cycle_momentum:
                        computed_momentum = self.anneal_func(group[phase['start_momentum']],
                                                             group[phase['end_momentum']], pct)
                    break
                start_step = phase['end_step']
            lrs.append(computed_lr)
            if self.cycle_momentum:
                if self.use_beta1:
                    group['betas'] = (computed_momentum, *group['betas'][1:])
                else:
                    group['momentum'] = computed_momentum
        return lrs

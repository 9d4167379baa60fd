"""torch.optim.Optimizer: parameter groups, per-parameter state and their
state_dict, as PyTorch 1.13 keeps them.

Subclasses gather each group's parameters, gradients and state tensors here
in Python and hand every parameter to a C kernel of torch._C (_sgd_step,
_adam_step, ...) that updates it and its state in place with the float32
rounding of torch's single-tensor loop.
"""

import functools
import warnings
from collections import defaultdict, abc as container_abcs
from copy import deepcopy
from itertools import chain

import torch
from torch import _C

__all__ = ['Optimizer']


class _RequiredParameter(object):
    """The default of a hyper-parameter every group must give (SGD's lr)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(o):
    if isinstance(o, torch.Tensor):
        return o.type()
    module = type(o).__module__
    name = type(o).__qualname__
    return name if module in ('builtins', None) else module + '.' + name


def _use_grad_for_differentiable(func):
    """Run step() with autograd off unless the optimizer is differentiable."""
    # The two switches as locals of the closure: looked up through torch,
    # they were a fifth of a small Adam step's Python.
    is_enabled, set_enabled = _C.is_grad_enabled, _C._set_grad_enabled

    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        prev = is_enabled()
        try:
            set_enabled(bool(self.defaults.get('differentiable', False)))
            return func(self, *args, **kwargs)
        finally:
            set_enabled(prev)
    return _use_grad


def _check_nonnegative(what, value):
    if not 0.0 <= value:
        raise ValueError("Invalid {}: {}".format(what, value))


def _closure_loss(closure):
    """step()'s loss: [closure] re-evaluated with autograd on (it runs
    backward), or None without one."""
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


def _check_not_differentiable(defaults):
    # The kernels update tensors in place outside autograd.
    if defaults.get('differentiable'):
        raise RuntimeError("nndb's optimizers are not differentiable: "
                           "differentiable=True is not supported")


class Optimizer(object):
    """Base class for all optimizers.

    Args:
        params (iterable): tensors, or dicts that define parameter groups.
        defaults (dict): hyper-parameters a group takes when it does not set
            them.
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be "
                            "an iterable of Tensors or dicts, but got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {
            'defaults': self.defaults,
            'state': self.state,
            'param_groups': self.param_groups,
        }

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault('differentiable', False)

    def __repr__(self):
        text = self.__class__.__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            text += '\n'
            text += 'Parameter Group {0}\n'.format(i)
            for key in sorted(group.keys()):
                if key != 'params':
                    text += '    {0}: {1}\n'.format(key, group[key])
        text += ')'
        return text

    def state_dict(self):
        """The optimizer's state as a dict: 'state' (per parameter, keyed by
        the parameter's index over all groups) and 'param_groups' (each
        group's hyper-parameters, with the indices of its parameters)."""
        index_of = {}
        next_index = 0

        def pack_group(group):
            nonlocal next_index
            packed = {k: v for k, v in group.items() if k != 'params'}
            for i, p in enumerate(group['params'], next_index):
                if id(p) not in index_of:
                    index_of[id(p)] = i
            packed['params'] = [index_of[id(p)] for p in group['params']]
            next_index += len(packed['params'])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(index_of[id(k)] if isinstance(k, torch.Tensor) else k): v
                        for k, v in self.state.items()}
        return {'state': packed_state, 'param_groups': param_groups}

    def load_state_dict(self, state_dict):
        """Load a state from state_dict() (of this or another run): its
        tensors are copied, floating ones cast to their parameter's dtype
        (all but 'step')."""
        state_dict = deepcopy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict['param_groups']
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of "
                             "parameter groups")
        if any(len(g['params']) != len(s['params']) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group "
                             "that doesn't match the size of optimizer's group")
        id_map = dict(zip(chain.from_iterable(g['params'] for g in saved_groups),
                          chain.from_iterable(g['params'] for g in groups)))

        def cast(param, value, key=None):
            if isinstance(value, torch.Tensor):
                # Step counts keep their own dtype (pytorch/pytorch#74424).
                if key != 'step' and param.is_floating_point() and value.dtype != param.dtype:
                    value = value.to(param.dtype)
                return value
            if isinstance(value, dict):
                return {k: cast(param, v, key=k) for k, v in value.items()}
            if isinstance(value, container_abcs.Iterable) and not isinstance(value, str):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict['state'].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group['params'] = group['params']
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({'state': state, 'param_groups': param_groups})

    def zero_grad(self, set_to_none=False):
        """Zero every parameter's gradient in place, or drop it with
        set_to_none=True (PyTorch 1.13's default is False). Per parameter:
        p.grad = None, or p.grad.detach_() (p.grad.requires_grad_(False)
        when it has no grad_fn) and p.grad.zero_(), in one C call per group."""
        for group in self.param_groups:
            _C._zero_grads(group['params'], set_to_none)

    def step(self, closure):
        """One update of every parameter (each subclass defines it)."""
        raise NotImplementedError

    def _init_group(self, group, init_state=None):
        """The parameters of [group] that have a gradient, their gradients
        and their state dicts, as three lists; [init_state](p, state) fills
        a parameter's empty state first (state is made on the first step)."""
        params_with_grad = []
        grads = []
        states = []
        for p in group['params']:
            if p.grad is None:
                continue
            state = self.state[p]
            if init_state is not None and len(state) == 0:
                init_state(p, state)
            params_with_grad.append(p)
            grads.append(p.grad)
            states.append(state)
        return params_with_grad, grads, states

    def _setdefault_groups(self, **defaults):
        # Groups of a state saved before an option existed lack its key.
        for group in self.param_groups:
            for name, value in defaults.items():
                group.setdefault(name, value)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own hyper-parameters (the
        optimizer's defaults fill in the rest)."""
        assert isinstance(param_group, dict), "param group must be a dict"
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but '
                            'the ordering of tensors in sets will change between runs. '
                            'Please use a list instead.')
        else:
            param_group['params'] = list(params)

        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, "
                                "but one of the params is " + _typename(param))
            if not self.defaults.get('differentiable', None) and \
                    not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 "optimization parameter " + name)
            param_group.setdefault(name, default)

        params = param_group['params']
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; "
                          "see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)

        seen = set()
        for group in self.param_groups:
            seen.update(set(group['params']))
        if not seen.isdisjoint(set(param_group['params'])):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)

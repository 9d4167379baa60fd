"""Module.register_full_backward_hook over tensor gradient hooks.

PyTorch routes a module's inputs and outputs through an identity autograd
node and hooks that node. Here each tensor input and output that needs a
gradient goes through an identity view, and Tensor.register_hook on those
views sees the gradients: the outputs' arrive first (grad_output), then the
inputs' (grad_input), and the user hooks run once all inputs' have come,
with what they return replacing grad_input.
"""

import torch


def _identity(t):
    return t.view_as(t) if hasattr(t, "view_as") else torch.reshape(t, tuple(t.shape))


class BackwardHook:
    def __init__(self, module, user_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_index = None
        self.pending = {}

    def _wrap(self, args):
        index = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        if not (torch.is_grad_enabled() and any(args[i].requires_grad for i in index)):
            return args, None
        out = list(args)
        for i in index:
            if args[i].requires_grad:
                out[i] = _identity(args[i])
        return tuple(out), [i for i in index if args[i].requires_grad]

    def setup_input_hook(self, args):
        args, index = self._wrap(args)
        self.n_inputs = len(args)
        self.input_index = index
        for i in index or ():
            args[i].register_hook(self._input_hook(i))
        return args

    def _input_hook(self, i):
        def hook(grad):
            if self.grad_outputs is None:
                return None
            self.pending[i] = grad
            if len(self.pending) < len(self.input_index):
                return None
            res = tuple(self.pending.get(j) for j in range(self.n_inputs))
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            self.pending = {}
            return res[i]
        return hook

    def setup_output_hook(self, result):
        is_tuple = isinstance(result, tuple)
        args = result if is_tuple else (result,)
        args, index = self._wrap(args)
        if index:
            n = len(args)
            grads = {}

            def make(i):
                def hook(grad):
                    grads[i] = grad
                    if len(grads) < len(index):
                        return None
                    self.grad_outputs = tuple(grads.get(j) for j in range(n))
                    if self.input_index is None:
                        none_inputs = (None,) * self.n_inputs
                        for user_hook in self.user_hooks:
                            res = user_hook(self.module, none_inputs, self.grad_outputs)
                            if res is not None and not (isinstance(res, tuple)
                                                        and all(r is None for r in res)):
                                raise RuntimeError(
                                    "Backward hook for Modules where no input requires "
                                    "gradient should always return None or None for all "
                                    "gradients.")
                        self.grad_outputs = None
                    return None
                return hook
            for i in index:
                args[i].register_hook(make(i))
        return args if is_tuple else args[0]

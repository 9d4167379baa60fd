"""torch.nn.Module: the base class of every layer and model.

A Module keeps its parameters, buffers and submodules in three ordered
dicts (_parameters, _buffers, _modules); attribute assignment sorts values
into them, and attribute lookup falls back to them. Everything else
(parameters(), state_dict(), train(), repr) walks those dicts, in the order
PyTorch walks them, so printed trees, parameter orders and state_dict keys
are the same as PyTorch's.
"""

from collections import OrderedDict, namedtuple
import itertools

import torch
from torch import _C
from torch.nn.parameter import Parameter, UninitializedBuffer
from torch.nn._hooks import RemovableHandle

__all__ = ["Module", "register_module_forward_hook", "register_module_forward_pre_hook"]

_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()


def register_module_forward_pre_hook(hook):
    handle = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook):
    handle = RemovableHandle(_global_forward_hooks)
    _global_forward_hooks[handle.id] = hook
    return handle


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s, num_spaces):
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    pad = " " * num_spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


def _typename(obj):
    if isinstance(obj, torch.Tensor):
        return obj.type()
    module = type(obj).__module__
    name = type(obj).__qualname__
    if module in (None, "builtins"):
        return name
    return module + "." + name


def _check_device(device):
    """A module's device= argument: the CPU, or the error a tensor made on
    that device gives (CUDA as PyTorch's CPU build; 'meta', which nndb does
    not have: docs/language-tensors.md)."""
    if device is not None:
        torch.empty(0, device=device)


def _cpu_only(device=None):
    if device is not None and torch.device(device).type == "meta":
        # the same NotImplementedError as torch.empty(0, device='meta') (binding/py.h)
        torch.empty(0, device="meta")
    raise AssertionError("Torch not compiled with CUDA enabled")


def _parse_to(*args, **kwargs):
    """(device, dtype, non_blocking) from Module.to's / Tensor.to's forms."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    kwargs.pop("copy", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got "
                        f"unexpected keyword {next(iter(kwargs))!r}")
    for a in args:
        if isinstance(a, torch.dtype):
            dtype = a
        elif isinstance(a, torch.Tensor):
            dtype = a.dtype
        elif isinstance(a, (str, torch.device, int)) and not isinstance(a, bool):
            device = a
        elif isinstance(a, bool):
            non_blocking = a
    if device is not None:
        if isinstance(device, int):
            device = torch.device("cuda", device)
        device = torch.device(device)
    return device, dtype, non_blocking


def _cast(t, dtype):
    return t if t.dtype == dtype else _C._nn_cast(t, dtype)


class Module:
    """Base class for all neural network modules."""

    __module__ = "torch.nn.modules.module"
    dump_patches = False
    _version = 1
    training: bool

    def __init__(self):
        sa = object.__setattr__
        sa(self, "training", True)
        sa(self, "_parameters", OrderedDict())
        sa(self, "_buffers", OrderedDict())
        sa(self, "_non_persistent_buffers_set", set())
        sa(self, "_backward_hooks", OrderedDict())
        sa(self, "_is_full_backward_hook", None)
        sa(self, "_forward_hooks", OrderedDict())
        sa(self, "_forward_pre_hooks", OrderedDict())
        sa(self, "_state_dict_hooks", OrderedDict())
        sa(self, "_load_state_dict_pre_hooks", OrderedDict())
        sa(self, "_load_state_dict_post_hooks", OrderedDict())
        sa(self, "_modules", OrderedDict())

    def forward(self, *input):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ---- registration ----

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError("buffer name can't contain \".\"")
        if name == "":
            raise KeyError("buffer name can't be empty string \"\"")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer "
                            f"'{name}' (torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError("parameter name can't contain \".\"")
        if name == "":
            raise KeyError("parameter name can't be empty string \"\"")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter "
                            f"'{name}' (torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                f"compute the value in the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"module name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buf = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buf

    # ---- attributes ----

    def __getattr__(self, name):
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # __getattr__ and __call__ done in C when cls keeps Module's (py_nn.c).
        _C._module_fast_slots(cls)

    def __setattr__(self, name, value):
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules,
                        self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(self.__dict__, self._parameters, self._buffers,
                        self._non_persistent_buffers_set)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module "
                                f"'{name}' (torch.nn.Module or None expected)")
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, torch.Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __setstate__(self, state):
        self.__dict__.update(state)
        for attr in ("_forward_pre_hooks", "_forward_hooks", "_backward_hooks",
                     "_state_dict_hooks", "_load_state_dict_pre_hooks",
                     "_load_state_dict_post_hooks"):
            if attr not in self.__dict__:
                self.__dict__[attr] = OrderedDict()
        self.__dict__.setdefault("_non_persistent_buffers_set", set())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    def __dir__(self):
        keys = (dir(self.__class__) + list(self.__dict__.keys()) + list(self._parameters.keys())
                + list(self._modules.keys()) + list(self._buffers.keys()))
        return sorted(k for k in keys if not k[0].isdigit())

    # ---- calling ----

    def __call__(self, *input, **kwargs):
        if not (self._forward_hooks or self._forward_pre_hooks or self._backward_hooks
                or _global_forward_hooks or _global_forward_pre_hooks):
            return self.forward(*input, **kwargs)
        for hook in (*_global_forward_pre_hooks.values(), *self._forward_pre_hooks.values()):
            result = hook(self, input)
            if result is not None:
                if not isinstance(result, tuple):
                    result = (result,)
                input = result
        bw_hook = None
        if self._backward_hooks:
            from torch.nn._backward_hook import BackwardHook
            bw_hook = BackwardHook(self, list(self._backward_hooks.values()))
            input = bw_hook.setup_input_hook(input)
        result = self.forward(*input, **kwargs)
        for hook in (*_global_forward_hooks.values(), *self._forward_hooks.values()):
            hook_result = hook(self, input, result)
            if hook_result is not None:
                result = hook_result
        if bw_hook is not None:
            result = bw_hook.setup_output_hook(result)
        return result

    _call_impl = __call__

    def register_forward_pre_hook(self, hook):
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook):
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    def register_full_backward_hook(self, hook):
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        if not hasattr(torch.Tensor, "register_hook"):
            raise NotImplementedError(
                "register_full_backward_hook needs Tensor.register_hook, which this build lacks")
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def register_backward_hook(self, hook):
        raise NotImplementedError(
            "register_backward_hook (the deprecated non-full form) is not supported; "
            "use register_full_backward_hook")

    def _register_state_dict_hook(self, hook):
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        if with_module:
            module = self
            self._load_state_dict_pre_hooks[handle.id] = (
                lambda *args, **kw: hook(module, *args, **kw))
        else:
            self._load_state_dict_pre_hooks[handle.id] = hook
        return handle

    def register_load_state_dict_post_hook(self, hook):
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    # ---- walking the tree ----

    def _named_members(self, get_members_fn, prefix="", recurse=True):
        memo = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or v in memo:
                    continue
                memo.add(v)
                yield (module_prefix + ("." if module_prefix else "") + k, v)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True):
        return self._named_members(lambda m: m._parameters.items(), prefix=prefix,
                                   recurse=recurse)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True):
        return self._named_members(lambda m: m._buffers.items(), prefix=prefix, recurse=recurse)

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    # Modules hash and compare by identity (the memo sets above rely on it).
    __hash__ = object.__hash__

    # ---- modes and gradients ----

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=False):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def share_memory(self):
        return self

    # ---- dtypes and devices ----

    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            with torch.no_grad():
                applied = fn(param)
            if applied is not param:
                param.data = applied
            if param.grad is not None:
                with torch.no_grad():
                    grad_applied = fn(param.grad)
                if grad_applied is not param.grad:
                    param.grad.data = grad_applied
        for key, buf in self._buffers.items():
            if buf is not None:
                if isinstance(buf, UninitializedBuffer):
                    buf.data = fn(buf)  # stays lazy, with the new dtype
                else:
                    self._buffers[key] = fn(buf)
        return self

    def _cast_floats(self, dtype):
        return self._apply(lambda t: _cast(t, dtype) if t.is_floating_point() else t)

    def float(self):
        return self._cast_floats(torch.float32)

    def double(self):
        return self._cast_floats(torch.float64)

    def half(self):
        return self._cast_floats(torch.float16)

    def bfloat16(self):
        return self._cast_floats(torch.bfloat16)

    def type(self, dst_type):
        if isinstance(dst_type, str):
            names = {"torch.FloatTensor": torch.float32, "torch.DoubleTensor": torch.float64,
                     "torch.HalfTensor": torch.float16, "torch.BFloat16Tensor": torch.bfloat16,
                     "torch.LongTensor": torch.int64, "torch.IntTensor": torch.int32}
            dst_type = names[dst_type]
        return self._apply(lambda t: _cast(t, dst_type))

    def cpu(self):
        return self

    def cuda(self, device=None):
        _cpu_only()

    def ipu(self, device=None):
        _cpu_only()

    def xpu(self, device=None):
        _cpu_only()

    def to_empty(self, *, device):
        """The module with its parameters and buffers on [device], values
        unset. nndb has only the CPU (and no meta device to come from):
        device='cpu' returns the module as it is; any other device is refused
        as a tensor made there is."""
        torch.empty(0, device=device)
        return self

    def to(self, *args, **kwargs):
        memory_format = kwargs.get("memory_format")
        device, dtype, non_blocking = _parse_to(*args, **kwargs)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError("nn.Module.to only accepts floating point or complex "
                            f"dtypes, but got desired dtype={dtype}")
        if device is not None and device.type != "cpu":
            _cpu_only(device)
        if memory_format is None:
            return self if dtype is None else self._cast_floats(dtype)

        # memory_format= lays out the 4-d and 5-d parameters and buffers
        # (a conv's weight), as PyTorch's Module.to does
        def convert(t):
            if dtype is not None and t.is_floating_point():
                t = _cast(t, dtype)
            return t.to(memory_format=memory_format) if t.dim() in (4, 5) else t
        return self._apply(convert)

    # ---- state_dict ----

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        extra_state = getattr(type(self), "get_extra_state", None)
        if extra_state is not None:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        if args:
            # the old positional form: (destination, prefix, keep_vars)
            if destination is None and len(args) > 0:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if hook_result is not None:
                destination = hook_result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs)
        persistent_buffers = {k: v for k, v in self._buffers.items()
                              if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(),
                                                        persistent_buffers.items())
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, torch.Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f'Tensor-like object from checkpoint but received {type(input_param)}')
                continue
            if len(param.shape) == 0 and len(input_param.shape) == 1:
                input_param = input_param[0]
            if input_param.shape != param.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} "
                    f"from checkpoint, the shape in current model is {param.shape}.")
                continue
            try:
                with torch.no_grad():
                    param.copy_(input_param)
            except Exception as ex:
                error_msgs.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model '
                    f"are {param.size()} and whose dimensions in the checkpoint are "
                    f"{input_param.size()}, an exception occurred : {ex.args}.")
        extra_state_key = prefix + "_extra_state"
        if getattr(type(self), "set_extra_state", None) is not None:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix):].split(".", 1)[0]
                    if input_name not in self._modules and input_name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        from collections.abc import Mapping
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                         missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {k: v for k, v in local_state_dict.items()
                                   if k.startswith(child_prefix)}
                    load(child, child_state, child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                out = hook(module, incompatible)
                assert out is None, ("Hooks registered with "
                                     "``register_load_state_dict_post_hook`` are not expected "
                                     "to return new values, if incompatible_keys need to be "
                                     "modified, it should be done inplace.")

        load(self, state_dict)
        del load
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                self.__class__.__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- printing ----

    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for key, module in self._modules.items():
            child_lines.append("(" + key + "): " + _addindent(repr(module), 2))
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

_C._module_fast_init(Module.__dict__["__getattr__"], Module.__dict__["__call__"],
                     _global_forward_pre_hooks, _global_forward_hooks)
_C._module_fast_slots(Module)

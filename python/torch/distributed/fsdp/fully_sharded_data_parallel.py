"""FullyShardedDataParallel (ZeRO stage 3, and stage 2 with SHARD_GRAD_OP),
as torch.distributed.fsdp in PyTorch 1.13, over nndb's MPI group.

Each FSDP unit (the wrapped module, and each submodule an auto_wrap_policy
wraps in its own unit) flattens the parameters it owns into one float32
vector, pads it to a multiple of the world size and keeps only this rank's
1/world slice as its parameter (`flat_param`): the optimizer built on
fsdp.parameters() sees and updates shards only. Around each use:

  forward    all_gather the shards into the full flat vector (its bytes come
             from the engine's allocator and go back to it afterwards) and
             point the module's weights at views of it; run the module;
             FULL_SHARD then frees the full vector at once, SHARD_GRAD_OP
             keeps it until its backward;
  backward   FULL_SHARD gathers it again just before the unit's backward
             (a hook on the unit's outputs); when the full gradient is
             complete, reduce_scatter averages it over the ranks into this
             rank's shard (flat_param.grad) and the full vector is freed.

So between steps every rank holds 1/world of the parameters, gradients and
optimizer state. state_dict() gathers the full model under the original
names. nndb's FSDP is Python over the collectives
(torch.distributed.all_gather_into_tensor, reduce_scatter_tensor) and one
engine helper: a flat tensor whose bytes can be dropped and brought back
while its views live (torch._C._dist_flat_*), as PyTorch resizes the flat
parameter's storage to 0.
"""

import contextlib
import enum
from collections import OrderedDict

import torch
import torch.distributed as dist
from torch import _C, nn
from torch.autograd import Function
from torch.nn.modules.module import _IncompatibleKeys

__all__ = ["FullyShardedDataParallel", "ShardingStrategy", "StateDictType", "CPUOffload",
           "MixedPrecision", "BackwardPrefetch"]

FSDP_WRAPPED_MODULE = "_fsdp_wrapped_module"
FSDP_PREFIX = FSDP_WRAPPED_MODULE + "."
FLAT_PARAM = "flat_param"


class ShardingStrategy(enum.Enum):
    FULL_SHARD = enum.auto()
    SHARD_GRAD_OP = enum.auto()
    NO_SHARD = enum.auto()


class StateDictType(enum.Enum):
    FULL_STATE_DICT = enum.auto()
    LOCAL_STATE_DICT = enum.auto()
    SHARDED_STATE_DICT = enum.auto()


class BackwardPrefetch(enum.Enum):
    BACKWARD_PRE = enum.auto()
    BACKWARD_POST = enum.auto()


class CPUOffload:
    def __init__(self, offload_params=False):
        self.offload_params = offload_params


class MixedPrecision:
    def __init__(self, param_dtype=None, reduce_dtype=None, buffer_dtype=None,
                 keep_low_precision_grads=False):
        self.param_dtype = param_dtype
        self.reduce_dtype = reduce_dtype
        self.buffer_dtype = buffer_dtype
        self.keep_low_precision_grads = keep_low_precision_grads


def _numel_unwrapped(module):
    n = 0
    for m in _own_modules(module):
        n += sum(p.numel() for p in m._parameters.values() if p is not None)
    return n


def _own_modules(module):
    """[module] and its submodules, not entering FSDP units below it."""
    out, stack = [], [module]
    while stack:
        m = stack.pop()
        out.append(m)
        for c in reversed(list(m._modules.values())):
            if c is not None and not isinstance(c, FullyShardedDataParallel):
                stack.append(c)
    return out


def _auto_wrap(module, policy, kwargs):
    for name, child in list(module._modules.items()):
        if child is None or isinstance(child, FullyShardedDataParallel):
            continue
        if policy(module=child, recurse=True, unwrapped_params=_numel_unwrapped(child)):
            _auto_wrap(child, policy, kwargs)
        if policy(module=child, recurse=False, unwrapped_params=_numel_unwrapped(child)):
            module._modules[name] = FullyShardedDataParallel(child, **kwargs)


class _Unshard(Function):
    """flat_param (this rank's shard) -> the full flat vector. Its backward
    is the reduce-scatter: the full gradient averaged over the ranks, this
    rank's slice."""

    @staticmethod
    def forward(ctx, shard, unit):
        ctx.unit = unit
        return unit._gather()

    @staticmethod
    def backward(ctx, grad_full):
        return ctx.unit._reduce_grad(grad_full), None


class FullyShardedDataParallel(nn.Module):
    """Shard [module]'s parameters, gradients and optimizer state over the
    ranks (docs/distributed.md). Build the optimizer on this module's
    parameters() (the shards) after wrapping."""

    def __init__(self, module, process_group=None, sharding_strategy=None, cpu_offload=None,
                 auto_wrap_policy=None, backward_prefetch=BackwardPrefetch.BACKWARD_PRE,
                 mixed_precision=None, ignored_modules=None, param_init_fn=None,
                 device_id=None, sync_module_states=False, forward_prefetch=False,
                 limit_all_gathers=False, use_orig_params=False):
        super().__init__()
        if not dist.is_initialized():
            raise RuntimeError("Default process group has not been initialized, please make "
                               "sure to call init_process_group.")
        strategy = sharding_strategy or ShardingStrategy.FULL_SHARD
        if not isinstance(strategy, ShardingStrategy):
            raise TypeError(f"sharding_strategy must be a ShardingStrategy, not "
                            f"{type(strategy).__name__}")
        if strategy is ShardingStrategy.NO_SHARD:
            raise ValueError("FullyShardedDataParallel: nndb has FULL_SHARD and SHARD_GRAD_OP; "
                             "for NO_SHARD use DistributedDataParallel")
        for name, value, ok in (("cpu_offload", cpu_offload and cpu_offload.offload_params,
                                 False),
                                ("mixed_precision", mixed_precision, None),
                                ("ignored_modules", ignored_modules, None),
                                ("use_orig_params", use_orig_params, False),
                                ("param_init_fn", param_init_fn, None)):
            if value not in (ok, None, False):
                raise ValueError(f"FullyShardedDataParallel({name}=...) is not supported by "
                                 "nndb's FSDP (docs/distributed.md)")
        dist.distributed_c10d._check_group("FullyShardedDataParallel", process_group)
        self.sharding_strategy = strategy
        self.rank, self.world_size = dist.get_rank(), dist.get_world_size()
        if auto_wrap_policy is not None:
            self._names_in_order = list(module.state_dict().keys())
            _auto_wrap(module, auto_wrap_policy,
                       dict(sharding_strategy=strategy, sync_module_states=sync_module_states))
        self._fsdp_wrapped_module = module
        # The parameters this unit owns, in registration order (shared ones once).
        seen, self._slots = set(), []
        offset = 0
        for m in _own_modules(module):
            for pname, p in list(m._parameters.items()):
                if p is None or pname == FLAT_PARAM:
                    continue
                if id(p) in seen:
                    raise ValueError("FullyShardedDataParallel: a parameter shared by two "
                                     "modules is not supported by nndb's FSDP")
                seen.add(id(p))
                if p.dtype != torch.float32:
                    raise TypeError(f"FullyShardedDataParallel: parameters must be float32, "
                                    f"{pname} is {p.dtype}")
                self._slots.append((m, pname, tuple(p.shape), offset, p.numel(), p))
                offset += p.numel()
        if sync_module_states:
            for s in self._slots:
                dist.broadcast(s[5].data, src=0)
            for m in _own_modules(module):
                for b in m._buffers.values():
                    if b is not None:
                        dist.broadcast(b, src=0)
        self._numel = offset
        w = self.world_size
        self._shard_numel = (offset + w - 1) // w
        full = torch.zeros(self._shard_numel * w)
        with torch.no_grad():
            for m, pname, shape, off, n, p in self._slots:
                full[off:off + n] = p.detach().reshape(-1)
        self._slots = [s[:5] + (None,) for s in self._slots]  # not the original tensors
        # Every rank must have built the same model: compare the sizes once
        # (the per-step collectives skip the cross-rank check).
        sizes = torch.tensor([offset, len(self._slots)], dtype=torch.int64)
        every = torch.zeros(2 * self.world_size, dtype=torch.int64)
        dist.all_gather_into_tensor(every, sizes)
        for r in range(self.world_size):
            if every[2 * r:2 * r + 2].tolist() != sizes.tolist():
                raise RuntimeError(f"FullyShardedDataParallel: rank {r} has {every[2 * r].item()} "
                                   f"parameter elements in {every[2 * r + 1].item()} tensors, "
                                   f"rank {self.rank} has {offset} in {len(self._slots)}; every "
                                   "rank must wrap the same model")
        k = self._shard_numel
        self._flat = None  # the full flat vector (bytes present only while unsharded)
        if offset:
            shard = nn.Parameter(full[self.rank * k:(self.rank + 1) * k].clone())
            for m, pname, *_ in self._slots:
                del m._parameters[pname]
            module.register_parameter(FLAT_PARAM, shard)
            self._flat = _C._dist_flat_new(k * w)
            _C._dist_flat_free(self._flat)
            self._show_empty()
        self._is_root = None

    # ---- the flat vector ----

    @property
    def module(self):
        """The wrapped module (like DistributedDataParallel's)."""
        return self._fsdp_wrapped_module

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._fsdp_wrapped_module, name)

    def _shard(self):
        return self._fsdp_wrapped_module._parameters.get(FLAT_PARAM)

    def _gather(self):
        """Bring the full flat vector's bytes back and all-gather into them."""
        if not _C._dist_flat_allocated(self._flat):
            _C._dist_flat_gather(self._flat, self._shard().detach())
        return self._flat

    def _free(self):
        if self._flat is not None and _C._dist_flat_allocated(self._flat):
            _C._dist_flat_free(self._flat)
        self._show_empty()

    def _show_empty(self):
        # Between uses the module's weights are empty tensors, as PyTorch's
        # are while the flat parameter is sharded.
        for m, pname, *_ in self._slots:
            m.__dict__[pname] = torch.empty(0)

    def _show(self, full):
        for m, pname, shape, off, n, _ in self._slots:
            m.__dict__[pname] = full[off:off + n].view(shape)

    def _reduce_grad(self, grad_full):
        """The full gradient, averaged over ranks: this rank's slice."""
        g = grad_full.contiguous()
        out = torch.empty(self._shard_numel)
        _C._dist_flat_reduce_scatter(out, g)
        del g, grad_full
        self._free()
        return out

    def _pre_backward(self, grad):
        if self._flat is not None and not _C._dist_flat_allocated(self._flat):
            self._gather()

    # ---- forward ----

    def forward(self, *args, **kwargs):
        if self._shard() is None:
            return self._fsdp_wrapped_module(*args, **kwargs)
        shard = self._shard()
        grad = _C.is_grad_enabled() and shard.requires_grad
        if grad:
            full = _Unshard.apply(shard, self)
        else:
            full = self._gather()
        self._show(full)
        try:
            out = self._fsdp_wrapped_module(*args, **kwargs)
        except BaseException:
            self._free()  # a failed forward leaves nothing gathered
            raise
        self._show_empty()
        if not grad:
            self._free()
        elif self.sharding_strategy is ShardingStrategy.FULL_SHARD:
            self._free()
            for t in _tensors(out):
                if t.requires_grad:
                    t.register_hook(self._pre_backward)
        return out

    # ---- the full model ----

    def _units(self):
        return [m for m in self.modules() if isinstance(m, FullyShardedDataParallel)]

    @contextlib.contextmanager
    def summon_full_params(self, module=None, recurse=True, writeback=True, rank0_only=False,
                           offload_to_cpu=False, with_grads=False):
        """Inside: every unit's module holds its full parameters (plain tensors);
        with writeback, changes to them are copied back into the shards."""
        units = self._units() if recurse else [self]
        for u in units:
            if u._flat is not None:
                with torch.no_grad():
                    u._show(u._gather())
        try:
            yield
        finally:
            for u in units:
                if u._flat is None:
                    continue
                if writeback:
                    with torch.no_grad():
                        for m, pname, shape, off, n, _ in u._slots:
                            u._flat[off:off + n] = m.__dict__[pname].reshape(-1)
                        k = u._shard_numel
                        u._shard().data.copy_(u._flat[u.rank * k:(u.rank + 1) * k])
                u._free()

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """The full model under its original names (StateDictType.FULL_STATE_DICT):
        every rank gathers every unit."""
        out = OrderedDict()
        with self.summon_full_params(writeback=False):
            for name, t in self._fsdp_wrapped_module.named_buffers():
                out[name.replace(FSDP_PREFIX, "")] = t
            for u in self._units():
                base = _unit_prefix(self, u)
                for m, pname, shape, off, n, _ in u._slots:
                    out[base + _path(u._fsdp_wrapped_module, m) + pname] = \
                        m.__dict__[pname].detach().clone()
        order = getattr(self, "_names_in_order", None)
        if order and set(order) == set(out):
            out = OrderedDict((k, out[k]) for k in order)
        dest = destination if destination is not None else OrderedDict()
        for k, v in out.items():
            dest[prefix + k] = v if keep_vars else v.detach()
        return dest

    def load_state_dict(self, state_dict, strict=True):
        """Load a full state dict (the form state_dict() gives: original
        names, full tensors) into every unit's shard and the buffers."""
        expected = set()
        missing = []
        with torch.no_grad():
            for u in self._units():
                base = _unit_prefix(self, u)
                k = u._shard_numel
                if u._flat is None:
                    continue
                full = torch.zeros(k * u.world_size)
                shard = u._shard()
                full[u.rank * k:(u.rank + 1) * k] = shard.detach()
                for m, pname, shape, off, n, _ in u._slots:
                    key = base + _path(u._fsdp_wrapped_module, m) + pname
                    expected.add(key)
                    if key not in state_dict:
                        missing.append(key)
                        continue
                    v = state_dict[key]
                    if tuple(v.shape) != shape:
                        raise RuntimeError(f"Error(s) in loading state_dict for "
                                           f"FullyShardedDataParallel:\n\tsize mismatch for "
                                           f"{key}: copying a param with shape {tuple(v.shape)} "
                                           f"from checkpoint, the shape in current model is "
                                           f"{torch.Size(shape)}.")
                    full[off:off + n] = v.reshape(-1)
                shard.copy_(full[u.rank * k:(u.rank + 1) * k])
            for name, b in self._fsdp_wrapped_module.named_buffers():
                key = name.replace(FSDP_PREFIX, "")
                expected.add(key)
                if key in state_dict:
                    b.copy_(state_dict[key])
                else:
                    missing.append(key)
        unexpected = [k for k in state_dict if k not in expected]
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append("Missing key(s) in state_dict: " +
                             ", ".join(f'"{k}"' for k in missing) + ". ")
            if unexpected:
                parts.append("Unexpected key(s) in state_dict: " +
                             ", ".join(f'"{k}"' for k in unexpected) + ". ")
            raise RuntimeError("Error(s) in loading state_dict for FullyShardedDataParallel:"
                               "\n\t" + "\n\t".join(parts))
        return _IncompatibleKeys(missing, unexpected)

    @torch.no_grad()
    def clip_grad_norm_(self, max_norm, norm_type=2.0):
        """Clip the gradients of the whole model (every rank's shards) to
        [max_norm]; returns the total norm, as torch.nn.utils.clip_grad_norm_
        would on the unsharded model."""
        max_norm, norm_type = float(max_norm), float(norm_type)
        grads = [p.grad for p in self.parameters() if p.grad is not None]
        if norm_type == float("inf"):
            local = max([g.abs().max() for g in grads], default=torch.tensor(0.0))
            total = torch.tensor([float(local)])
            dist.all_reduce(total, op=dist.ReduceOp.MAX)
            total = total[0]
        else:
            local = sum(float(g.abs().pow(norm_type).sum()) for g in grads)
            total = torch.tensor([local])
            dist.all_reduce(total)
            total = total[0] ** (1.0 / norm_type)
        coef = max_norm / (float(total) + 1e-6)
        if coef < 1:
            for g in grads:
                g.mul_(coef)
        return total

    def extra_repr(self):
        return (f"sharding_strategy={self.sharding_strategy.name}, rank {self.rank} of "
                f"{self.world_size} keeps {self._shard_numel if self._numel else 0} of "
                f"{self._numel} parameter elements")


def _tensors(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _tensors(o)]
    if isinstance(out, dict):
        return [t for o in out.values() for t in _tensors(o)]
    return []


def _path(root, target):
    """The dotted prefix of [target] under [root] (FSDP wrappers removed)."""
    for name, m in root.named_modules():
        if m is target:
            name = name.replace(FSDP_PREFIX, "")
            name = name.replace("." + FSDP_WRAPPED_MODULE, "").replace(FSDP_WRAPPED_MODULE, "")
            return name + "." if name else ""
    raise RuntimeError("FSDP: module not found")


def _unit_prefix(root, unit):
    if unit is root:
        return ""
    return _path(root._fsdp_wrapped_module, unit)

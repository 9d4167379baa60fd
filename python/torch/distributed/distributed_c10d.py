"""torch.distributed's functions over MPI (the engine's nn_dist, loaded with
dlopen on init_process_group).

nndb has one backend, "mpi", and one process group: every rank mpirun
started (MPI_COMM_WORLD). Launch a script with

    mpirun -np 2 nndb python train.py

The functions keep PyTorch's signatures and return values (None, or a Work
handle with async_op=True); the work is done by torch._C._dist_* kernels
(binding/py_dist.c). Tensors must be contiguous float32, float64 or int64.
Before each collective the ranks compare dtype, shape and which collective
they are in, so a mismatch is an error on every rank, and every wait has a
deadline (the group's timeout), so a rank that never comes gives an error
naming it, not a hang.
"""

import datetime
import pickle
import sys

import torch
from torch import _C

__all__ = [
    "Backend", "ReduceOp", "reduce_op", "ProcessGroup", "group", "GroupMember",
    "is_available", "is_mpi_available", "is_gloo_available", "is_nccl_available",
    "is_ucc_available", "is_torchelastic_launched", "init_process_group", "is_initialized",
    "destroy_process_group", "get_rank", "get_world_size", "get_backend", "new_group",
    "barrier", "all_reduce", "broadcast", "all_gather", "all_gather_into_tensor", "reduce",
    "reduce_scatter", "reduce_scatter_tensor", "gather", "scatter", "send", "recv",
    "isend", "irecv", "P2POp", "batch_isend_irecv",
    "all_gather_object", "broadcast_object_list", "default_pg_timeout",
]

default_pg_timeout = datetime.timedelta(seconds=300)


class Backend(str):
    """The name of a backend; nndb's one is MPI."""
    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend name must be a string, but got: {name}")
        return str.__new__(cls, name.lower())


class ReduceOp:
    """How all_reduce, reduce and reduce_scatter combine the ranks' values:
    ReduceOp.SUM, AVG (float tensors), MAX, MIN, PRODUCT."""

    _NAMES = ("SUM", "AVG", "MAX", "MIN", "PRODUCT")

    def __init__(self, op):
        if isinstance(op, ReduceOp):
            op = op._op
        if op not in range(len(self._NAMES)):
            raise ValueError(f"ReduceOp: unknown op {op!r}")
        self._op = op

    def __index__(self):
        return self._op

    def __int__(self):
        return self._op

    def __eq__(self, other):
        if isinstance(other, ReduceOp):
            return self._op == other._op
        return NotImplemented

    def __hash__(self):
        return hash(self._op)

    @property
    def name(self):
        return self._NAMES[self._op]


for _i, _n in enumerate(ReduceOp._NAMES):
    setattr(ReduceOp, _n, ReduceOp(_i))
del _i, _n


class _ReduceOpDeprecated:
    """torch.distributed.reduce_op, the deprecated spelling of ReduceOp."""

    def __getattr__(self, name):
        import warnings
        warnings.warn("torch.distributed.reduce_op is deprecated, please use "
                      "torch.distributed.ReduceOp instead")
        return getattr(ReduceOp, name)


reduce_op = _ReduceOpDeprecated()


class ProcessGroup:
    """The one process group: every rank (MPI_COMM_WORLD)."""

    def rank(self):
        return _C._dist_rank()

    def size(self):
        return _C._dist_world_size()

    def name(self):
        return "mpi"

    def __repr__(self):
        return f'ProcessGroup(WORLD: ranks 0..{_C._dist_world_size() - 1}, backend "mpi")'


class GroupMember:
    """dist.group.WORLD (None until init_process_group, as in PyTorch)."""
    WORLD = None
    NON_GROUP_MEMBER = object()


group = GroupMember


def is_available():
    return True


def is_mpi_available():
    return True


def is_gloo_available():
    return False


def is_nccl_available():
    return False


def is_ucc_available():
    return False


def is_torchelastic_launched():
    return False


def is_initialized():
    """True after init_process_group (and before destroy_process_group)."""
    return _C._dist_is_initialized()


def _need_group():
    if not _C._dist_is_initialized():
        raise RuntimeError("Default process group has not been initialized, please make sure "
                           "to call init_process_group.")


def _check_group(fn, g):
    if g is None or isinstance(g, ProcessGroup):
        return
    raise TypeError(f"{fn}(): group must be None, dist.group.WORLD or a new_group() of every "
                    f"rank, not {type(g).__name__}")


def _seconds(timeout):
    if timeout is None:
        return 0.0
    if isinstance(timeout, datetime.timedelta):
        timeout = timeout.total_seconds()
    timeout = float(timeout)
    if not timeout > 0:
        raise ValueError("init_process_group: timeout must be > 0 seconds")
    return timeout


def _excepthook(kind, value, tb, _previous=sys.excepthook):
    # An uncaught error on one rank would leave the others waiting in their
    # next collective until the timeout: print it, then end every rank.
    _previous(kind, value, tb)
    if _C._dist_is_initialized():
        sys.stderr.write(f"nndb: rank {_C._dist_rank()} of {_C._dist_world_size()} failed; "
                         "ending every rank (MPI_Abort)\n")
        sys.stderr.flush()
        _C._dist_abort(1)


def _debugger_stop(where):
    """The debugger's note before its prompt: [where] it stopped ("at
    forward linear in model.0, train.py:4"), or None when the prompt is
    over. While it is set, another rank whose collective times out says
    this rank is in the debugger, and where. Returns the line to show the
    user (the other ranks wait), or None outside a group of 2 or more."""
    if not _C._dist_is_initialized() or _C._dist_world_size() < 2:
        return None
    _C._dist_set_stopped(where)
    if where is None:
        return None
    return (f"(rank {_C._dist_rank()} of {_C._dist_world_size()} is stopped; the other ranks "
            f"wait for it at their next collective and fail after {_C._dist_timeout():g} s, the "
            "group's timeout, saying this rank is in the debugger)\n")


def init_process_group(backend=None, init_method=None, timeout=default_pg_timeout,
                       world_size=-1, rank=-1, store=None, group_name="", pg_options=None):
    """Join the process group mpirun started: rank and world size come from
    MPI (Open MPI, loaded now). [timeout] (a timedelta or seconds; default
    300 s, or NNDB_DIST_TIMEOUT) bounds every wait for another rank."""
    if _C._dist_is_initialized():
        raise RuntimeError("trying to initialize the default process group twice!")
    name = str(backend).lower() if backend is not None else None
    if name != "mpi":
        shown = f'"{backend}"' if backend is not None else "None"
        raise ValueError(f"init_process_group(backend={shown}): nndb has one backend, \"mpi\" "
                         "(Open MPI; no gloo or nccl). Use init_process_group(backend=\"mpi\") "
                         "and launch with mpirun -np 2 nndb python script.py")
    t = 0.0 if timeout is default_pg_timeout else _seconds(timeout)
    _C._dist_init(t)
    if world_size is not None and world_size >= 0 and world_size != _C._dist_world_size():
        raise ValueError(f"init_process_group: world_size={world_size} but mpirun started "
                         f"{_C._dist_world_size()} processes")
    if rank is not None and rank >= 0 and rank != _C._dist_rank():
        raise ValueError(f"init_process_group: rank={rank} but MPI says this process is rank "
                         f"{_C._dist_rank()}")
    GroupMember.WORLD = ProcessGroup()
    if sys.excepthook is not _excepthook:
        sys.excepthook = _excepthook


def destroy_process_group(group=None):
    """Leave the process group (MPI_Finalize; MPI cannot be joined again in
    this process)."""
    _check_group("destroy_process_group", group)
    if _C._dist_is_initialized():
        _C._dist_destroy()
    GroupMember.WORLD = None


def get_rank(group=None):
    _check_group("get_rank", group)
    _need_group()
    return _C._dist_rank()


def get_world_size(group=None):
    _check_group("get_world_size", group)
    _need_group()
    return _C._dist_world_size()


def get_backend(group=None):
    _check_group("get_backend", group)
    _need_group()
    return Backend.MPI


def new_group(ranks=None, timeout=default_pg_timeout, backend=None, pg_options=None):
    """nndb has one process group, of every rank: ranks=None, or every rank
    once in any order, gives it; a subgroup is an error."""
    _need_group()
    world = _C._dist_world_size()
    if ranks is not None:
        ranks = list(ranks)
        if sorted(ranks) != list(range(world)):
            raise ValueError(f"new_group(ranks=...): nndb has one process group, of all {world} "
                             "ranks; subgroups are not supported (pass ranks=None, or every "
                             "rank once)")
    return GroupMember.WORLD


def _mode(fn, group, async_op, async_ok):
    _check_group(fn, group)
    if async_op and not async_ok:
        raise ValueError(f"{fn}(): async_op=True is not supported here; nndb has it for "
                         "all_reduce, broadcast, barrier, all_gather_into_tensor and "
                         "reduce_scatter_tensor")
    _need_group()
    return bool(async_op)


def _tensor(fn, what, t):
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{fn}(): argument '{what}' must be Tensor, not {type(t).__name__}")
    return t


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank gets here."""
    return _C._dist_barrier(_mode("barrier", group, async_op, True))


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce [tensor] across ranks, in place, on every rank."""
    a = _mode("all_reduce", group, async_op, True)
    return _C._dist_all_reduce(_tensor("all_reduce", "tensor", tensor), op, a)


def broadcast(tensor, src, group=None, async_op=False):
    """Copy rank [src]'s tensor into every rank's, in place."""
    a = _mode("broadcast", group, async_op, True)
    return _C._dist_broadcast(_tensor("broadcast", "tensor", tensor), src, a)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Concatenate every rank's input_tensor into output_tensor (world_size
    times as many elements), rank-major."""
    a = _mode("all_gather_into_tensor", group, async_op, True)
    return _C._dist_all_gather_into(_tensor("all_gather_into_tensor", "output_tensor",
                                            output_tensor),
                                    _tensor("all_gather_into_tensor", "input_tensor",
                                            input_tensor), a)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce [input] (world_size blocks) across ranks; rank r gets block r."""
    a = _mode("reduce_scatter_tensor", group, async_op, True)
    return _C._dist_reduce_scatter(_tensor("reduce_scatter_tensor", "output", output),
                                   _tensor("reduce_scatter_tensor", "input", input), op, a)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce [tensor] across ranks into rank [dst]'s (in place there)."""
    _mode("reduce", group, async_op, False)
    _C._dist_reduce(_tensor("reduce", "tensor", tensor), dst, op)


def _check_list(fn, tensors, like):
    world = _C._dist_world_size()
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{fn}(): expected a list of tensors, got {type(tensors).__name__}")
    if len(tensors) != world:
        raise ValueError(f"{fn}(): the list must hold world_size ({world}) tensors, it holds "
                         f"{len(tensors)}")
    for k, t in enumerate(tensors):
        if (not isinstance(t, torch.Tensor) or t.dtype != like.dtype
                or t.numel() != like.numel()):
            raise RuntimeError(f"{fn}(): item {k} of the list must be a {like.dtype} tensor of "
                               f"{like.numel()} elements, like the input")


def _flat(tensors):
    return torch.cat([t.detach().reshape(-1) for t in tensors])


def _unflatten_into(flat, tensors):
    n = flat.numel() // len(tensors)
    with torch.no_grad():
        for k, t in enumerate(tensors):
            t.copy_(flat[k * n:(k + 1) * n].view(t.shape))


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """tensor_list[r] gets rank r's tensor, on every rank."""
    _mode("all_gather", group, async_op, False)
    _tensor("all_gather", "tensor", tensor)
    _check_list("all_gather", tensor_list, tensor)
    flat = torch.empty(tensor.numel() * len(tensor_list), dtype=tensor.dtype)
    _C._dist_all_gather_into(flat, tensor.detach().contiguous(), False)
    _unflatten_into(flat, tensor_list)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """[output] gets the reduction of every rank's input_list[rank]."""
    _mode("reduce_scatter", group, async_op, False)
    _tensor("reduce_scatter", "output", output)
    _check_list("reduce_scatter", input_list, output)
    result = torch.empty(output.numel(), dtype=output.dtype)
    _C._dist_reduce_scatter(result, _flat(input_list), op, False)
    with torch.no_grad():
        output.copy_(result.view(output.shape))


def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):
    """Rank [dst]'s gather_list[r] gets rank r's tensor."""
    _mode("gather", group, async_op, False)
    _tensor("gather", "tensor", tensor)
    here = _C._dist_rank() == dst
    flat = None
    if here:
        if gather_list is None:
            raise ValueError("gather(): the destination rank needs a gather_list")
        _check_list("gather", gather_list, tensor)
        flat = torch.empty(tensor.numel() * len(gather_list), dtype=tensor.dtype)
    _C._dist_gather(flat, tensor.detach().contiguous(), dst)
    if here:
        _unflatten_into(flat, gather_list)


def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):
    """Rank r's tensor gets rank [src]'s scatter_list[r]."""
    _mode("scatter", group, async_op, False)
    _tensor("scatter", "tensor", tensor)
    flat = None
    if _C._dist_rank() == src:
        if scatter_list is None:
            raise ValueError("scatter(): the source rank needs a scatter_list")
        _check_list("scatter", scatter_list, tensor)
        flat = _flat(scatter_list).contiguous()
    _C._dist_scatter(tensor, flat, src)


# ---- point to point ----
# MPI matches a receive with the first message from its source (any rank
# when src is None) carrying the same tag, in the order they were sent, as
# gloo does. Every handle is a Work: wait(), is_completed(), source_rank().

def _check_single_tensor(param, param_name):
    # PyTorch's check and words (distributed_c10d._check_single_tensor).
    if not isinstance(param, torch.Tensor):
        raise RuntimeError(f"Invalid function argument. Expected parameter `{param_name}` "
                           "to be of type torch.Tensor.")


def _p2p_tensor(fn, tensor, group):
    _check_single_tensor(tensor, "tensor")
    _check_group(fn, group)
    _need_group()
    if not tensor.is_contiguous():
        raise RuntimeError("input tensor has to be contiguous")
    return tensor


def _peer(peer, what):
    if isinstance(peer, bool) or not isinstance(peer, int):
        try:
            peer = peer.__index__()
        except AttributeError:
            raise TypeError(f"{what} must be an int rank, not {type(peer).__name__}") from None
    return peer


def isend(tensor, dst, group=None, tag=0):
    """Start sending [tensor] to rank [dst]; returns a Work (do not modify
    the tensor until it is done)."""
    _p2p_tensor("isend", tensor, group)
    return _C._dist_isend(tensor, _peer(dst, "dst"), tag)


def irecv(tensor, src=None, group=None, tag=0):
    """Start receiving into [tensor] from rank [src] (any rank when None);
    returns a Work (work.source_rank() says who sent it, once done)."""
    _p2p_tensor("irecv", tensor, group)
    return _C._dist_irecv(tensor, -1 if src is None else _peer(src, "src"), tag)


def send(tensor, dst, group=None, tag=0):
    """Send [tensor] to rank [dst] (blocking)."""
    _p2p_tensor("send", tensor, group)
    _C._dist_send(tensor, _peer(dst, "dst"), tag)


def recv(tensor, src=None, group=None, tag=0):
    """Receive into [tensor] from rank [src] (any rank when None), blocking;
    returns the sender's rank."""
    _p2p_tensor("recv", tensor, group)
    return _C._dist_recv(tensor, -1 if src is None else _peer(src, "src"), tag)


def _check_op(op):
    if op not in [isend, irecv]:
        raise RuntimeError("Invalid ``op``. Expected ``op`` to be of type "
                           "``torch.distributed.isend`` or ``torch.distributed.irecv``.")


class P2POp:
    """One operation for batch_isend_irecv: op is dist.isend or dist.irecv,
    then the tensor, the peer rank, the group and the tag."""

    def __new__(cls, op, tensor, peer, group=None, tag=0):
        _check_op(op)
        _check_single_tensor(tensor, "tensor")
        return object.__new__(cls)

    def __init__(self, op, tensor, peer, group=None, tag=0):
        self.op = op
        self.tensor = tensor
        self.peer = peer
        self.group = group
        self.tag = tag

    def __repr__(self):
        return (f"P2POp({self.op.__name__}, {tuple(self.tensor.shape)} {self.tensor.dtype}, "
                f"peer={self.peer}, tag={self.tag})")


def batch_isend_irecv(p2p_op_list):
    """Start every isend and irecv of [p2p_op_list] (P2POp items) at once and
    return their Works in the same order. All start before any is waited
    for, so a ring (each rank sending right and receiving from the left)
    cannot deadlock."""
    if not isinstance(p2p_op_list, list) or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise RuntimeError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                           "``torch.distributed.P2POp``.")
    group = p2p_op_list[0].group
    if not all(group == p.group for p in p2p_op_list):
        raise RuntimeError("All ops need to use the same group.")
    return [p.op(p.tensor, p.peer, p.group, p.tag) for p in p2p_op_list]


# ---- Python objects, pickled into int64 tensors (the dtypes MPI moves here) ----

def _to_tensor(obj):
    data = pickle.dumps(obj)
    return torch.tensor(list(data), dtype=torch.int64), len(data)


def _from_tensor(t, n):
    return pickle.loads(bytes(t[:n].tolist()))


def all_gather_object(object_list, obj, group=None):
    """object_list[r] gets rank r's (picklable) obj, on every rank."""
    _mode("all_gather_object", group, False, False)
    world = _C._dist_world_size()
    if len(object_list) != world:
        raise ValueError(f"all_gather_object(): object_list must hold world_size ({world}) "
                         f"items, it holds {len(object_list)}")
    data, n = _to_tensor(obj)
    sizes = torch.zeros(world, dtype=torch.int64)
    _C._dist_all_gather_into(sizes, torch.tensor([n], dtype=torch.int64), False)
    most = int(sizes.max().item())
    padded = torch.zeros(most, dtype=torch.int64)
    padded[:n] = data
    flat = torch.zeros(most * world, dtype=torch.int64)
    _C._dist_all_gather_into(flat, padded, False)
    for r in range(world):
        object_list[r] = _from_tensor(flat[r * most:(r + 1) * most], int(sizes[r].item()))


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """Every rank's object_list gets rank [src]'s items (picklable)."""
    _mode("broadcast_object_list", group, False, False)
    here = _C._dist_rank() == src
    data, n = _to_tensor(list(object_list) if here else None)
    size = torch.tensor([n], dtype=torch.int64)
    _C._dist_broadcast(size, src, False)
    buf = data if here else torch.zeros(int(size.item()), dtype=torch.int64)
    _C._dist_broadcast(buf, src, False)
    if not here:
        items = _from_tensor(buf, int(size.item()))
        for k in range(min(len(object_list), len(items))):
            object_list[k] = items[k]


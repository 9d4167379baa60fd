"""FSDP between uses: a weight's bytes are released (PyTorch resizes the flat
parameter's storage to 0), and nothing reads them. Outside forward the
module's weights are empty tensors; a tensor taken during forward (a hook
keeping the weight) and the weight autograd saved raise PyTorch's size-0
storage error on every read; backward gathers again and trains. Prints
"ok ..." lines (tests/dist/test_dist.py counts them); run under the ASan
build too."""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch._C as _C
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

dist.init_process_group(backend="mpi")
rank = dist.get_rank()
WANT = "out of bounds for storage of size 0"


def ok(what, cond):
    print(("ok " if cond else "FAIL ") + f"rank {rank}: {what}", flush=True)


def raises(what, fn):
    try:
        fn()
    except RuntimeError as e:
        ok(what, str(e).startswith("setStorage: sizes [") and WANT in str(e))
        return
    ok(what + " (did not raise)", False)


torch.manual_seed(0)
inner = nn.Sequential(nn.Linear(4, 3), nn.Tanh())
model = FSDP(inner)
kept = {}


def keep(m, i, o):
    kept["w"] = m.weight


inner[0].register_forward_hook(keep)
# x requires grad so that the linear node keeps the weight for x's gradient
# (a node keeps only what its backward reads, as PyTorch's saved tensors)
x = torch.randn(5, 4, requires_grad=True)
loss = model(x).pow(2).sum()

# outside forward: the module's weight is an empty tensor, readable
w = model.module[0].weight
ok("outside forward the weight is empty", tuple(w.shape) == (0,) and w.sum().item() == 0)
ok("outside forward it prints", repr(w) == "tensor([])")

# the weight kept from forward: a view of the released flat parameter
k = kept["w"]
ok("the kept weight keeps its shape", tuple(k.shape) == (3, 4) and k.dtype == torch.float32)
raises("sum", lambda: k.sum())
raises("print", lambda: repr(k))
raises("index", lambda: k[0, 0].item())
raises("tolist", lambda: k.tolist())
raises("numpy", lambda: k.detach().numpy())
raises("clone", lambda: k.clone())
raises("matmul", lambda: x @ k.t())
raises("copy_ into it", lambda: k.detach().copy_(torch.zeros(3, 4)))
raises("fill_", lambda: k.detach().fill_(1.0))
raises("linalg.qr (LAPACK copies)", lambda: torch.linalg.qr(k))

# the weight autograd saved for backward (what the debugger shows)
saved = [t for r in _C._graph_nodes(loss) for t in r[3]
         if t is not None and tuple(t.shape) == (3, 4)]
ok("the saved weight is in the graph", len(saved) == 1)
raises("the saved weight's sum", lambda: saved[0].sum())
raises("the saved weight's repr", lambda: repr(saved[0]))

# the debugger's rows show it as released, not its (gone) values
from nndb import debugger  # noqa: E402

row = debugger._text_row("input", "weight", saved[0])
ok("the debugger's row says the storage is released",
   "[3, 4]" in row and "storage released" in row and "mean" not in row)
ok("the debugger's statistics of it are empty", debugger._stats(saved[0])[1:] ==
   (0, None, None, None, None))

# backward gathers the bytes again: the gradient is the full model's
loss.backward()
ok("backward after all that", model.module[0].weight.numel() == 0 and
   model._fsdp_wrapped_module.flat_param.grad is not None)
with model.summon_full_params():
    full = inner[0].weight.detach().clone()
ok("summon_full_params reads the whole weight", tuple(full.shape) == (3, 4) and
   bool(torch.isfinite(full).all()))
print(f"done rank {rank}", flush=True)

# A CPU-only torch: CUDA requests fail as PyTorch's do, never quietly on
# the CPU; the CPU spellings all work.
import torch

for dev in ["cuda", "cuda:0", 0, torch.device("cuda"), "cpu", "cpu:0", torch.device("cpu"), None]:
    for make in (lambda d: torch.zeros(2, device=d), lambda d: torch.randn(2, device=d),
                 lambda d: torch.arange(3, device=d), lambda d: torch.tensor([1.0], device=d),
                 lambda d: torch.full((2,), 1.5, device=d), lambda d: torch.ones(1).to(d)):
        try:
            t = make(dev)
            print(repr(dev), "ok", t.device, t.shape)
        except Exception as e:
            print(repr(dev), type(e).__name__, e)
try:
    torch.ones(2).cuda()
except AssertionError as e:
    print("cuda():", e)
print(torch.cuda.is_available(), torch.device("cuda" if torch.cuda.is_available() else "cpu"))

# A module's device= argument is checked as a tensor's (PyTorch's CPU build
# refuses CUDA there too); to_empty(device='cpu') keeps the module.
for make in (lambda d: torch.nn.Linear(2, 2, device=d), lambda d: torch.nn.Conv2d(1, 1, 3, device=d),
             lambda d: torch.nn.LSTM(2, 2, device=d), lambda d: torch.nn.Embedding(3, 2, device=d),
             lambda d: torch.nn.LayerNorm(3, device=d), lambda d: torch.nn.Linear(2, 2).to_empty(device=d),
             lambda d: torch.nn.Linear(2, 2).to(d)):
    for dev in ["cuda", torch.device("cuda:0"), "cpu", None]:
        try:
            m = make(dev)
            print(repr(dev), "ok", type(m).__name__, [tuple(p.shape) for p in m.parameters()][:2])
        except Exception as e:
            print(repr(dev), type(e).__name__, e)

# device='meta': PyTorch makes tensors with a shape and no data; nndb has no
# meta device and refuses it, naming the limitation (docs/language-tensors.md).
# Each side checks its own behaviour and prints the same line.
try:
    import nndb  # noqa: F401
    on_nndb = True
except ImportError:
    on_nndb = False
print(torch.device("meta"), torch.device("meta").type)
for name, make in [("zeros", lambda: torch.zeros(2, device="meta")),
                   ("empty", lambda: torch.empty(2, 3, device=torch.device("meta"))),
                   ("randn", lambda: torch.randn(2, device="meta")),
                   ("tensor", lambda: torch.tensor([1.0], device="meta")),
                   ("to", lambda: torch.ones(2).to("meta")),
                   ("zeros_like", lambda: torch.zeros_like(torch.ones(2), device="meta")),
                   ("Linear", lambda: torch.nn.Linear(2, 3, device="meta").weight),
                   ("Module.to", lambda: torch.nn.Linear(2, 3).to("meta").weight),
                   ("to_empty", lambda: torch.nn.Linear(2, 3).to_empty(device="meta").weight)]:
    if on_nndb:
        try:
            make()
            handled = False
        except NotImplementedError as e:
            handled = str(e).startswith("nndb has no 'meta' device (tensors with a shape and no "
                                        "data)")
    else:
        t = make()
        handled = t.is_meta and t.device.type == "meta" and "device='meta'" in repr(t)
    print("meta", name, "as documented:", handled)

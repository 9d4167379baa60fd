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

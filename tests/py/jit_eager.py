"""torch.jit under nndb: script and trace give back the eager module or
function (trace runs it once on the example inputs), the decorators leave
methods as they are, fork/wait hand back the result; the values are
PyTorch's. torch.jit.save either writes an archive (PyTorch) or refuses,
pointing to the state_dict (nndb) -- never a silent no-op."""
import io

import torch, torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(5, 3)
sm = torch.jit.script(m)
print(torch.equal(sm(x), m(x)), isinstance(sm, nn.Module))
tm = torch.jit.trace(m, x)
print(torch.equal(tm(x), m(x)))
@torch.jit.script
def f(a, b):
    return a * 2 + b
print(f(torch.ones(2), torch.ones(2)))
class M(nn.Module):
    def __init__(self):
        super().__init__(); self.l = nn.Linear(2, 2)
    @torch.jit.ignore
    def helper(self, x):
        return x + 1
    @torch.jit.export
    def other(self, x):
        return x * 3
    def forward(self, x):
        if torch.jit.is_scripting():
            return x
        return self.helper(self.l(x))
mm = torch.jit.script(M())
print(mm.other(torch.ones(1)), torch.jit.is_tracing())
fut = torch.jit.fork(lambda a: a + 1, torch.ones(2))
print(torch.jit.wait(fut))
try:
    torch.jit.trace(m, torch.randn(5, 7))
except RuntimeError as e:
    print("trace error", str(e)[:60])

buf = io.BytesIO()
try:
    torch.jit.save(sm, buf)
    ok = buf.tell() > 0
except RuntimeError as e:
    ok = "state_dict" in str(e) and buf.tell() == 0
print("save writes or refuses:", ok)

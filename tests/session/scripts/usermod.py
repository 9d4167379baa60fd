# nn.Module subclasses: registration, module paths, forward hooks, errors.
# (The module path of each recorded op is the debugger's: %graph and a stop's
# node.module, tests/session/test_session_debug.c.)
import torch
import torch.nn as nn
class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(4, 4)
    def forward(self, x):
        self.pre = self.c_attn(x)
        return torch.tanh(self.pre)
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attn()
    def forward(self, x):
        return self.attn(x) * 2
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])
        self.scale = nn.Parameter(torch.ones(1))
    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x * self.scale
model = Model()
y = model(torch.randn(3, 4))
print(y.shape, y.grad_fn.name())  # expect: torch.Size([3, 4]) MulBackward0
# Submodules are registered where they are assigned: their paths are torch's.
print([n for n, _ in model.named_modules()])
# expect: ['', 'blocks', 'blocks.0', 'blocks.0.attn', 'blocks.0.attn.c_attn', 'blocks.1', 'blocks.1.attn', 'blocks.1.attn.c_attn']
print(model.get_submodule('blocks.1.attn.c_attn') is model.blocks[1].attn.c_attn)  # expect: True
# A forward hook sees its module, its input and its output; removed, it is gone.
outs = []
hook = model.blocks[1].register_forward_hook(lambda m, inp, out: outs.append((m, inp[0], out)))
y = model(torch.randn(3, 4))
m, inp, out = outs[0]
print(len(outs), m is model.blocks[1], out.grad_fn.name(), torch.equal(y, out * model.scale))
# expect: 1 True MulBackward0 True
print(torch.equal(model.blocks[1].attn.pre, model.blocks[1].attn.c_attn(inp)))  # expect: True
hook.remove()
_ = model(torch.randn(3, 4))
print(len(outs))  # expect: 1
print([n for n, _ in model.named_parameters()][:3])  # expect: ['scale', 'blocks.0.attn.c_attn.weight', 'blocks.0.attn.c_attn.bias']
model.scale = torch.zeros(1)  # expect error: TypeError: cannot assign 'torch.FloatTensor' as parameter 'scale' (torch.nn.Parameter or None expected)
class NoFwd(nn.Module):
    pass
NoFwd()(1)  # expect error: NotImplementedError: Module [NoFwd] is missing the required "forward" function

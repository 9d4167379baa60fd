# nn.Module subclasses: registration, repr, paths on the recorded ops.
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
print(y.grad_fn.module)  # expect: model
outs = []
hook = model.blocks[1].register_forward_hook(lambda m, inp, out: outs.append(out))
y = model(torch.randn(3, 4))
print(outs[0].grad_fn.name(), outs[0].grad_fn.module)  # expect: MulBackward0 model.blocks.1
print(model.blocks[1].attn.pre.grad_fn.module)  # expect: model.blocks.1.attn.c_attn
print(model.blocks[0].attn.pre.grad_fn.module)  # expect: model.blocks.0.attn.c_attn
hook.remove()
print([n for n, _ in model.named_parameters()][:3])  # expect: ['scale', 'blocks.0.attn.c_attn.weight', 'blocks.0.attn.c_attn.bias']
model.scale = torch.zeros(1)  # expect error: TypeError: cannot assign 'torch.FloatTensor' as parameter 'scale' (torch.nn.Parameter or None expected)
class NoFwd(nn.Module):
    pass
NoFwd()(1)  # expect error: NotImplementedError: Module [NoFwd] is missing the required "forward" function

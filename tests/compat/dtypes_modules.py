# Module dtype conversion (issue 11) on a user nn.Module subclass: half(),
# bfloat16(), to(dtype), float(); grads and float buffers follow, int buffers
# stay; a half state_dict loads into a float32 model; finfo/iinfo.
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.scale = nn.Parameter(torch.ones(3))
        self.register_buffer("steps", torch.zeros(1, dtype=torch.long))
        self.register_buffer("mean", torch.zeros(3))

    def forward(self, x):
        return self.fc(x) * self.scale

net = Net()
out = net(torch.ones(2, 4)).sum()
out.backward()
net.bfloat16()
for name, p in net.named_parameters():
    print(name, p.dtype, p.grad.dtype, p.element_size() * p.nelement())
for name, b in net.named_buffers():
    print(name, b.dtype)
print(net(torch.ones(2, 4, dtype=torch.bfloat16)).dtype)
net.half()
print(net.scale.dtype, net.fc.weight.dtype, net.steps.dtype)
net.to(torch.float64)
print(net.scale.dtype, net.fc.bias.dtype, net.mean.dtype)
net.float()
print(sum(p.element_size() * p.nelement() for p in net.parameters()))
try:
    net.to(torch.int32)
except TypeError as e:
    print("TypeError:", e)
sd = net.half().state_dict()
print({k: v.dtype for k, v in sd.items()})
net2 = Net()
net2.load_state_dict(sd)
print(net2.scale.dtype, torch.equal(net2.fc.weight, net.fc.weight.float()))
print(torch.finfo(torch.float16), torch.finfo(torch.bfloat16))
print(torch.finfo(torch.float32), torch.iinfo(torch.int8), torch.iinfo(torch.uint8))
print(torch.finfo(torch.float16).eps, torch.finfo(torch.bfloat16).tiny, torch.finfo(torch.float32).max)
print(torch.finfo().bits, torch.iinfo(torch.int32).max, torch.iinfo(torch.int64).min, torch.finfo(torch.float64).eps)

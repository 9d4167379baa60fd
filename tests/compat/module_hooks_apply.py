# Hooks, apply, modules(): what lessons on activations do.
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))

    def forward(self, x):
        return self.layers(x)

net = Net()
shapes = []
def record(module, inputs, output):
    shapes.append((type(module).__name__, tuple(output.shape)))
handles = [m.register_forward_hook(record) for m in net.modules() if isinstance(m, Net)]
out = net(torch.ones(3, 4))
print(shapes)
for h in handles:
    h.remove()
net(torch.ones(3, 4))
print(len(shapes))
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
net.apply(init_weights)
print(net(torch.ones(1, 4)).tolist())
pre = []
def pre_hook(module, inputs):
    pre.append(inputs[0].shape[0])
    return (inputs[0] * 2,)
h = net.register_forward_pre_hook(pre_hook)
print(round(net(torch.ones(5, 4)).sum().item(), 4), pre)
h.remove()
print([n for n, _ in net.named_modules()])
net.eval()
print(net.training, net.layers.training)
net.train()
print(net.training)

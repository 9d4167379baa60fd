# Small MLPs trained with Adam, as course code writes them: the losses, the
# parameters and the gradients after the last step must be PyTorch's bit for
# bit (sha256 of their bytes). The layers with 2 or 3 inputs or outputs run
# on the engine's small products (their own kernels, in OpenBLAS's order),
# the 64x64 ones on its tiles; odd widths and batches leave partial vectors.
import hashlib

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


def run(sizes, batch, steps):
    torch.manual_seed(0)
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.Tanh())
    model = nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x = torch.randn(batch, sizes[0])
    y = torch.randint(0, sizes[-1], (batch,))
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    h = hashlib.sha256()
    for p in model.parameters():
        h.update(p.detach().numpy().tobytes())
        h.update(p.grad.numpy().tobytes())
    print(sizes, batch, f"first {losses[0]:.8f} last {losses[-1]:.8f}", h.hexdigest()[:24])


run([2, 64, 64, 3], 64, 200)
run([2, 37, 3], 33, 100)
run([3, 20, 70, 2], 17, 100)
run([5, 64, 7], 100, 50)
run([2, 16, 16, 16, 3], 5, 100)

# Train a 2-64-64-3 MLP on three spirals with Adam; the loss falls from ln 3 to near 0.
# Run: build/nndb run examples/train_mlp.py   (the notebook: train_mlp.ipynb)
import torch
import torch.nn.functional as F

from nndb.data import spirals
from nndb.models import MLP, num_params
from nndb.plot import plot

torch.manual_seed(0)
ds = spirals(300, classes=3, noise=0.2, seed=0)
print(ds.x.shape, ds.y.shape)
model = MLP([2, 64, 64, 3], act='tanh')
print(model)
print(num_params(model))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for step in range(300):
    loss = F.cross_entropy(model(ds.x), ds.y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if step % 100 == 0:
        print(f"step {step:3d}  loss {loss.item():.4f}")
plot(losses, title='training loss', xlabel='step', ylabel='cross-entropy', logy=True)
with torch.no_grad():
    acc = (model(ds.x).argmax(dim=1) == ds.y).float().mean().item()
print(f"final loss {losses[-1]:.4f}  accuracy {acc:.3f}")

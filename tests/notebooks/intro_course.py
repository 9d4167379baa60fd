# %% [markdown]
# # A first PyTorch notebook, as an introductory course writes it
# Tensors and numpy, autograd, a linear regression fitted by hand and with
# nn.Linear, a plot of the fit, a small classifier's confusion matrix.

# %%
import numpy as np
import torch
import torch.nn as nn
import matplotlib.pyplot as plt
%matplotlib inline
torch.__version__.split('+')[0][:2], np.__version__ > '1'

# %%
a = np.array([[1, 2], [3, 4]])
t = torch.from_numpy(a)
t, t.dtype, torch.tensor(a.tolist()).dtype

# %%
t.numpy() is a, np.shares_memory(t.numpy(), a)

# %%
b = torch.ones(2, 3) * 2
b.numpy(), np.asarray(b).sum(), np.mean(b.numpy(), axis=0)

# %%
x = torch.linspace(-1, 1, 5)
x, x ** 2, x.exp(), torch.where(x > 0, x, torch.zeros_like(x))

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x ** 2 + 2 * x + 1
y.backward()
x.grad, y, y.grad_fn

# %%
torch.manual_seed(0)
X = torch.linspace(0, 1, 50).unsqueeze(1)
Y = 3 * X + 0.5 + 0.1 * torch.randn(50, 1)
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(200):
    pred = X * w + b
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if epoch % 50 == 0:
        print(f"epoch {epoch:3d} loss {loss.item():.4f}")
w, b

# %%
plt.scatter(X.numpy(), Y.numpy(), s=8, label='data')
plt.plot(X.numpy(), (X * w + b).detach().numpy(), 'r-', label='fit')
plt.legend(); plt.xlabel('x'); plt.ylabel('y');

# %%
model = nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
losses = []
for epoch in range(100):
    loss = nn.functional.mse_loss(model(X), Y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print(f"final loss {losses[-1]:.5f}")
model.weight.data, model.bias.data

# %%
fig, ax = plt.subplots()
ax.plot(np.arange(len(losses)), np.log10(losses))
ax.set_title('log10 loss'); ax.grid(True)

# %%
torch.manual_seed(1)
centers = torch.tensor([[2., 0.], [-2., 0.], [0., 2.]])
labels = torch.randint(0, 3, (300,))
pts = centers[labels] + 0.6 * torch.randn(300, 2)
clf = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.Adam(clf.parameters(), lr=0.05)
for step in range(100):
    loss = nn.CrossEntropyLoss()(clf(pts), labels)
    opt.zero_grad(); loss.backward(); opt.step()
pred = clf(pts).argmax(dim=1)
acc = (pred == labels).float().mean()
print(f"accuracy {acc:.3f}")
cm = np.zeros((3, 3), dtype=int)
for t_, p_ in zip(labels.numpy(), pred.numpy()):
    cm[t_, p_] += 1
cm

# %%
plt.imshow(cm, cmap='Blues')
plt.colorbar()
for i in range(3):
    for j in range(3):
        plt.text(j, i, cm[i, j], ha='center', va='center')

# %%
xx, yy = np.meshgrid(np.linspace(-4, 4, 60), np.linspace(-3, 4, 60))
grid = torch.tensor(np.c_[xx.ravel(), yy.ravel()], dtype=torch.float32)
with torch.no_grad():
    zz = clf(grid).argmax(1).reshape(xx.shape)
plt.contourf(xx, yy, zz, alpha=0.3)
plt.scatter(pts[:, 0], pts[:, 1], c=labels, s=5);

# %%
zz.shape, zz.dtype, np.bincount(zz.numpy().ravel(), minlength=3).sum()

# %%
arr = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
ta = torch.as_tensor(arr)
ta.mean(0), torch.tensor(arr).std(), arr.dtype, ta.dtype

# %%
torch.ones(3) + np.float32(2.5), (torch.arange(4) * np.int64(3)), np.float64(1.5) * torch.ones(2)

# %%
torch.tensor([1, 2, 3]).float() / torch.tensor([2, 0, 4])

# %%
torch.zeros(2, 3) @ torch.zeros(4, 2)

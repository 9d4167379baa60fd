# %% [markdown]
# # Looking at activations: histograms, subplots, loss curves
# The plots a course draws of tensors, passed to matplotlib as they are.

# %%
import torch
import torch.nn.functional as F
import matplotlib.pyplot as plt
%matplotlib inline

# %%
g = torch.Generator().manual_seed(42)
x = torch.randn(1000, 10, generator=g)
w = torch.randn(10, 200, generator=g) * 0.2
hpreact = x @ w
h = torch.tanh(hpreact)
h.shape, hpreact.std().item() > 0

# %%
plt.hist(h.view(-1).tolist(), 50);

# %%
counts, edges, patches = plt.hist(hpreact.view(-1).tolist(), 30)
counts[:5], len(edges)

# %%
plt.figure(figsize=(20, 10))
plt.imshow(h[:40].abs() > 0.99, cmap='gray', interpolation='nearest')

# %%
fig, axs = plt.subplots(1, 2, figsize=(10, 4))
axs[0].hist(hpreact.view(-1).tolist(), 50)
axs[0].set_title('pre-activation')
axs[1].hist(h.view(-1).tolist(), 50)
axs[1].set_title('tanh')
fig.tight_layout()

# %%
hist, bin_edges = torch.histogram(h.view(-1), bins=10)
hist, bin_edges

# %%
lossi = []
for i in range(200):
    lossi.append(3.0 * (0.98 ** i) + 0.1 * ((i * 7919) % 13) / 13)
plt.plot(lossi)

# %%
plt.plot(torch.tensor(lossi).view(-1, 10).mean(1))

# %%
plt.figure(figsize=(8, 3))
legends = []
for i, t in enumerate([x, hpreact, h]):
    hy, hx = torch.histogram(t.view(-1), bins=40, density=True)
    plt.plot(hx[:-1].detach(), hy.detach())
    legends.append(f'layer {i}: mean {t.mean():+.2f}, std {t.std():.2f}')
plt.legend(legends);
plt.title('activation distribution')
legends

# %%
%config InlineBackend.figure_format = 'svg'
plt.plot([1, 2, 3], [3, 1, 2], 'o-')
plt.title('svg figure')

# %%
%config InlineBackend.figure_format = 'png'
fig, ax = plt.subplots()
ax.scatter(x[:, 0], x[:, 1], s=4)
ax.set_aspect('equal')

# %% tags=["shape"]
# No seed: the values differ from run to run, so only the shape of the output is compared.
torch.randn(3, 4)

# %%
for k in range(2):
    plt.figure()
    plt.plot(torch.arange(10) ** (k + 1))
plt.show()
print('two figures above')

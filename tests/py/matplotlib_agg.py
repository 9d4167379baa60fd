# matplotlib draws tensors (through NumPy's array protocol) with the Agg
# back end, as course notebooks do.
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402

torch.manual_seed(0)
xs = torch.linspace(-3, 3, 7)
fig, ax = plt.subplots(figsize=(4, 3))
(line,) = ax.plot(xs, torch.tanh(xs), label="tanh")
ax.hist(torch.randn(100).numpy(), bins=5)
ax.legend()
fig.savefig("plot.png", dpi=50)
print([round(v, 4) for v in line.get_ydata().tolist()])
print(fig.get_size_inches().tolist(), ax.get_legend().get_texts()[0].get_text())
with open("plot.png", "rb") as f:
    print(f.read(8))
img = plt.imread("plot.png")
print(img.shape)
plt.close("all")

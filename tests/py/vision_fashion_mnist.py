# The real Fashion-MNIST (Debian's dataset-fashion-mnist, installed by
# setup/deps.sh) read by torchvision 0.14 and by nndb: the same images and
# labels. nndb also finds it with root=None.
import atexit
import gzip
import os
import shutil
import tempfile

import torch
import torchvision
from torchvision import datasets, transforms

DEB = "/usr/share/datasets/fashion-mnist"
tmp = tempfile.mkdtemp()
atexit.register(shutil.rmtree, tmp, True)
raw = os.path.join(tmp, "FashionMNIST", "raw")
os.makedirs(raw)
for name in os.listdir(DEB):
    if name.endswith(".gz"):
        with gzip.open(os.path.join(DEB, name)) as src, open(os.path.join(raw, name[:-3]), "wb") as dst:
            shutil.copyfileobj(src, dst)

tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.2860,), (0.3530,))])
for train in (True, False):
    ds = datasets.FashionMNIST(tmp, train=train, transform=tf)
    print(len(ds), ds.data.shape, torch.bincount(ds.targets).tolist(), int(ds.data[:100].sum()))
    for i in (0, 1, len(ds) - 1):
        x, y = ds[i]
        print("  ", i, y, ds.classes[y], round(float(x.sum()), 3))
    print("  mean", round(float(ds.data.float().mean() / 255), 4), "std", round(float(ds.data.float().std() / 255), 4))
torch.manual_seed(0)
loader = torch.utils.data.DataLoader(datasets.FashionMNIST(tmp, train=False, transform=tf), batch_size=256, shuffle=True)
xb, yb = next(iter(loader))
print(xb.shape, yb[:10].tolist(), round(float(xb.sum()), 2))

if torchvision.__version__.endswith("nndb"):
    a = datasets.FashionMNIST(root=None, train=False)
    b = datasets.FashionMNIST(tmp, train=False)
    assert torch.equal(a.data, b.data) and torch.equal(a.targets, b.targets)
    assert a.raw_folder == DEB
    # download=True where the files are missing: Debian's copy, no network.
    c = datasets.FashionMNIST(os.path.join(tmp, "empty"), train=False, download=True)
    assert torch.equal(c.targets, b.targets)
print("root=None checks done")

# torchvision.datasets against torchvision 0.14 on files this script writes:
# MNIST-family IDX files (plain; nndb also reads .gz), CIFAR pickles, an
# ImageFolder of PNG and JPEG files. Items, lengths, reprs, DataLoader batches.
import atexit
import gzip
import os
import pickle
import shutil
import struct
import tempfile

import numpy as np
import torch
from PIL import Image
import torchvision
from torchvision import datasets, transforms

tmp = tempfile.mkdtemp()
atexit.register(shutil.rmtree, tmp, True)
rng = np.random.RandomState(0)


def idx(path, arr, gz=False):
    arr = np.asarray(arr, dtype=np.uint8)
    data = struct.pack(">I", 0x800 + arr.ndim) + b"".join(struct.pack(">I", d) for d in arr.shape) + arr.tobytes()
    with (gzip.open if gz else open)(path, "wb") as f:
        f.write(data)


def write_mnist(name, prefix_train="train", prefix_test="t10k", n=(12, 7), gz=False):
    raw = os.path.join(tmp, name, "raw")
    os.makedirs(raw, exist_ok=True)
    for prefix, count in zip((prefix_train, prefix_test), n):
        idx(os.path.join(raw, f"{prefix}-images-idx3-ubyte" + (".gz" if gz else "")), rng.randint(0, 256, (count, 28, 28)), gz)
        idx(os.path.join(raw, f"{prefix}-labels-idx1-ubyte" + (".gz" if gz else "")), rng.randint(0, 10, count), gz)


for name in ("MNIST", "FashionMNIST", "KMNIST"):
    write_mnist(name)
write_mnist("EMNIST", "emnist-letters-train", "emnist-letters-test", (9, 5))

tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
for cls in (datasets.MNIST, datasets.FashionMNIST, datasets.KMNIST):
    for train in (True, False):
        ds = cls(tmp, train=train, transform=tf, target_transform=lambda y: y * 10)
        x, y = ds[3]
        print(cls.__name__, train, len(ds), ds.data.shape, ds.data.dtype, ds.targets.dtype, ds.targets[:5].tolist())
        print("  item", x.shape, x.dtype, round(float(x.sum()), 3), y, ds.classes[:3], ds.class_to_idx.get(ds.classes[1]))
print(repr(datasets.MNIST(tmp, train=False)).replace(tmp, "ROOT"))
print(repr(datasets.FashionMNIST(tmp, transform=tf)).replace(tmp, "ROOT"))
img, y = datasets.MNIST(tmp)[0]
print(type(img).__name__, img.mode, img.size, y)
em = datasets.EMNIST(tmp, split="letters", train=True)
print("EMNIST", len(em), em.classes[:4], em[2][1], em.data.shape)
em = datasets.EMNIST(tmp, split="letters", train=False, transform=transforms.PILToTensor())
print("EMNIST test", len(em), em[1][0].dtype, em[1][0].shape, int(em[1][0].sum()))

# A DataLoader over it.
ds = datasets.MNIST(tmp, transform=transforms.ToTensor())
torch.manual_seed(0)
for xb, yb in torch.utils.data.DataLoader(ds, batch_size=5, shuffle=True):
    print("batch", xb.shape, yb.tolist(), round(float(xb.sum()), 3))

# CIFAR10 / CIFAR100 pickles.
c10 = os.path.join(tmp, "cifar-10-batches-py")
os.makedirs(c10)
for i, name in enumerate(["data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4", "data_batch_5", "test_batch"]):
    with open(os.path.join(c10, name), "wb") as f:
        pickle.dump({"data": rng.randint(0, 256, (3, 3072)).astype(np.uint8), "labels": [i, 9 - i, 3]}, f)
with open(os.path.join(c10, "batches.meta"), "wb") as f:
    pickle.dump({"label_names": ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]}, f)
c100 = os.path.join(tmp, "cifar-100-python")
os.makedirs(c100)
for name in ("train", "test"):
    with open(os.path.join(c100, name), "wb") as f:
        pickle.dump({"data": rng.randint(0, 256, (4, 3072)).astype(np.uint8), "fine_labels": [5, 17, 99, 0],
                     "coarse_labels": [1, 2, 3, 4]}, f)
with open(os.path.join(c100, "meta"), "wb") as f:
    pickle.dump({"fine_label_names": [f"c{i}" for i in range(100)]}, f)

try:
    datasets.CIFAR10(tmp)
except RuntimeError as e:
    print("md5 sums checked:", str(e)[:50])


def md5(path):
    import hashlib
    return hashlib.md5(open(path, "rb").read()).hexdigest()


# The files written here are not the real ones: give both the sums of these.
class Small10(datasets.CIFAR10):
    train_list = [[n, md5(os.path.join(c10, n))] for n, _ in datasets.CIFAR10.train_list]
    test_list = [["test_batch", md5(os.path.join(c10, "test_batch"))]]
    meta = dict(datasets.CIFAR10.meta, md5=md5(os.path.join(c10, "batches.meta")))


class Small100(datasets.CIFAR100):
    train_list = [["train", md5(os.path.join(c100, "train"))]]
    test_list = [["test", md5(os.path.join(c100, "test"))]]
    meta = dict(datasets.CIFAR100.meta, md5=md5(os.path.join(c100, "meta")))


for cls, train in ((Small10, True), (Small10, False), (Small100, True)):
    ds = cls(tmp, train=train, transform=transforms.ToTensor())
    print(cls.__name__, len(ds), ds.data.shape, ds.classes[:3], ds[1][1], round(float(ds[1][0].sum()), 3))
    print(repr(ds).replace(tmp, "ROOT"))

# ImageFolder: PNG and JPEG, RGB and grayscale files.
root = os.path.join(tmp, "folder")
for cls_name, n in (("cat", 3), ("dog", 2), ("zebra", 1)):
    os.makedirs(os.path.join(root, cls_name, "sub"))
    for i in range(n):
        a = rng.randint(0, 256, (10 + i, 12, 3)).astype(np.uint8)
        Image.fromarray(a).save(os.path.join(root, cls_name, f"{i}.png"))
        Image.fromarray(a[..., 0]).save(os.path.join(root, cls_name, "sub", f"g{i}.jpg"), quality=90)
open(os.path.join(root, "dog", "notes.txt"), "w").write("not an image")
ds = datasets.ImageFolder(root, transform=transforms.Compose([transforms.Resize((8, 8)), transforms.ToTensor()]))
print(ds.classes, ds.class_to_idx, len(ds), ds.targets)
print([os.path.relpath(p, root) for p, _ in ds.samples])
for i in range(len(ds)):
    x, y = ds[i]
    print("  ", x.shape, y, round(float(x.sum()), 3))
img, _ = datasets.ImageFolder(root)[4]
print(type(img).__name__, img.mode, img.size)
print(repr(ds).replace(tmp, "ROOT"))

# Missing files: RuntimeError with torchvision's first words.
for f in (lambda: datasets.MNIST(os.path.join(tmp, "nowhere")), lambda: datasets.CIFAR10(os.path.join(tmp, "nowhere")),
          lambda: datasets.EMNIST(tmp, split="nope"), lambda: datasets.ImageFolder(os.path.join(tmp, "MNIST", "raw"))):
    try:
        f()
    except (RuntimeError, ValueError, FileNotFoundError) as e:
        print(type(e).__name__, str(e).replace(tmp, "ROOT")[:55])

# nndb only: download=True never touches the network; it says what to put where.
if torchvision.__version__.endswith("nndb"):
    for f in (lambda: datasets.MNIST(os.path.join(tmp, "nowhere"), download=True),
              lambda: datasets.CIFAR100(os.path.join(tmp, "nowhere"), download=True)):
        try:
            f()
            raise AssertionError("download=True without files should raise")
        except RuntimeError as e:
            assert "does not download" in str(e) and "nowhere" in str(e), str(e)
    # Gzipped files as downloaded are read as they are.
    gzroot = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, gzroot, True)
    tmp_saved, tmp = tmp, gzroot
    write_mnist("MNIST", gz=True)
    tmp = tmp_saved
    a = datasets.MNIST(gzroot)
    assert len(a) == 12 and a.data.shape == (12, 28, 28)
print("download checks done")

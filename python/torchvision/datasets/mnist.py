"""MNIST, FashionMNIST, KMNIST and EMNIST: the IDX files torchvision reads.

The files sit where torchvision puts them, root/<ClassName>/raw/, as
downloaded (`train-images-idx3-ubyte.gz`) or uncompressed; nndb reads
either. FashionMNIST(root=None) reads Debian's dataset-fashion-mnist
package (/usr/share/datasets/fashion-mnist), which setup/deps.sh installs.
Items are (PIL image of mode 'L', int label), as in torchvision.
"""

import codecs
import gzip
import os
import string

import numpy as np
import torch

from .utils import check_integrity, no_download, verify_str_arg
from .vision import VisionDataset

DEBIAN_FASHION_MNIST = "/usr/share/datasets/fashion-mnist"


def get_int(b):
    return int(codecs.encode(b, "hex"), 16)


SN3_PASCALVINCENT_TYPEMAP = {
    8: torch.uint8,
    9: torch.int8,
    11: torch.int16,
    12: torch.int32,
    13: torch.float32,
    14: torch.float64,
}
_NP_TYPES = {8: ">u1", 9: ">i1", 11: ">i2", 12: ">i4", 13: ">f4", 14: ">f8"}


def _open_maybe_gz(path):
    """The bytes of `path`, or of `path.gz` when only the compressed file is there."""
    if os.path.isfile(path):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            return f.read()
    if os.path.isfile(path + ".gz"):
        with gzip.open(path + ".gz", "rb") as f:
            return f.read()
    raise FileNotFoundError(f"No such file: '{path}' (nor '{path}.gz')")


def read_sn3_pascalvincent_tensor(path, strict=True):
    """Read an IDX file (the SN3 format of MNIST), gzipped or not, into a tensor."""
    data = _open_maybe_gz(path)
    if len(data) < 4:
        raise ValueError(f"{path}: not an IDX file (shorter than its 4-byte magic number)")
    magic = get_int(data[0:4])
    nd = magic % 256
    ty = magic // 256
    if not (1 <= nd <= 3) or ty not in SN3_PASCALVINCENT_TYPEMAP or data[0:2] != b"\0\0":
        raise ValueError(f"{path}: not an IDX file (magic number {magic:#010x})")
    s = [get_int(data[4 * (i + 1): 4 * (i + 2)]) for i in range(nd)]
    count = 1
    for d in s:
        count *= d
    offset = 4 * (nd + 1)
    itemsize = np.dtype(_NP_TYPES[ty]).itemsize
    if len(data) - offset < count * itemsize:
        raise ValueError(f"{path}: truncated IDX file: header says {s}, "
                         f"{(len(data) - offset) // itemsize} values present")
    parsed = np.frombuffer(data, dtype=_NP_TYPES[ty], count=count, offset=offset)
    parsed = parsed.astype(parsed.dtype.newbyteorder("="))
    return torch.from_numpy(parsed.reshape(s).copy())


def read_label_file(path):
    x = read_sn3_pascalvincent_tensor(path, strict=False)
    if x.dtype != torch.uint8:
        raise TypeError(f"x should be of dtype torch.uint8 instead of {x.dtype}")
    if x.ndimension() != 1:
        raise ValueError(f"x should have 1 dimension instead of {x.ndimension()}")
    return x.long()


def read_image_file(path):
    x = read_sn3_pascalvincent_tensor(path, strict=False)
    if x.dtype != torch.uint8:
        raise TypeError(f"x should be of dtype torch.uint8 instead of {x.dtype}")
    if x.ndimension() != 3:
        raise ValueError(f"x should have 3 dimension instead of {x.ndimension()}")
    return x


class MNIST(VisionDataset):
    """MNIST from root/MNIST/raw/{train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz]."""

    mirrors = [
        "http://yann.lecun.com/exdb/mnist/",
        "https://ossci-datasets.s3.amazonaws.com/mnist/",
    ]
    resources = [
        ("train-images-idx3-ubyte.gz", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
        ("train-labels-idx1-ubyte.gz", "d53e105ee54ea40749a09fcbcd1e9432"),
        ("t10k-images-idx3-ubyte.gz", "9fb629c4189551a2d022fa330f9573f3"),
        ("t10k-labels-idx1-ubyte.gz", "ec29112dd5afa0611ce80d1b7f02629c"),
    ]
    training_file = "training.pt"
    test_file = "test.pt"
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four",
               "5 - five", "6 - six", "7 - seven", "8 - eight", "9 - nine"]
    # A folder a Debian package installs the files into, used for root=None.
    _debian_folder = None

    def __init__(self, root=None, train=True, transform=None, target_transform=None, download=False):
        if root is None and self._debian_folder is None:
            raise TypeError(f"{type(self).__name__}() needs root: the folder holding "
                            f"{type(self).__name__}/raw/ (see docs/datasets.md)")
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train
        self._raw = None
        if root is None:
            self._raw = self._debian_folder
        if not self._check_exists():
            if download and self._debian_folder is not None and self._check_exists(self._debian_folder):
                # Nothing to fetch: Debian's package has the files.
                self._raw = self._debian_folder
            elif download:
                self.download()
            else:
                raise RuntimeError(self._not_found_message())
        self.data, self.targets = self._load_data()

    def _not_found_message(self):
        msg = "Dataset not found. You can use download=True to download it"
        hint = f" (nndb: put {', '.join(self._file_names())} in {self.raw_folder}"
        if self._debian_folder is not None:
            hint += f", or use root=None for the copy in {self._debian_folder}"
            if not os.path.isdir(self._debian_folder):
                hint += ", installed by setup/deps.sh"
        return msg + hint + ")"

    def _file_names(self):
        return [os.path.splitext(name)[0] + "[.gz]" for name, _ in self.resources]

    def _load_data(self):
        image_file = f"{'train' if self.train else 't10k'}-images-idx3-ubyte"
        data = read_image_file(os.path.join(self.raw_folder, image_file))
        label_file = f"{'train' if self.train else 't10k'}-labels-idx1-ubyte"
        targets = read_label_file(os.path.join(self.raw_folder, label_file))
        return data, targets

    def __getitem__(self, index):
        from PIL import Image

        img, target = self.data[index], int(self.targets[index])
        img = Image.fromarray(img.numpy(), mode="L")
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __len__(self):
        return len(self.data)

    @property
    def raw_folder(self):
        if self._raw is not None:
            return self._raw
        return os.path.join(self.root, self.__class__.__name__, "raw")

    @property
    def processed_folder(self):
        return os.path.join(self.root, self.__class__.__name__, "processed")

    @property
    def class_to_idx(self):
        return {_class: i for i, _class in enumerate(self.classes)}

    def _check_exists(self, folder=None):
        folder = self.raw_folder if folder is None else folder
        for url, _ in self.resources:
            base = os.path.join(folder, os.path.splitext(os.path.basename(url))[0])
            if not (check_integrity(base) or check_integrity(base + ".gz")):
                return False
        return True

    def download(self):
        """nndb does not download: say what to put where."""
        if self._check_exists():
            return
        no_download(type(self).__name__, self.raw_folder, [name for name, _ in self.resources],
                    [self.mirrors[0] + name for name, _ in self.resources])

    def extra_repr(self):
        split = "Train" if self.train is True else "Test"
        return f"Split: {split}"


class FashionMNIST(MNIST):
    """Fashion-MNIST; root=None reads Debian's dataset-fashion-mnist package."""

    mirrors = ["http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
        ("train-labels-idx1-ubyte.gz", "25c81989df183df01b3e8a0aad5dffbe"),
        ("t10k-images-idx3-ubyte.gz", "bef4ecab320f06d8554ea6380940ec79"),
        ("t10k-labels-idx1-ubyte.gz", "bb300cfdad3c16e7a12a480ee83cd310"),
    ]
    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]
    _debian_folder = DEBIAN_FASHION_MNIST


class KMNIST(MNIST):
    """Kuzushiji-MNIST from root/KMNIST/raw/."""

    mirrors = ["http://codh.rois.ac.jp/kmnist/dataset/kmnist/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "bdb82020997e1d708af4cf47b453dcf7"),
        ("train-labels-idx1-ubyte.gz", "e144d726b3acfaa3e44228e80efcd344"),
        ("t10k-images-idx3-ubyte.gz", "5c965bf0a639b31b8f53240b1b52f4d7"),
        ("t10k-labels-idx1-ubyte.gz", "7320c461ea6c1c855c0b718fb2a4b134"),
    ]
    classes = ["o", "ki", "su", "tsu", "na", "ha", "ma", "ya", "re", "wo"]


class EMNIST(MNIST):
    """EMNIST from root/EMNIST/raw/emnist-<split>-{train,test}-{images-idx3,labels-idx1}-ubyte[.gz]."""

    url = "https://www.itl.nist.gov/iaui/vip/cs_links/EMNIST/gzip.zip"
    md5 = "58c8d27c78d21e728a6bc7b3cc06412e"
    splits = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")
    _merged_classes = {"c", "i", "j", "k", "l", "m", "o", "p", "s", "u", "v", "w", "x", "y", "z"}
    _all_classes = set(string.digits + string.ascii_letters)
    classes_split_dict = {
        "byclass": sorted(list(_all_classes)),
        "bymerge": sorted(list(_all_classes - _merged_classes)),
        "balanced": sorted(list(_all_classes - _merged_classes)),
        "letters": ["N/A"] + list(string.ascii_lowercase),
        "digits": list(string.digits),
        "mnist": list(string.digits),
    }

    def __init__(self, root, split, **kwargs):
        self.split = verify_str_arg(split, "split", self.splits)
        self.training_file = f"training_{split}.pt"
        self.test_file = f"test_{split}.pt"
        super().__init__(root, **kwargs)
        self.classes = self.classes_split_dict[self.split]

    @property
    def _file_prefix(self):
        return f"emnist-{self.split}-{'train' if self.train else 'test'}"

    @property
    def images_file(self):
        return os.path.join(self.raw_folder, f"{self._file_prefix}-images-idx3-ubyte")

    @property
    def labels_file(self):
        return os.path.join(self.raw_folder, f"{self._file_prefix}-labels-idx1-ubyte")

    def _file_names(self):
        return [os.path.basename(f) + "[.gz]" for f in (self.images_file, self.labels_file)]

    def _load_data(self):
        return read_image_file(self.images_file), read_label_file(self.labels_file)

    def _check_exists(self, folder=None):
        return all(check_integrity(f) or check_integrity(f + ".gz") for f in (self.images_file, self.labels_file))

    def download(self):
        if self._check_exists():
            return
        no_download("EMNIST", self.raw_folder, [os.path.basename(f) + ".gz" for f in
                                                (self.images_file, self.labels_file)],
                    [self.url + " (unzip it; the files are in its gzip/ folder)"])

"""nndb's torchvision: the part of torchvision 0.14 that courses use.

Datasets read the files torchvision reads (MNIST-family IDX files, the
CIFAR python batches, image folders through Debian's Pillow), transforms
follow torchvision 0.14 draw for draw on torch's generator, and the model
definitions are torchvision's architectures without weights. Nothing is
downloaded: see docs/datasets.md.
"""

from torchvision import datasets, models, transforms, utils  # noqa: F401

__version__ = "0.14.1+nndb"

_image_backend = "PIL"


def get_image_backend():
    """The name of the package used to load images ('PIL')."""
    return _image_backend


def set_image_backend(backend):
    if backend != "PIL":
        raise ValueError(f"Invalid backend '{backend}'. Options are 'PIL' (nndb has no accimage)")

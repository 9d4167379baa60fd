"""Image datasets in torchvision's layout (see docs/datasets.md)."""

from .cifar import CIFAR10, CIFAR100
from .folder import DatasetFolder, ImageFolder
from .mnist import EMNIST, KMNIST, MNIST, FashionMNIST
from .vision import VisionDataset

__all__ = ("MNIST", "FashionMNIST", "KMNIST", "EMNIST", "CIFAR10", "CIFAR100",
           "DatasetFolder", "ImageFolder", "VisionDataset")

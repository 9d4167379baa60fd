"""Model definitions (no weights: nndb has no network to fetch them)."""

from .mobilenetv2 import MobileNetV2, mobilenet_v2
from .resnet import BasicBlock, Bottleneck, ResNet, resnet18, resnet34, resnet50
from .vgg import VGG, vgg11, vgg11_bn

__all__ = ["ResNet", "BasicBlock", "Bottleneck", "resnet18", "resnet34", "resnet50", "VGG", "vgg11", "vgg11_bn",
           "MobileNetV2", "mobilenet_v2"]

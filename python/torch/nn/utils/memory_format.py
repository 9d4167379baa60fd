"""torch.nn.utils.convert_conv2d_weight_memory_format."""
import torch


def convert_conv2d_weight_memory_format(module, memory_format):
    """convert_conv2d_weight_memory_format(module, memory_format) -> Module

    Lay the weights of the Conv2d and ConvTranspose2d layers in module out
    in memory_format (torch.channels_last, faster with cuDNN); the values
    are unchanged, and so is each weight's identity (its .data is
    replaced). Returns module.
    """
    if isinstance(module, (torch.nn.Conv2d, torch.nn.ConvTranspose2d)):
        module.weight.data = module.weight.detach().clone().contiguous(memory_format=memory_format)
    for child in module.children():
        convert_conv2d_weight_memory_format(child, memory_format)
    return module

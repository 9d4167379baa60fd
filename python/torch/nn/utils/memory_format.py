"""torch.nn.utils.convert_conv2d_weight_memory_format."""


def convert_conv2d_weight_memory_format(module, memory_format):
    """convert_conv2d_weight_memory_format(module, memory_format) -> Module

    Lay the weights of the Conv2d and ConvTranspose2d layers in module out
    in memory_format (torch.channels_last, faster with cuDNN); the values
    are unchanged. nndb's tensors have one layout, so module is returned as
    it is.
    """
    return module

"""What the model builders share."""


def _no_weights(weights, kwargs):
    """nndb has no pretrained weights (no network): weights= must stay None."""
    if kwargs.pop("pretrained", False) or weights is not None:
        raise RuntimeError("nndb's torchvision has the model definitions only, no pretrained weights "
                           "(nothing is downloaded): use weights=None and train it, or load a state_dict "
                           "with model.load_state_dict(torch.load(path))")

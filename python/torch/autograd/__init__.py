"""torch.autograd: grad mode and the autograd entry points."""

from torch.autograd.grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode  # noqa: F401
from torch.autograd.gradcheck import gradcheck  # noqa: F401
from torch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False):
    from torch import Tensor
    if isinstance(tensors, Tensor):
        tensors = (tensors,)
    if grad_tensors is None or isinstance(grad_tensors, Tensor):
        grad_tensors = (grad_tensors,) * len(tensors)
    for t, g in zip(tensors, grad_tensors):
        t.backward(g, retain_graph=retain_graph, create_graph=create_graph)

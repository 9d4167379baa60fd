"""torch.version: which torch this is. nndb follows PyTorch 1.13 (see
docs/language.md) and runs on the CPU, so there is no CUDA or ROCm build."""
from torch.torch_version import __version__  # noqa: F401

debug = False
cuda = None
git_version = "Unknown"
hip = None

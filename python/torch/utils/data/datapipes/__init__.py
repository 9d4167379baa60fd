"""torch.utils.data.datapipes: composable iterable- and map-style datasets
(PyTorch 1.13's DataPipes), in Python. See datapipe.py."""

from torch.utils.data.datapipes import iter  # noqa: F401
from torch.utils.data.datapipes import map  # noqa: F401

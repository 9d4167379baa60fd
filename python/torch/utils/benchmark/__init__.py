"""torch.utils.benchmark: PyTorch's wall-clock benchmarking helpers.

Timer (timeit with thread control, warm-up and adaptive block sizes),
Measurement (the replicate times and their statistics, printed in PyTorch's
layout) and Compare (a table of many measurements). Pure Python over
CPython's timeit; the statistics go through torch ops, as PyTorch's do, so
the units and significant figures printed are the ones PyTorch prints.
Fuzzer, FuzzedParameter and FuzzedTensor draw random inputs from a seed.
Not here: Timer.collect_callgrind (raises), C++ statements
(language="cpp"), FuzzedSparseTensor.
"""

from torch.utils.benchmark.utils.common import *  # noqa: F401,F403
from torch.utils.benchmark.utils.timer import *  # noqa: F401,F403
from torch.utils.benchmark.utils.compare import *  # noqa: F401,F403
from torch.utils.benchmark.utils.fuzzer import *  # noqa: F401,F403

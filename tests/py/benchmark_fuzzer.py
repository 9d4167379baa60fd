"""torch.utils.benchmark.Fuzzer under nndb: a seed gives PyTorch's parameter
sets (loguniform, uniform, custom distributions, strict parameters,
aliases, constraints and rejections) and PyTorch's tensors (sizes, steps,
memory orders, the values torch's generator draws); the errors are
PyTorch's. Fails where the Fuzzer classes are missing."""
import torch
from torch.utils.benchmark import Fuzzer, FuzzedParameter, FuzzedTensor, ParameterAlias
f = Fuzzer(
    parameters=[
        FuzzedParameter("k0", minval=1, maxval=2048, distribution="loguniform"),
        FuzzedParameter("k1", minval=1, maxval=64, distribution="uniform"),
        [FuzzedParameter("d", distribution={1: 0.3, 2: 0.3, 3: 0.4}),
         FuzzedParameter("s", minval=1, maxval=3, distribution="uniform", strict=True)],
        FuzzedParameter("a", minval=0.5, maxval=2.0, distribution="uniform"),
        FuzzedParameter("k2", distribution={ParameterAlias("k1"): 0.5, 7: 0.5}),
    ],
    tensors=[
        FuzzedTensor("x", size=("k0", "k1", 3), steps=(1, "s", 1), probability_contiguous=0.6,
                     dim_parameter="d", max_elements=64 * 1024, min_elements=8),
        FuzzedTensor("y", size=("k2", 5), dtype=torch.int32, max_allocation_bytes=4096),
        FuzzedTensor("z", size=(4, 3, 2), probability_contiguous=0.0, dtype=torch.float64),
    ],
    constraints=[lambda p: p["k0"] % 2 == 0],
    seed=123,
)
for tensors, props, params in f.take(12):
    print(params)
    for k in ("x", "y", "z"):
        t = tensors[k]
        print(k, tuple(t.shape), t.stride(), t.dtype, t.is_contiguous(), props[k]["numel"], list(props[k]["order"]),
              props[k]["steps"], props[k]["dtype"], t.sum().item())
print(round(f.rejection_rate, 6))
print(torch.rand(2))
print(ParameterAlias("n"))
try:
    Fuzzer([FuzzedParameter("x", 1, 2, "uniform")], [FuzzedTensor("x", size=(2,))])
except ValueError as e:
    print(e)
try:
    list(Fuzzer([FuzzedParameter("n", 1, 2, "uniform")], [], constraints=[lambda p: False], seed=1).take(1))
except ValueError as e:
    print(e)
try:
    list(Fuzzer([FuzzedParameter("n", distribution={ParameterAlias("m"): 1.0}),
                 FuzzedParameter("m", distribution={ParameterAlias("n"): 1.0})], [], seed=1).take(1))
except ValueError as e:
    print(e)

# torch.finfo / torch.iinfo (values, repr, errors) and torch.tensor's
# overflow check for integer dtypes.
import torch

for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    f = torch.finfo(dt)
    print(f)
    print(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)
print(torch.finfo(), torch.finfo() == torch.finfo(torch.float32), torch.finfo(torch.float32) == torch.finfo(torch.float64))
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    i = torch.iinfo(dt)
    print(i, i.bits, i.min, i.max, i.dtype)
for bad in (lambda: torch.finfo(torch.int32), lambda: torch.iinfo(torch.float32),
            lambda: torch.iinfo(torch.bool), lambda: torch.finfo("float32")):
    try:
        bad()
    except TypeError as e:
        print("TypeError", e)
x = torch.tensor([1.0, 2.0])
print(x.clamp(min=torch.finfo(x.dtype).eps).log())

for data, dt in (([300], torch.uint8), ([-1], torch.uint8), ([-256], torch.uint8), ([300.5], torch.uint8),
                 ([2 ** 31], torch.int32), ([2 ** 31 - 1], torch.int32), ([70000.0], torch.half),
                 ([True, 2], torch.bool), ([256], torch.int8), ([-128], torch.int8),
                 ([-129.0], torch.int8), (300, torch.uint8), ([[1, 2], [3, 40000]], torch.int16)):
    try:
        print(torch.tensor(data, dtype=dt))
    except RuntimeError as e:
        print("RuntimeError", e)

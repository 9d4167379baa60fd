"""torch.set_flush_denormal: True on x86, and subnormal float32 inputs and results become zero in the calling thread and in the engine's workers (a 2-thread multiply of 2^20 subnormals), back off with False; index_reduce's beta note once, at the caller's line, from either form."""
import torch, warnings
print(torch.set_flush_denormal(True))
x = torch.tensor([1e-39, 1.0], dtype=torch.float32)
print(x * 1.0, x[0].item())
big = torch.full((1 << 20,), 1e-39)
print((big * 1.0).count_nonzero().item())
torch.set_num_threads(2)
print((big * 1.0).count_nonzero().item())
print(torch.tensor([1e-300], dtype=torch.float64) * 1.0)
print(torch.set_flush_denormal(False))
print(x * 1.0, (big * 1.0).count_nonzero().item())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.zeros(3).index_reduce(0, torch.tensor([0, 1]), torch.ones(2), 'prod')
    torch.zeros(3).index_reduce_(0, torch.tensor([0, 1]), torch.ones(2), 'prod')
print([(str(m.message), m.filename.endswith('.py') and 'torch' not in m.filename) for m in w])

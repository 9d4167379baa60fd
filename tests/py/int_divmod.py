"""Integer floor division, remainder, trunc division and bitwise ops give PyTorch's values on int64 tensors (negative operands, a scalar, broadcast rows, transposed views, the division-by-zero error) through the dense path and the general walk."""
import torch, time
torch.manual_seed(0)
a = torch.randint(-50, 50, (7, 9)); b = torch.randint(-5, 6, (7, 9)); b[b == 0] = 3
for f in [lambda: a % b, lambda: a // b, lambda: a % 4, lambda: a // -3, lambda: torch.remainder(a, b), lambda: torch.fmod(a, b), lambda: a & b, lambda: a | 5, lambda: a ^ b,
          lambda: torch.div(a, b, rounding_mode="trunc"), lambda: torch.div(a, b, rounding_mode="floor"), lambda: a.t() % b.t(), lambda: a % b[0], lambda: a % torch.tensor(7),
          lambda: torch.tensor([2**62, -5]) // torch.tensor([-1, -1]), lambda: torch.tensor([5]) % torch.tensor([0]), lambda: a % 0, lambda: torch.tensor(9) % torch.tensor(4)]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
x = torch.randint(0, 100000, (512, 4096))
t = time.perf_counter()
for _ in range(3): x % 4096
dt = (time.perf_counter() - t) / 3
print(dt < 1.0)

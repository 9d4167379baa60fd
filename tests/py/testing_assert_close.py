# torch.testing.assert_close: what passes, and torch's messages for what
# does not (values, shapes, dtypes, containers, tolerances); torch.allclose.
import torch
from torch.testing import assert_close


def check(*args, **kwargs):
    try:
        assert_close(*args, **kwargs)
        print('ok')
    except Exception as e:
        print(type(e).__name__ + ':', e)
        print('--')


a = torch.tensor([1.0, 2.0, 3.0])
check(a, a.clone())
check(a, a + 1e-7)
check(a, torch.tensor([1.0, 2.1, 3.0]))
check(a, torch.tensor([1.5, 2.0, 0.0]))
check(a, torch.tensor([1.0, 2.1, 3.0]), rtol=0.1, atol=0.0)
check(a, torch.tensor([1.0, 2.0]))
check(a, a.double())
check(a, a.double(), check_dtype=False)
check(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]))
check(torch.tensor([[1.0, float('nan')], [3.0, 4.0]]), torch.tensor([[1.0, float('nan')], [3.0, 4.5]]))
check(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True)
check(torch.tensor(2.0), torch.tensor(2.5))
check(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0]))
check(1.0, 1.0 + 1e-9)
check(1, 2)
check(0.5, 0.6)
check(True, False)
check(None, None)
check(None, 1)
check([a, 1.0], [a, 1.0])
check([a, (1, 2.0)], [a, (1, 2.5)])
check({'x': a, 'y': 2}, {'x': a, 'y': 2})
check({'x': a}, {'x': a, 'z': 1})
check({'x': a, 'n': {'m': torch.ones(2)}}, {'x': a, 'n': {'m': torch.zeros(2)}})
check([1, 2], [1, 2, 3])
check(a, 1.0)
check(a, a, rtol=1e-3)
check(a, a * 2, msg='custom message')
check(torch.tensor([1.0, 2.0], dtype=torch.float16), torch.tensor([1.0005, 2.0], dtype=torch.float16))
check(torch.arange(24.).reshape(2, 3, 4), torch.arange(24.).reshape(2, 3, 4) * 1.01)
print(torch.allclose(a, a + 1e-9), torch.allclose(a, a + 1e-3), torch.allclose(a, a + 1e-3, atol=1e-2))

# Shape errors are RuntimeErrors, as PyTorch raises them.
import torch

a = torch.ones(2, 3)
b = torch.ones(4, 5)
try:
    c = a @ b
except RuntimeError:
    print("matmul shape error caught")
try:
    torch.cat([a, b])
except RuntimeError as e:
    print("cat error caught:", type(e).__name__ in ("RuntimeError", "ShapeError"))
try:
    a.view(7)
except RuntimeError:
    print("view error caught")
try:
    x = a[5]
except IndexError:
    print("index error caught")
ok = False
try:
    a + torch.ones(3, 2)
except Exception:
    ok = True
finally:
    print("finally ran", ok)
def safe_div(x, y):
    try:
        return x / y
    except ZeroDivisionError:
        return float('inf')
print(safe_div(1, 0), safe_div(6, 3))

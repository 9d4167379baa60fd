import torch
x = torch.ones(2, requires_grad=True)
@torch.no_grad()
def f(t):
    return t * 2
print(f(x).requires_grad, (x * 2).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print((x * 3).requires_grad)

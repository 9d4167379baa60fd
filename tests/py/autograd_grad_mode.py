# no_grad / enable_grad / inference_mode as decorators of methods and
# generator functions, and is_inference_mode_enabled.
import torch
class M(torch.nn.Module):
    @torch.no_grad()
    def f(self, x):
        return (x * 2).requires_grad
    @torch.inference_mode()
    def h(self, x):
        return (x * 2).requires_grad, torch.is_inference_mode_enabled()
x = torch.ones(2, requires_grad=True)
m = M()
print(m.f(x), m.h(x), torch.is_inference_mode_enabled(), torch.is_grad_enabled())
@torch.no_grad()
def gen(x):
    for i in range(2):
        yield (x * i).requires_grad
print(list(gen(x)), (x*2).requires_grad)
with torch.inference_mode():
    print((x * 2).requires_grad, torch.is_inference_mode_enabled())
    with torch.inference_mode(False):
        print((x * 2).requires_grad, torch.is_inference_mode_enabled())
@torch.enable_grad()
def eg(x):
    return (x * 2).requires_grad
with torch.no_grad():
    print(eg(x))

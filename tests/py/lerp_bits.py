"""torch.lerp gives PyTorch 1.13's bits: weight < 0.5 as fma(w, end - start, start), else fma(w - 1, end - start, end), for tensor and Python weights, float32 and float64, dense, broadcast and strided operands, in place and with out=, and the three gradients; and it refuses what PyTorch refuses: end or a tensor weight of another dtype, integer and Half tensors, a complex Python weight on real tensors."""
import hashlib
import torch

torch.manual_seed(0)
n = 30000
s = torch.randn(n)
e = torch.randn(n) * 3
w = torch.rand(n) * 1.5 - 0.25


def h(v):
    return hashlib.md5(v.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


cases = {
    "tensor": lambda: torch.lerp(s, e, w), "method": lambda: s.lerp(e, w), "inplace": lambda: s.clone().lerp_(e, w),
    "scalar.7": lambda: torch.lerp(s, e, 0.7), "scalar.3": lambda: torch.lerp(s, e, 0.3), "scalar.5": lambda: torch.lerp(s, e, 0.5),
    "w0dim.7": lambda: torch.lerp(s, e, torch.tensor(0.7)), "wgrad": lambda: torch.lerp(s, e, w.clone().requires_grad_()),
    "bf16": lambda: torch.lerp(s.bfloat16(), e.bfloat16(), w.bfloat16()).float(), "bf16.7": lambda: torch.lerp(s.bfloat16(), e.bfloat16(), 0.7).float(),
    "wbcast": lambda: torch.lerp(s.view(30, 1000), e.view(30, 1000), w[:30].view(30, 1)),
    "ebcast": lambda: torch.lerp(s.view(30, 1000), e[:1000], w.view(30, 1000)),
    "strided": lambda: torch.lerp(s.view(30, 1000).t(), e.view(30, 1000).t(), w.view(30, 1000).t()),
    "out": lambda: torch.lerp(s, e, w, out=torch.empty(n)), "f64": lambda: torch.lerp(s.double(), e.double(), w.double()),
    "f64.7": lambda: torch.lerp(s.double(), e.double(), 0.7), "small": lambda: torch.lerp(s[:7], e[:7], w[:7]),
}
for k, f in cases.items():
    print(k, h(f()))
for wv in [w, 0.7, 0.3, torch.tensor(0.7)]:
    a = s[:5000].clone().requires_grad_()
    b = e[:5000].clone().requires_grad_()
    ww = wv[:5000].clone().requires_grad_() if isinstance(wv, torch.Tensor) and wv.dim() else wv
    out = torch.lerp(a, b, ww)
    print(out.grad_fn.name())
    out.backward(torch.randn(5000))
    print("grads", h(a.grad), h(b.grad), h(ww.grad) if isinstance(ww, torch.Tensor) and ww.grad is not None else None)
f = torch.ones(3)
d = torch.ones(3, dtype=torch.float64)
i = torch.ones(3, dtype=torch.int64)
hf = torch.ones(3, dtype=torch.half)
c = torch.ones(3, dtype=torch.complex64)
for expr in ["torch.lerp(i, i, 0.5)", "torch.lerp(i, i, i)", "torch.lerp(f, d, 0.5)", "torch.lerp(f, f, d)", "torch.lerp(f, f, 2)",
             "torch.lerp(hf, hf, 0.5)", "torch.lerp(hf, hf, hf)", "torch.lerp(c, c, 0.5)", "torch.lerp(c, c, c)",
             "torch.lerp(f, f, torch.tensor(0.5, dtype=torch.float64))", "torch.lerp(f, f, torch.tensor(1))", "torch.lerp(f, i, 0.5)",
             "torch.lerp(f, f, True)", "torch.lerp(f, f, 1j)", "i.clone().lerp_(i, 0.5)", "f.clone().lerp_(d, 0.5)",
             "torch.lerp(torch.tensor(1.), torch.tensor(3.), 0.25)", "torch.lerp(torch.ones(2, 1), torch.ones(1, 2), torch.ones(2, 2))"]:
    try:
        print(expr, "->", eval(expr))
    except Exception as ex:
        print(expr, "->", type(ex).__name__, ex)

"""torch.matmul of a 2-D and a 1-D tensor (and torch.mv) gives PyTorch 1.13's bits: PyTorch calls BLAS gemv there, not gemm, and OpenBLAS sums them in different orders (d2l's synthetic_data, torch.matmul(X, w) + b with a 1-D w, differed in the last bit and so did the whole training run after it). Row-major, column-major, sliced, expanded, float64, empty and NaN matrices, and the vector's gradient (A^T mv grad, a gemv in PyTorch too)."""
import torch, hashlib
torch.manual_seed(42)
def h(t): return hashlib.md5(t.contiguous().numpy().tobytes()).hexdigest()[:10]
X = torch.normal(0, 1, (1000, 2)); w = torch.tensor([2, -3.4]); W = w.view(2, 1)
for k in [2, 3, 4, 7, 16, 64, 300]:
    A = torch.randn(1000, k); v = torch.randn(k)
    print(k, h(A @ v), h(A @ v.view(k, 1)), h(torch.mv(A, v)), h(v @ A.t()), h(A.t().contiguous().t() @ v))
print(h(X @ w), h(X @ W), h(torch.matmul(X, w) + 4.2))
torch.manual_seed(1)
A = torch.randn(300, 70); v = torch.randn(140)
cases = {"slice_v": lambda: A @ v[::2], "slice_A": lambda: A[::2] @ v[:70], "colslice": lambda: A[:, ::2] @ v[:35], "f64": lambda: A.double() @ v[:70].double(),
         "expand": lambda: torch.randn(1, 5).expand(4, 5) @ torch.randn(5), "empty": lambda: torch.randn(0, 3) @ torch.randn(3), "k0": lambda: torch.randn(3, 0) @ torch.randn(0),
         "1row": lambda: torch.randn(1, 9) @ torch.randn(9), "1col": lambda: torch.randn(9, 1) @ torch.randn(1), "mvfn": lambda: torch.mv(A, v[:70]), "T": lambda: A.t() @ torch.randn(300),
         "int": lambda: torch.arange(6).view(2, 3) @ torch.arange(3), "big": lambda: torch.randn(2000, 1500) @ torch.randn(1500), "nan": lambda: torch.tensor([[float('nan'), 1.]]) @ torch.tensor([0., 1.])}
for k, f in cases.items():
    try: r = f(); print(k, tuple(r.shape), r.dtype, h(r))
    except Exception as e: print(k, type(e).__name__, e)
M = torch.randn(500, 60, requires_grad=True); x = torch.randn(60, requires_grad=True)
y = M @ x; print(y.grad_fn.name()); g = torch.randn(500); y.backward(g); print("grads", h(M.grad), h(x.grad))
M2 = torch.randn(60, 500).t().requires_grad_(); x2 = torch.randn(60, requires_grad=True)
(M2 @ x2).backward(g); print("gradsT", h(M2.grad), h(x2.grad))
# A batch of matrices by a vector, and a vector by a batch: PyTorch's
# matmul folds the batch into the matrix's rows (a view, or a copy where the
# dims do not step as one: the vector-by-batch case transposes the batch)
# and calls mv; forward and both gradients.
torch.manual_seed(2)
for shape in [(3, 4, 5), (2, 3, 40, 70), (6, 1, 33)]:
    B = torch.randn(*shape, requires_grad=True); u = torch.randn(shape[-1], requires_grad=True)
    y = B @ u; y.backward(torch.linspace(-1, 1, y.numel()).view_as(y))
    print("batch@vec", shape, h(y.detach()), h(B.grad), h(u.grad))
    C = torch.randn(*shape[:-2], shape[-1], shape[-2], requires_grad=True)
    w = torch.randn(shape[-1], requires_grad=True)
    z = w @ C; z.backward(torch.linspace(-1, 1, z.numel()).view_as(z))
    print("vec@batch", shape, h(z.detach()), h(C.grad), h(w.grad))
Bt = torch.randn(3, 70, 40).transpose(1, 2)
print("batch@vec strided", h(Bt @ torch.randn(70)), h(torch.randn(40) @ torch.randn(3, 40, 70)[:, :, ::2]))

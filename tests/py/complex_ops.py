# Complex exp, log, sqrt, reciprocal, sigmoid, tanh, sin, cos, pow,
# matmul / mm / bmm / @ and where: values, gradients (PyTorch's conjugate
# Wirtinger convention, printed against PyTorch) and gradcheck (finite
# differences through view_as_real) in complex128.
import torch

torch.manual_seed(0)


def show(t):
    if isinstance(t, torch.Tensor) and t.is_complex():
        t = torch.view_as_real(t)
    print([round(v, 5) for v in t.double().reshape(-1).tolist()])


def cplx(*shape, dtype=torch.complex128):
    real = torch.float64 if dtype == torch.complex128 else torch.float32
    return torch.complex(torch.randn(*shape, dtype=real), torch.randn(*shape, dtype=real))


z64 = torch.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j, -2 - 0.5j])
z = cplx(5)
w = cplx(5)
UNARY = ["exp", "log", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "sin",
         "cos", "tan", "sinh", "cosh"]
for name in UNARY:
    f = getattr(torch, name)
    print(name, f(z64), getattr(z64, name)().dtype)
    show(f(z))
    leaf = z.clone().requires_grad_()
    (f(leaf) * w).real.sum().backward()
    show(leaf.grad)
    print(torch.autograd.gradcheck(
        lambda a, f=f: torch.view_as_real(f(torch.view_as_complex(a))),
        (torch.view_as_real(z).clone().requires_grad_(),)))

out = torch.empty(1, dtype=torch.complex64)
print(torch.exp(z64, out=out), out.shape)
for name in ("exp_", "sqrt_", "tanh_", "log_"):
    zz = z64.clone()
    getattr(zz, name)()
    print(name, zz)
zz = z64.clone()
print(zz.pow_(2), zz)
for p in [2, 3, 0.5, -1, -2, -0.5, 1.5, 0, 1]:
    show(z64 ** p)
show(z ** w)
show(torch.pow(z, w))
show(2 ** z)
show(torch.ones(3) ** 1j)
show(torch.pow(z, 2.5))
leaf, ex = z.clone().requires_grad_(), w.clone().requires_grad_()
(torch.pow(leaf, ex) * w.conj()).real.sum().backward()
show(leaf.grad)
show(ex.grad)
leaf = z.clone().requires_grad_()
((leaf ** 3).abs() + (leaf ** 1.5).imag).sum().backward()
show(leaf.grad)
print(torch.autograd.gradcheck(
    lambda a, b: torch.view_as_real(torch.view_as_complex(a) ** torch.view_as_complex(b)),
    (torch.view_as_real(z).clone().requires_grad_(),
     torch.view_as_real(w).clone().requires_grad_())))

A, B = cplx(3, 4), cplx(4, 2)
print(torch.tensor([[1 + 1j, 2], [0.5j, -1]]) @ torch.tensor([[2 - 1j, 1j], [1, 3 + 0.5j]]))
show(A @ B)
show(torch.mm(A, B))
show(torch.matmul(A, B[:, 0]))
show(torch.mv(A, B[:, 1]))
show(torch.bmm(cplx(2, 3, 4), cplx(2, 4, 5)))
la, lb = A.clone().requires_grad_(), B.clone().requires_grad_()
(torch.mm(la, lb) * cplx(3, 2)).real.sum().backward()
show(la.grad)
show(lb.grad)
print(torch.autograd.gradcheck(
    lambda a, b: torch.view_as_real(torch.view_as_complex(a) @ torch.view_as_complex(b)),
    (torch.view_as_real(A).clone().requires_grad_(),
     torch.view_as_real(B).clone().requires_grad_())))
for a, b in [(A, torch.ones(4, 2, dtype=torch.float64)), (A, B.to(torch.complex64))]:
    try:
        a @ b
    except RuntimeError as e:
        print("RuntimeError", e)

cond = torch.tensor([True, False, True, False, True])
show(torch.where(cond, z, w))
show(torch.where(cond, z, 0.0))
show(torch.where(cond, torch.ones(5, dtype=torch.float64), w))
lz, lw = z.clone().requires_grad_(), w.clone().requires_grad_()
(torch.where(cond, lz, lw) * cplx(5)).real.sum().backward()
show(lz.grad)
show(lw.grad)
print(torch.where(cond, z, w).dtype, torch.where(cond, z64[:1], 1.0).dtype)

# linalg.eig / eigvals of a real matrix: complex eigenvalues and LAPACK's
# eigenvectors unpacked as PyTorch gives them; norms of complex tensors
A = torch.tensor([[0., -1., 2.], [1., 0., 0.5], [0.3, 0.2, 1.]])
print(torch.linalg.eig(A))
print(torch.linalg.eigvals(A.double()))
B = torch.stack([A, torch.diag(torch.tensor([3., 1., 2.]))])
w, V = torch.linalg.eig(B)
print(w, V.dtype, (B.to(torch.complex64) @ V - V * w.unsqueeze(-2)).abs().max() < 1e-5)
z = torch.tensor([3 + 4j, 1 - 1j, 2j])
print(torch.norm(z), z.norm(p=1), torch.linalg.vector_norm(z), torch.norm(z.reshape(1, 3), dim=1))

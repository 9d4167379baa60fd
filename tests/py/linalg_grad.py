# Gradients of torch.linalg and the old names against PyTorch 1.13 (its
# backward formulas): the gradient of a weighted sum of every output, and
# gradcheck in float64 (finite differences).
import warnings

import torch

warnings.simplefilter("ignore")
torch.manual_seed(0)
dt = torch.float64


def r(v):
    return float(f"{v:.6g}") + 0.0


def grads(name, f, *inputs, check=True):
    ins = [x.detach().clone().requires_grad_(True) for x in inputs]
    out = f(*ins)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    total = 0
    g = torch.Generator().manual_seed(1)
    for o in outs:
        if isinstance(o, torch.Tensor) and o.is_floating_point() and o.requires_grad:
            w = torch.randn(o.shape, generator=g, dtype=o.dtype)
            total = total + (o * w).sum()
    gs = torch.autograd.grad(total, ins, allow_unused=True)
    for i, gi in enumerate(gs):
        vals = None if gi is None else [r(v) for v in gi.flatten().tolist()][:20]
        print(name, i, None if gi is None else tuple(gi.shape), vals)
    if check:
        def fo(*xs):
            o = f(*xs)
            o = o if isinstance(o, (tuple, list)) else (o,)
            return tuple(t for t in o if isinstance(t, torch.Tensor) and t.is_floating_point())
        ok = torch.autograd.gradcheck(fo, [x.detach().clone().requires_grad_(True) for x in inputs])
        print(name, "gradcheck", ok)


def spd(*shape):
    X = torch.randn(*shape, dtype=dt)
    return X @ X.mT + shape[-1] * torch.eye(shape[-1], dtype=dt)


A = torch.randn(3, 3, dtype=dt) + 3 * torch.eye(3, dtype=dt)
Ab = torch.randn(2, 3, 3, dtype=dt) + 3 * torch.eye(3, dtype=dt)
B = torch.randn(3, 2, dtype=dt)
grads("solve", torch.linalg.solve, A, B)
grads("solve batched bcast", torch.linalg.solve, Ab, torch.randn(3, 2, dtype=dt))
grads("solve vec", torch.linalg.solve, A, torch.randn(3, dtype=dt))
grads("solve left=False", lambda a, b: torch.linalg.solve(a, b, left=False), A, torch.randn(2, 3, dtype=dt))
grads("solve noncontig", lambda a, b: torch.linalg.solve(a.mT, b), A, B)
grads("inv", torch.linalg.inv, Ab)
grads("inverse", torch.inverse, A)
grads("det", torch.linalg.det, Ab)
grads("det singular", torch.linalg.det, torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=dt), check=False)
grads("logdet", torch.logdet, spd(3, 3))
grads("slogdet", lambda a: torch.linalg.slogdet(a)[1], Ab)
grads("cholesky", lambda a: torch.linalg.cholesky(a @ a.mT + torch.eye(3, dtype=dt)), Ab)
grads("cholesky upper", lambda a: torch.linalg.cholesky(a @ a.mT + torch.eye(3, dtype=dt), upper=True), A)
grads("cholesky raw", torch.linalg.cholesky, spd(3, 3), check=False)
# PyTorch's cholesky_solve/cholesky_inverse gradients treat the factor as a
# full matrix (its unused triangle gets a gradient): gradcheck through a
# factor that comes from cholesky instead
grads("cholesky_solve", torch.cholesky_solve, torch.randn(2, 3, 2, dtype=dt), torch.linalg.cholesky(spd(2, 3, 3)), check=False)
grads("cholesky_solve upper", lambda b, u: torch.cholesky_solve(b, u, upper=True), B, torch.linalg.cholesky(spd(3, 3)).mT, check=False)
grads("cholesky_inverse", torch.cholesky_inverse, torch.linalg.cholesky(spd(3, 3)), check=False)
grads("cholesky_inverse upper", lambda u: torch.cholesky_inverse(u, upper=True), torch.linalg.cholesky(spd(3, 3)).mT, check=False)
grads("cholesky_solve composite", lambda b, a: torch.cholesky_solve(b, torch.linalg.cholesky(a @ a.mT + torch.eye(3, dtype=dt))), B, A)
grads("cholesky_inverse composite", lambda a: torch.cholesky_inverse(torch.linalg.cholesky(a @ a.mT + torch.eye(3, dtype=dt)).mT, upper=True), A)
for m, n in ((4, 3), (3, 4), (3, 3)):
    M = torch.randn(2, m, n, dtype=dt)
    grads(f"qr {m}x{n}", torch.linalg.qr, M)
    grads(f"svd {m}x{n}", lambda a: torch.linalg.svd(a, full_matrices=False), M)
    grads(f"svdvals {m}x{n}", torch.linalg.svdvals, M)
    grads(f"svd U {m}x{n}", lambda a: torch.linalg.svd(a, full_matrices=False)[0], M)
    grads(f"svd Vh {m}x{n}", lambda a: torch.linalg.svd(a, full_matrices=False)[2], M)
    grads(f"pinv {m}x{n}", torch.linalg.pinv, M)
    grads(f"lu {m}x{n}", torch.linalg.lu, M)
    grads(f"lu_factor {m}x{n}", lambda a: torch.linalg.lu_factor(a)[0], M)
    grads(f"matrix_norm nuc {m}x{n}", lambda a: torch.linalg.matrix_norm(a, "nuc"), M)
    grads(f"matrix_norm 2 {m}x{n}", lambda a: torch.linalg.matrix_norm(a, 2), M)
    grads(f"matrix_norm 1 {m}x{n}", lambda a: torch.linalg.matrix_norm(a, 1), M)
    grads(f"matrix_norm fro {m}x{n}", lambda a: torch.linalg.matrix_norm(a), M)
    grads(f"cond {m}x{n}", torch.linalg.cond, M)
grads("qr complete square", lambda a: torch.linalg.qr(a, mode="complete"), torch.randn(3, 3, dtype=dt))
grads("svd full", torch.linalg.svd, torch.randn(4, 3, dtype=dt), check=False)
grads("torch.svd", torch.svd, torch.randn(4, 3, dtype=dt), check=False)
grads("eigh", lambda a: torch.linalg.eigh(a + a.mT), torch.randn(2, 4, 4, dtype=dt))
grads("eigh raw", torch.linalg.eigh, spd(4, 4), check=False)
grads("eigvalsh", lambda a: torch.linalg.eigvalsh(a + a.mT), torch.randn(4, 4, dtype=dt))
grads("eigh U", lambda a: torch.linalg.eigh(a + a.mT, UPLO="U"), torch.randn(4, 4, dtype=dt))
T = torch.randn(2, 3, 3, dtype=dt) + 3 * torch.eye(3, dtype=dt)
R = torch.randn(2, 3, 2, dtype=dt)
grads("solve_triangular", lambda a, b: torch.linalg.solve_triangular(a, b, upper=True), T, R)
grads("solve_triangular lower unit", lambda a, b: torch.linalg.solve_triangular(a, b, upper=False, unitriangular=True), T, R)
grads("solve_triangular right", lambda a, b: torch.linalg.solve_triangular(a, b, upper=True, left=False), T, R.mT)
grads("triangular_solve", lambda b, a: torch.triangular_solve(b, a)[0], R, T)
grads("triangular_solve T", lambda b, a: torch.triangular_solve(b, a, transpose=True)[0], R, T)
LU, piv = torch.linalg.lu_factor(Ab)
grads("lu_solve", lambda lu, b: torch.linalg.lu_solve(lu, piv, b), LU, torch.randn(2, 3, 2, dtype=dt))
grads("lu_solve adjoint", lambda lu, b: torch.linalg.lu_solve(lu, piv, b, adjoint=True), LU, torch.randn(2, 3, 2, dtype=dt))
grads("lu_solve right", lambda lu, b: torch.linalg.lu_solve(lu, piv, b, left=False), LU, torch.randn(2, 2, 3, dtype=dt))
grads("lu_unpack", lambda lu: torch.lu_unpack(lu, piv)[1:], LU)
grads("householder_product", torch.linalg.householder_product, torch.randn(4, 3, dtype=dt), torch.randn(2, dtype=dt))
grads("lstsq", lambda a, b: torch.linalg.lstsq(a, b).solution, torch.randn(5, 3, dtype=dt), torch.randn(5, 2, dtype=dt))
grads("lstsq wide", lambda a, b: torch.linalg.lstsq(a, b).solution, torch.randn(2, 3, 5, dtype=dt), torch.randn(2, 3, 2, dtype=dt))
grads("matrix_power -3", lambda a: torch.linalg.matrix_power(a, -3), A)
grads("matrix_power 6", lambda a: torch.linalg.matrix_power(a, 6), A)
grads("matrix_exp", torch.linalg.matrix_exp, 0.5 * Ab)
grads("matrix_exp big", torch.linalg.matrix_exp, 3 * A)
x = torch.randn(3, 4, dtype=dt)
for ordv in (2, 1, 3, 0.5, 1.5, float("inf"), float("-inf")):
    grads(f"vector_norm {ordv}", lambda t: torch.linalg.vector_norm(t, ordv), x)
    grads(f"vector_norm {ordv} dim", lambda t: torch.linalg.vector_norm(t, ordv, dim=(0,)), x)
grads("vector_norm zero", lambda t: torch.linalg.vector_norm(t), torch.zeros(3, dtype=dt), check=False)
grads("norm", torch.linalg.norm, x)
grads("norm inf 2D", lambda t: torch.linalg.norm(t, float("inf")), x)
grads("cross", torch.linalg.cross, torch.randn(2, 3, dtype=dt), torch.randn(2, 3, dtype=dt))
grads("multi_dot", lambda a, b, c: torch.linalg.multi_dot([a, b, c]), torch.randn(2, 3, dtype=dt), torch.randn(3, 4, dtype=dt), torch.randn(4, dtype=dt))
grads("vander", lambda t: torch.linalg.vander(t, N=4), torch.randn(3, dtype=dt))
grads("tensorinv", lambda t: torch.linalg.tensorinv(t, ind=1), torch.randn(4, 2, 2, dtype=dt))
grads("tensorsolve", torch.linalg.tensorsolve, torch.randn(2, 3, 6, dtype=dt), torch.randn(2, 3, dtype=dt))
grads("pinv hermitian", lambda a: torch.linalg.pinv(a + a.mT, hermitian=True), torch.randn(3, 3, dtype=dt))
grads("tensordot", lambda a, b: torch.tensordot(a, b, dims=([1, 2], [0, 1])), torch.randn(2, 3, 4, dtype=dt), torch.randn(3, 4, 2, dtype=dt))

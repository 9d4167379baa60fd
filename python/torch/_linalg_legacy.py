"""The linear-algebra names torch had before torch.linalg, as 1.13 keeps them
(torch.det, inverse, cholesky, qr, svd, symeig, lu, triangular_solve, ...),
their Tensor methods, and the BLAS-family functions written in Python
(tensordot, chain_matmul). Each is the torch.linalg function with the old
signature and result (torch.svd gives V, not Vh; torch.qr takes some=).
"""

import sys
import warnings

import torch
from torch import linalg
from torch._lowrank import pca_lowrank, svd_lowrank  # noqa: F401
from torch.linalg import _core, _return_type


def _out(out, result):
    # torch.NAME's out= (linalg._out under the calling function's name)
    return result if out is None else linalg._out(out, result, sys._getframe(1).f_code.co_name)

__all__ = [
    "det", "logdet", "slogdet", "inverse", "cholesky", "cholesky_solve", "cholesky_inverse",
    "qr", "svd", "symeig", "lu", "lu_solve", "lu_unpack", "pinverse", "matrix_exp",
    "triangular_solve", "geqrf", "orgqr", "ormqr", "tensordot", "chain_matmul", "svd_lowrank",
    "pca_lowrank", "lstsq", "eig", "solve", "matrix_rank", "vander", "frobenius_norm",
    "nuclear_norm",
]

_rt_slogdet = _return_type("slogdet", ("sign", "logabsdet"))
_rt_qr = _return_type("qr", ("Q", "R"))
_rt_svd = _return_type("svd", ("U", "S", "V"))
_rt_symeig = _return_type("symeig", ("eigenvalues", "eigenvectors"))
_rt_triangular_solve = _return_type("triangular_solve", ("solution", "cloned_coefficient"))
_rt_lu_unpack = _return_type("lu_unpack", ("P", "L", "U"))
_rt_geqrf = _return_type("geqrf", ("a", "tau"))


def det(input):
    return linalg.det(input)


def logdet(input):
    linalg._check_matrix(input, "linalg.slogdet", square=True)
    sign, logabs = linalg.slogdet(input)
    return sign.log() + logabs


def slogdet(input):
    sign, logabs = linalg.slogdet(input)
    return _rt_slogdet(sign, logabs)


def inverse(input, *, out=None):
    return linalg.inv(input, out=out)


def cholesky(input, upper=False, *, out=None):
    warnings.warn(
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
        "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
        "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\n"
        "should be replaced with\nU = torch.linalg.cholesky(A).mH().\nThis transform will "
        "produce equivalent results for all valid (symmetric positive definite) inputs.",
        UserWarning, stacklevel=2)
    linalg._check_matrix(input, "cholesky", square=True)
    L = _core.fast_apply(_core.LinalgCholeskyEx, input, upper, "cholesky", True)[0]
    return _out(out, L)


def cholesky_solve(input, input2, upper=False, *, out=None):
    api = "cholesky_solve"
    if input.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {input.dim()} "
                           "dimensions instead")
    if input2.dim() < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {input2.dim()} "
                           "dimensions instead")
    linalg._check_float(input, api)
    if input.dtype != input2.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{linalg._sname(input.dtype)} and A of type "
                           f"{linalg._sname(input2.dtype)} instead.")
    n = input2.shape[-1]
    if input2.shape[-2] != n:
        raise RuntimeError(f"A must be batches of square matrices, but they are "
                           f"{input2.shape[-2]} by {n} matrices")
    if input.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{n} by {n} but each b matrix is {input.shape[-2]} by "
                           f"{input.shape[-1]}")
    batch = linalg._batch(input.shape[:-2], input2.shape[:-2])
    B = input.expand(batch + tuple(input.shape[-2:]))
    L = input2.expand(batch + (n, n))
    return _out(out, _core.fast_apply(_core.CholeskySolve, B, L, upper))


def cholesky_inverse(input, upper=False, *, out=None):
    linalg._check_matrix(input, "cholesky_inverse", square=True)
    return _out(out, _core.fast_apply(_core.CholeskyInverse, input, upper))


# PyTorch 1.13's deprecation notes for the old linear-algebra functions,
# each once a process (TORCH_WARN_ONCE), with its C++ source line.
_QR_NOTE = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
    "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
    "Q, R = torch.qr(A, some)\nshould be replaced with\n"
    "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete') " + '(Triggered internally at  ./aten/src/ATen/native/BatchLinearAlgebra.cpp:2349.)')
_LU_SOLVE_NOTE = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = torch.linalg.lu_solve(LU, pivots, B) " + '(Triggered internally at  ./aten/src/ATen/native/BatchLinearAlgebra.cpp:2072.)')
_SYMEIG_NOTE = (
    "torch.symeig is deprecated in favor of torch.linalg.eigh and will be removed in a future "
    "PyTorch release.\nThe default behavior has changed from using the upper triangular portion "
    "of the matrix by default to using the lower triangular portion.\n"
    "L, _ = torch.symeig(A, upper=upper)\nshould be replaced with\n"
    "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\nand\n"
    "L, V = torch.symeig(A, eigenvectors=True)\nshould be replaced with\n"
    "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L') " + '(Triggered internally at  ./aten/src/ATen/native/BatchLinearAlgebra.cpp:2794.)')


def qr(input, some=True, *, out=None):
    torch._utils._warn_once("qr", _QR_NOTE)
    Q, R = linalg.qr(input, "reduced" if some else "complete")
    return _out(out, _rt_qr(Q, R))


def svd(input, some=True, compute_uv=True, *, out=None):
    if compute_uv:
        U, S, Vh = linalg.svd(input, full_matrices=not some)
        return _out(out, _rt_svd(U, S, Vh.mT))
    S = linalg.svdvals(input)
    m, n = input.shape[-2], input.shape[-1]
    batch = tuple(input.shape[:-2])
    U = torch.zeros(batch + (m, m), dtype=input.dtype)
    V = torch.zeros(batch + (n, n), dtype=input.dtype)
    return _out(out, _rt_svd(U, S, V))


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    torch._utils._warn_once("symeig", _SYMEIG_NOTE)
    uplo = "U" if upper else "L"
    if eigenvectors:
        L, V = linalg.eigh(input, uplo)
        return _out(out, _rt_symeig(L, V))
    L = linalg.eigvalsh(input, uplo)
    return _out(out, _rt_symeig(L, torch.zeros((0,), dtype=input.dtype)))


def lu(A, pivot=True, get_infos=False, out=None):
    LU, piv, info = linalg.lu_factor_ex(A, pivot=pivot)
    if get_infos:
        return _out(out, (LU, piv, info))
    return _out(out, (LU, piv))


def lu_solve(b, LU_data, LU_pivots, *, out=None):
    torch._utils._warn_once("lu_solve", _LU_SOLVE_NOTE)
    return linalg.lu_solve(LU_data, LU_pivots, b, out=out)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    return linalg._lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots, out=out)


def pinverse(input, rcond=1e-15):
    return linalg.pinv(input, rtol=rcond)


def matrix_exp(input):
    return linalg.matrix_exp(input)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    if b.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, "
                           f"but it has {b.dim()} dimensions instead")
    if A.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, "
                           f"but it has {A.dim()} dimensions instead")
    M = A.mT if transpose else A
    X = linalg.solve_triangular(M, b, upper=upper != transpose, unitriangular=unitriangular)
    batch = linalg._batch(A.shape[:-2], b.shape[:-2])
    return _out(out, _rt_triangular_solve(X, A.expand(batch + tuple(A.shape[-2:]))
                                                 .clone()))


def geqrf(input, *, out=None):
    linalg._check_matrix(input, "geqrf")
    QR, tau = torch._C._linalg_geqrf(input.detach())
    return _out(out, _rt_geqrf(QR, tau))


def orgqr(input, tau):
    return linalg.householder_product(input, tau)


def ormqr(input, tau, other, left=True, transpose=False, *, out=None):
    api = "torch.ormqr"
    if input.dim() < 2:
        raise RuntimeError(f"{api}: input must have at least 2 dimensions.")
    if other.dim() < 2:
        raise RuntimeError(f"{api}: other must have at least 2 dimensions.")
    linalg._check_float(input, api)
    batch = linalg._batch(input.shape[:-2], other.shape[:-2], tau.shape[:-1])
    A = input.expand(batch + tuple(input.shape[-2:]))
    T = tau.expand(batch + tuple(tau.shape[-1:]))
    C = other.expand(batch + tuple(other.shape[-2:]))
    if not (A.requires_grad or T.requires_grad or C.requires_grad) or not torch.is_grad_enabled():
        return _out(out, torch._C._linalg_ormqr(A.detach(), T.detach(), C.detach(), left,
                                                       transpose))
    # differentiable: Q from the reflectors (m x m), then the product
    m = A.shape[-2]
    if A.shape[-1] < m:
        pad = torch.zeros(batch + (m, m - A.shape[-1]), dtype=A.dtype)
        Afull = torch.cat([A, pad], -1)
    else:
        Afull = A[..., :m]
    Q = _core.fast_apply(_core.LinalgHouseholderProduct, Afull, T)
    Qop = Q.mT if transpose else Q
    return _out(out, Qop @ C if left else C @ Qop)


def tensordot(a, b, dims=2, out=None):
    torch._tensor_more._need_tensor("tensordot", ("input", 1, a), ("other", 2, b))
    if isinstance(dims, torch.Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a.dim() or dims > b.dim():
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da = list(range(a.dim() - dims, a.dim()))
        db = list(range(dims))
    else:
        da, db = dims
        if isinstance(da, int):
            da = [da]
        if isinstance(db, int):
            db = [db]
        da, db = list(da), list(db)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    da = [d % a.dim() for d in da] if a.dim() else da
    db = [d % b.dim() for d in db] if b.dim() else db
    for x, y in zip(da, db):
        if a.shape[x] != b.shape[y]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size "
                               f"{a.shape[x]} in dim {x} and second has size {b.shape[y]} in "
                               f"dim {y}")
    fa = [d for d in range(a.dim()) if d not in da]
    fb = [d for d in range(b.dim()) if d not in db]
    k = 1
    for d in da:
        k *= a.shape[d]
    sa = [a.shape[d] for d in fa]
    sb = [b.shape[d] for d in fb]
    ma = 1
    for s in sa:
        ma *= s
    nb = 1
    for s in sb:
        nb *= s
    A = a.permute(fa + da).reshape(ma, k)
    B = b.permute(db + fb).reshape(k, nb)
    return _out(out, (A @ B).reshape(sa + sb))


def chain_matmul(*matrices, out=None):
    warnings.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
        "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather "
        "than multiple parameters.", UserWarning, stacklevel=2)
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if len(matrices) == 0:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        if matrices[0].dim() != 2:
            raise RuntimeError(f"Tensor dimension is {matrices[0].dim()}, expected 2 instead.")
        return _out(out, matrices[0].clone())
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    return linalg.multi_dot(list(matrices), out=out)


# ---- removed in 1.9, still named in 1.13 ----

def _removed(name, msg_tuple):
    def f(*args, **kwargs):
        head = "This function was deprecated since version 1.9 and is now removed."
        tail = f"Please use the `torch.linalg.{name}` function instead."
        raise RuntimeError((head, tail) if msg_tuple else f"{head} {tail}")
    f.__name__ = f.__qualname__ = name
    return f


lstsq = _removed("lstsq", True)
eig = _removed("eig", False)
solve = _removed("solve", False)
matrix_rank = _removed("matrix_rank", True)


def vander(x, N=None, increasing=False):
    """vander(x, N=None, increasing=False) -> Tensor

    The Vandermonde matrix of a 1-D x: N columns (default len(x)) of the powers
    of x, from x ** (N - 1) down to x ** 0, or upward with increasing=True
    (as numpy.vander). Polynomial fitting uses it.

    Example::

        >>> torch.vander(torch.tensor([1, 2, 3]), N=3)
        tensor([[1, 1, 1],
                [4, 2, 1],
                [9, 3, 1]])
    """
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is None:
        N = x.shape[0]
    if N < 0:
        raise RuntimeError("N must be non-negative.")
    if N == 0:
        return torch.zeros((x.shape[0], 0), dtype=x.dtype)
    x = x if x.is_floating_point() else x.to(torch.int64)
    r = linalg.vander(x, N=N)
    return r if increasing else r.flip(-1)


def frobenius_norm(input, dim=(-2, -1), keepdim=False, *, out=None):
    return linalg.vector_norm(input, 2, dim, keepdim, out=out)


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    if dim is None:
        dim = (-2, -1)
    return linalg.matrix_norm(input, "nuc", dim, keepdim, out=out)


# ---- torch.norm's matrix orders ----

_c_norm = torch._C._TensorBase.norm if hasattr(torch._C._TensorBase, "norm") else None


def _norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: 'nuc' and the matrix orders go to torch.linalg; the rest
    is the engine's norm."""
    if isinstance(p, str) and p == "nuc":
        dims = (-2, -1) if dim is None else tuple(dim)
        if input.dim() < 2 and dim is None:
            raise RuntimeError(f"linalg.matrix_norm: The input tensor A must have at least 2 "
                               f"dimensions.")
        return linalg.matrix_norm(input, "nuc", dims, keepdim, dtype=dtype, out=out)
    kw = {}
    if dim is not None:
        kw["dim"] = dim
    if keepdim:
        kw["keepdim"] = keepdim
    if dtype is not None:
        kw["dtype"] = dtype
    if out is not None:
        kw["out"] = out
    if input.is_complex():
        # the norm of the magnitudes, a real tensor, as PyTorch gives for
        # complex input (the engine's norm kernel takes real dtypes)
        input = input.abs()
    return _c_norm(input, p, **kw)


# ---- Tensor methods ----

def _install_methods():
    T = torch.Tensor
    if _c_norm is not None:
        T.norm = lambda self, p="fro", dim=None, keepdim=False, dtype=None: _norm(
            self, p, dim, keepdim, dtype=dtype)
        torch.norm = _norm
        T.norm.__name__ = "norm"
    T.det = lambda self: det(self)
    T.logdet = lambda self: logdet(self)
    T.slogdet = lambda self: slogdet(self)
    T.inverse = lambda self: inverse(self)
    T.cholesky = lambda self, upper=False: cholesky(self, upper)
    T.cholesky_solve = lambda self, input2, upper=False: cholesky_solve(self, input2, upper)
    T.cholesky_inverse = lambda self, upper=False: cholesky_inverse(self, upper)
    T.qr = lambda self, some=True: qr(self, some)
    T.svd = lambda self, some=True, compute_uv=True: svd(self, some, compute_uv)
    T.symeig = lambda self, eigenvectors=False, upper=True: symeig(self, eigenvectors, upper)
    T.lu = lambda self, pivot=True, get_infos=False: lu(self, pivot, get_infos)
    T.lu_solve = lambda self, LU_data, LU_pivots: lu_solve(self, LU_data, LU_pivots)
    T.pinverse = lambda self, rcond=1e-15: pinverse(self, rcond)
    T.matrix_exp = lambda self: matrix_exp(self)
    T.matrix_power = lambda self, n: linalg.matrix_power(self, n)
    T.triangular_solve = (lambda self, A, upper=True, transpose=False, unitriangular=False:
                          triangular_solve(self, A, upper, transpose, unitriangular))
    T.geqrf = lambda self: geqrf(self)
    T.lstsq = lambda self, *a, **k: lstsq(self, *a, **k)
    T.eig = lambda self, *a, **k: eig(self, *a, **k)
    T.solve = lambda self, *a, **k: solve(self, *a, **k)
    T.matrix_rank = lambda self, *a, **k: matrix_rank(self, *a, **k)
    T.orgqr = lambda self, input2: orgqr(self, input2)
    T.ormqr = (lambda self, input2, input3, left=True, transpose=False:
               ormqr(self, input2, input3, left, transpose))
    for name in ("det", "logdet", "slogdet", "inverse", "cholesky", "cholesky_solve",
                 "cholesky_inverse", "qr", "svd", "symeig", "lu", "lu_solve", "pinverse",
                 "matrix_exp", "matrix_power", "triangular_solve", "geqrf", "orgqr", "ormqr",
                 "lstsq", "eig", "solve", "matrix_rank"):
        getattr(T, name).__name__ = name
        getattr(T, name).__qualname__ = "Tensor." + name


_install_methods()
del _install_methods

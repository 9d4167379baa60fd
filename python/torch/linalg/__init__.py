"""torch.linalg, as PyTorch 1.13 has it, on LAPACK.

Factorisations and solvers are LAPACK's (Debian's OpenBLAS carries it; see
docs/language-tensors.md, "Linear algebra"), reached through torch._C's
_linalg_* kernels; torch/linalg/_core.py wraps each in an autograd.Function
with PyTorch's backward formula. What PyTorch writes as a composite of other
ops (norms, cond, matrix_rank, matrix_exp, multi_dot, tensorinv, ...) is
written the same way here, so its gradient comes from autograd as in
PyTorch. Real dtypes only (float32, float64): nndb has no complex tensors,
so eig and eigvals, whose results are complex, raise (see the docs).
"""

import math as _math
import sys as _sys

import torch
from torch import _C
from torch.linalg import _core
from torch.linalg._core import _LinAlgError

LinAlgError = _LinAlgError

__all__ = [
    "LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eig", "eigh",
    "eigvals", "eigvalsh", "householder_product", "inv", "inv_ex", "lstsq", "lu", "lu_factor",
    "lu_factor_ex", "lu_solve", "matmul", "matrix_exp", "matrix_norm", "matrix_power",
    "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_ex",
    "solve_triangular", "svd", "svdvals", "tensorinv", "tensorsolve", "vander", "vecdot",
    "vector_norm", "ldl_factor", "ldl_factor_ex", "ldl_solve",
]

_SCALAR = {
    torch.float32: "Float", torch.float64: "Double", torch.int64: "Long", torch.int32: "Int",
    torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte", torch.bool: "Bool",
    torch.float16: "Half", torch.bfloat16: "BFloat16",
}


def _sname(dt):
    return _SCALAR.get(dt, str(dt))


# ---- named results (torch.return_types) ----

def _return_type(name, fields):
    def __new__(cls, *values):
        return tuple.__new__(cls, values)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"

    ns = {"__slots__": (), "__new__": __new__, "__repr__": __repr__, "n_fields": len(fields),
          "n_sequence_fields": len(fields), "_fields": tuple(fields)}
    for i, f in enumerate(fields):
        ns[f] = property(lambda self, i=i: self[i])
    cls = type(name, (tuple,), ns)
    cls.__module__ = "torch.return_types"
    return cls


_rt_solve_ex = _return_type("linalg_solve_ex", ("result", "info"))
_rt_inv_ex = _return_type("linalg_inv_ex", ("inverse", "info"))
_rt_cholesky_ex = _return_type("linalg_cholesky_ex", ("L", "info"))
_rt_slogdet = _return_type("linalg_slogdet", ("sign", "logabsdet"))
_rt_qr = _return_type("linalg_qr", ("Q", "R"))
_rt_svd = _return_type("linalg_svd", ("U", "S", "Vh"))
_rt_eigh = _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
_rt_eig = _return_type("linalg_eig", ("eigenvalues", "eigenvectors"))
_rt_lstsq = _return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_rt_lu = _return_type("linalg_lu", ("P", "L", "U"))
_rt_lu_factor = _return_type("linalg_lu_factor", ("LU", "pivots"))
_rt_lu_factor_ex = _return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
_rt_ldl_factor = _return_type("linalg_ldl_factor", ("LD", "pivots"))
_rt_ldl_factor_ex = _return_type("linalg_ldl_factor_ex", ("LD", "pivots", "info"))


# ---- argument checks, in PyTorch's words ----

def _check_tensor(A, api, name="A"):
    if not isinstance(A, torch.Tensor):
        raise TypeError(f"{api}(): argument '{name}' (position 1) must be Tensor, not "
                        f"{type(A).__name__}")


def _check_matrix(A, api, square=False, what="A"):
    _check_tensor(A, api)
    if A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor {what} must have at least 2 dimensions.")
    _check_float(A, api)
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{api}: {what} must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")


def _check_float(A, api):
    if A.dtype in (torch.float16, torch.bfloat16):
        raise RuntimeError(f"{api}: Low precision dtypes not supported. Got {_sname(A.dtype)}")
    if A.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"{api}: Expected a floating point or complex tensor as input. Got "
                           f"{_sname(A.dtype)}")


def _check_same_dtype(A, B, api, an="A", bn="B"):
    if A.dtype != B.dtype:
        raise RuntimeError(f"{api}: Expected {an} and {bn} to have the same dtype, but found {an} "
                           f"of type {_sname(A.dtype)} and {bn} of type {_sname(B.dtype)} "
                           "instead")


def _batch(*shapes):
    return tuple(torch.broadcast_shapes(*[tuple(s) for s in shapes]))


def _out(out, result, name=None):
    """result written into out as torch._C's functions do it (binding/py_out.c:
    PyTorch's checks, the resize warning, NAME_out for tuple results); [name]
    is PyTorch's (linalg_NAME of the calling function unless given)."""
    if out is None:
        return result
    return _C._out_write(result, out, name or "linalg_" + _sys._getframe(1).f_code.co_name)


def _is_vector_rhs(A, B):
    return B.dim() == 1 or (A.dim() - 1 == B.dim() and tuple(B.shape) == tuple(A.shape[:-1]))


# ---- solve, inverse, determinant ----

def _solve(A, B, left, api, check):
    _check_tensor(A, api)
    _check_matrix(A, "linalg.solve", square=True)
    _check_same_dtype(A, B, "linalg.solve")
    vector = _is_vector_rhs(A, B)
    Bm = (B.unsqueeze(-1) if left else B.unsqueeze(-2)) if vector else B
    n = A.shape[-1]
    if (Bm.shape[-2] if left else Bm.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {eq} "
                           f"({A.shape[-2]}x{A.shape[-1]} and {Bm.shape[-2]}x{Bm.shape[-1]})")
    if not left:
        A, Bm = A.mT, Bm.mT
    use_t = A.is_contiguous()
    batch = _batch(A.shape[:-2], Bm.shape[:-2])
    Ab = A.expand(batch + (n, n))
    Bb = Bm.expand(batch + tuple(Bm.shape[-2:]))
    X, info = _core.fast_apply(_core.LinalgSolveEx, Ab, Bb, api, check, use_t)
    if not left:
        X = X.mT
    if vector:
        X = X.squeeze(-1) if left else X.squeeze(-2)
    return X, info


def solve(A, B, *, left=True, out=None):
    return _out(out, _solve(A, B, left, "torch.linalg.solve", True)[0])


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    X, info = _solve(A, B, left, "torch.linalg.solve_ex", check_errors)
    return _out(out, _rt_solve_ex(X, info))


def inv_ex(A, *, check_errors=False, out=None):
    _check_matrix(A, "linalg.inv", square=True)
    X, info = _core.inv_core(A, "linalg.inv", check_errors)
    return _out(out, _rt_inv_ex(X, info))


def inv(A, *, out=None):
    _check_matrix(A, "linalg.inv", square=True)
    return _out(out, _core.inv_core(A, "linalg.inv", True)[0])


def _lu_for_det(A):
    # det(A^T) = det(A): PyTorch factors A^T when A is contiguous (no copy
    # into column-major order), so the LU and the rounding are the same
    return _C._linalg_lu_factor(A.mT if A.is_contiguous() else A)


class _Slogdet(torch.autograd.Function):
    @staticmethod
    def forward(ctx, A):
        LU, piv, info = _lu_for_det(A)
        d = LU.diagonal(0, -2, -1)
        n = A.shape[-1]
        swaps = (piv != torch.arange(1, n + 1, dtype=piv.dtype)).sum(-1)
        sign = torch.where(swaps % 2 == 1, -1.0, 1.0).to(A.dtype) * torch.sign(d).prod(-1)
        logabs = d.abs().log().sum(-1)
        ctx.save_for_backward(A)
        return sign, logabs

    @staticmethod
    def backward(ctx, gsign, glog):
        (A,) = ctx.saved_tensors
        # d logabsdet / dA = A^{-T}
        return solve(A.mT, glog.unsqueeze(-1).unsqueeze(-1) * torch.eye(A.shape[-1],
                                                                         dtype=A.dtype))


_core._named(_Slogdet, "LinalgSlogdetBackward0")


def slogdet(A, *, out=None):
    _check_matrix(A, "linalg.slogdet", square=True)
    sign, logabs = _core.fast_apply(_Slogdet, A)
    return _out(out, _rt_slogdet(sign, logabs))


class _Det(torch.autograd.Function):
    @staticmethod
    def forward(ctx, A):
        LU, piv, info = _lu_for_det(A)
        n = A.shape[-1]
        swaps = (piv != torch.arange(1, n + 1, dtype=piv.dtype)).sum(-1)
        sign = torch.where(swaps % 2 == 1, -1.0, 1.0).to(A.dtype)
        det = sign * LU.diagonal(0, -2, -1).prod(-1)
        ctx.save_for_backward(A, det)
        return det

    @staticmethod
    def backward(ctx, g):
        # PyTorch 1.13's linalg_det_backward: g * det * A^-T through the LU;
        # a matrix whose det is exactly 0 gets 0, except when the graph of
        # the gradient is built (create_graph), where the cofactors come
        # from the SVD.
        A, det = ctx.saved_tensors
        if A.shape[-1] == 0:
            return torch.zeros_like(A)
        singular = det == 0
        n = A.shape[-1]
        eye = torch.eye(n, dtype=A.dtype)
        gd = (g * det).unsqueeze(-1).unsqueeze(-1)
        if not bool(singular.any()):
            return solve(A.mT, gd * eye)
        safe = torch.where(singular.unsqueeze(-1).unsqueeze(-1), eye, A)
        gA = torch.where(singular.unsqueeze(-1).unsqueeze(-1), torch.zeros((), dtype=A.dtype),
                         solve(safe.mT, gd * eye))
        if not torch.is_grad_enabled():
            return gA
        U, S, Vh = svd(A)
        alpha = (_det_core(U) * _det_core(Vh)).unsqueeze(-1)
        prods = []
        for i in range(n):
            keep = torch.ones(n, dtype=torch.bool)
            keep[i] = False
            prods.append(S[..., keep].prod(-1) if n > 1 else torch.ones_like(S[..., 0]))
        D = torch.stack(prods, -1) * alpha * g.unsqueeze(-1)
        cof = (U * D.unsqueeze(-2)) @ Vh
        return torch.where(singular.unsqueeze(-1).unsqueeze(-1), cof, gA)


_core._named(_Det, "LinalgDetBackward0")


def _det_core(A):
    return _core.fast_apply(_Det, A)


def det(A, *, out=None):
    _check_matrix(A, "linalg.det", square=True)
    return _out(out, _core.fast_apply(_Det, A))


# ---- LU ----

def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    _check_matrix(A, "torch.linalg.lu_factor_ex")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU, piv, info = _core.fast_apply(_core.LinalgLuFactorEx, A, "torch.linalg.lu_factor_ex",
                                     check_errors)
    return _out(out, _rt_lu_factor_ex(LU, piv, info))


def lu_factor(A, *, pivot=True, out=None):
    _check_matrix(A, "torch.linalg.lu_factor")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU, piv, info = _core.fast_apply(_core.LinalgLuFactorEx, A, "torch.linalg.lu_factor", True)
    return _out(out, _rt_lu_factor(LU, piv))


def lu(A, *, pivot=True, out=None):
    _check_matrix(A, "linalg.lu")
    if not pivot:
        raise RuntimeError("linalg.lu: LU without pivoting is not implemented on the CPU")
    P, L, U = _core.fast_apply(_core.LinalgLu, A)
    return _out(out, _rt_lu(P, L, U))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    api = "linalg.lu_solve"
    _check_matrix(LU, api, square=True, what="LU")
    _check_same_dtype(LU, B, api, "LU", "B")
    if B.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{api}: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    batch = _batch(LU.shape[:-2], B.shape[:-2], pivots.shape[:-1])
    LUb = LU.expand(batch + (n, n))
    pb = pivots.expand(batch + (n,))
    P, L, U = _lu_unpack(LUb, pb)
    # A = P L U; composite of triangular solves, so autograd gives the gradient
    st = _core.solve_triangular_core
    if left and not adjoint:   # X = U^-1 L^-1 P^T B
        Bb = B.expand(batch + tuple(B.shape[-2:]))
        X = st(U, st(L, P.mT @ Bb, upper=False, unitriangular=True), upper=True)
    elif left:                 # A^T X = B: X = P L^-T U^-T B
        Bb = B.expand(batch + tuple(B.shape[-2:]))
        X = P @ st(L.mT, st(U.mT, Bb, upper=False), upper=True, unitriangular=True)
    elif not adjoint:          # X A = B: X = B U^-1 L^-1 P^T
        Bb = B.expand(batch + tuple(B.shape[-2:]))
        X = st(L, st(U, Bb, upper=True, left=False), upper=False, left=False,
               unitriangular=True) @ P.mT
    else:                      # X A^T = B: X = B P L^-T U^-T
        Bb = B.expand(batch + tuple(B.shape[-2:]))
        X = st(U.mT, st(L.mT, Bb @ P, upper=True, left=False, unitriangular=True),
               upper=False, left=False)
    return _out(out, X)


def _lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    from torch._linalg_legacy import _rt_lu_unpack
    P, L, U = _core.lu_unpack_core(LU_data, LU_pivots, unpack_data, unpack_pivots)
    empty = torch.zeros((0,), dtype=LU_data.dtype)
    return _out(out, _rt_lu_unpack(P if P is not None else empty,
                                   L if L is not None else empty,
                                   U if U is not None else empty))


# ---- Cholesky ----

def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    _check_matrix(A, "linalg.cholesky", square=True)
    L, info = _core.fast_apply(_core.LinalgCholeskyEx, A, upper, "linalg.cholesky", check_errors)
    return _out(out, _rt_cholesky_ex(L, info))


def cholesky(A, *, upper=False, out=None):
    _check_matrix(A, "linalg.cholesky", square=True)
    return _out(out, _core.fast_apply(_core.LinalgCholeskyEx, A, upper, "linalg.cholesky", True)[0])


# ---- triangular solve ----

def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    api = "linalg.solve_triangular"
    _check_matrix(A, api, square=True)
    _check_same_dtype(A, B, api)
    if B.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor B must have at least 2 dimensions.")
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{api}: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    batch = _batch(A.shape[:-2], B.shape[:-2])
    X = _core.solve_triangular_core(A.expand(batch + (n, n)),
                                    B.expand(batch + tuple(B.shape[-2:])), upper, left,
                                    unitriangular)
    return _out(out, X)


# ---- QR, Householder ----

def qr(A, mode="reduced", *, out=None):
    _check_matrix(A, "linalg.qr")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    Q, R = _core.fast_apply(_core.LinalgQr, A, mode)
    return _out(out, _rt_qr(Q, R))


def householder_product(A, tau, *, out=None):
    api = "torch.linalg.householder_product"
    _check_matrix(A, api)
    if tau.dim() < 1:
        raise RuntimeError(f"{api}: input.dim() must be greater than or equal to 2")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{api}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{api}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if A.dim() - tau.dim() != 1:
        raise RuntimeError(f"{api}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.dim()} and input.ndim is equal to "
                           f"{A.dim()}")
    _check_same_dtype(A, tau, api, "input", "tau")
    return _out(out, _core.fast_apply(_core.LinalgHouseholderProduct, A, tau))


# ---- SVD, eigenproblems ----

def svd(A, full_matrices=True, *, driver=None, out=None):
    _check_matrix(A, "linalg.svd")
    U, S, Vh = _core.fast_apply(_core.LinalgSvd, A, full_matrices, "linalg.svd")
    return _out(out, _rt_svd(U, S, Vh))


def svdvals(A, *, driver=None, out=None):
    _check_matrix(A, "linalg.svd")
    return _out(out, _core.fast_apply(_core.LinalgSvdvals, A, "linalg.svd"))


def _uplo(UPLO, api):
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO in ("U", "u")


def eigh(A, UPLO="L", *, out=None):
    _check_matrix(A, "linalg.eigh", square=True)
    L, V = _core.fast_apply(_core.LinalgEigh, A, _uplo(UPLO, "linalg.eigh"), "linalg.eigh")
    return _out(out, _rt_eigh(L, V))


def eigvalsh(A, UPLO="L", *, out=None):
    _check_matrix(A, "linalg.eigh", square=True)
    return _out(out, _core.fast_apply(_core.LinalgEigvalsh, A, _uplo(UPLO, "linalg.eigvalsh"),
                                                "linalg.eigvalsh"))


_rt_eig = _return_type("linalg_eig", ("eigenvalues", "eigenvectors"))


def _eig_complex(A, vectors):
    """LAPACK geev's result as complex tensors, as PyTorch's linalg.eig gives
    it: the eigenvalues wr + i wi, and the right eigenvectors unpacked from
    geev's real form (a conjugate pair j, j + 1 stores v_j = VR[:, j] +
    i VR[:, j + 1], v_j+1 its conjugate). No gradient."""
    wr, wi, vr = _eig_real(A)
    w = torch.complex(wr, wi)
    if not vectors:
        return w, None
    re, im = vr.clone(), torch.zeros_like(vr)
    n = A.shape[-1]
    flat_wi = wi.reshape(-1, n).tolist()
    re2, im2, vr2 = re.reshape(-1, n, n), im.reshape(-1, n, n), vr.reshape(-1, n, n)
    for b, row in enumerate(flat_wi):
        j = 0
        while j < n:
            if row[j] != 0 and j + 1 < n:
                im2[b, :, j] = vr2[b, :, j + 1]
                re2[b, :, j + 1] = vr2[b, :, j]
                im2[b, :, j + 1] = -vr2[b, :, j + 1]
                j += 2
            else:
                j += 1
    return w, torch.complex(re2.reshape(vr.shape), im2.reshape(vr.shape))


def eig(A, *, out=None):
    _check_matrix(A, "linalg.eig", square=True)
    w, V = _eig_complex(A, True)
    return _out(out, _rt_eig(w, V))


def eigvals(A, *, out=None):
    _check_matrix(A, "linalg.eigvals", square=True)
    return _out(out, _eig_complex(A, False)[0])


def _eig_real(A):
    """(wr, wi, VR): LAPACK geev's eigenvalues as real and imaginary parts and
    its packed right eigenvectors (no gradient)."""
    _check_matrix(A, "linalg.eig", square=True)
    wr, wi, vr, info = _C._linalg_eig(A.detach(), True)
    _core.check_info(info, "linalg.eig", "svd")
    return wr, wi, vr


# ---- least squares, pseudo-inverse, rank ----

def lstsq(A, B, rcond=None, *, driver=None):
    api = "torch.linalg.lstsq"
    _check_tensor(A, api)
    if A.dim() < 2:
        raise RuntimeError(f"{api}: input must have at least 2 dimensions.")
    _check_float(A, "linalg.lstsq")
    _check_same_dtype(A, B, "torch.linalg.lstsq", "A", "B")
    vector = A.dim() == B.dim() + 1
    Bm = B.unsqueeze(-1) if vector else B
    if Bm.dim() < 1 or Bm.shape[-2] != A.shape[-2]:
        raise RuntimeError(f"{api}: input.size(-2) should match other.size(-2)")
    if driver is None:
        driver = "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"{api}: parameter `driver` should be one of "
                           "(gels, gelsy, gelsd, gelss)")
    m, n = A.shape[-2], A.shape[-1]
    if rcond is None:
        rcond = torch.finfo(A.dtype).eps * max(m, n)
    batch = _batch(A.shape[:-2], Bm.shape[:-2])
    Ab = A.expand(batch + (m, n))
    Bb = Bm.expand(batch + tuple(Bm.shape[-2:]))
    X, rank, sv = _core.fast_apply(_core.LinalgLstsq, Ab, Bb, float(rcond), driver)
    empty = torch.zeros((0,), dtype=A.dtype)
    residuals = empty
    if m > n and driver != "gelsy":
        full_rank = rank is None or bool((rank == n).all())
        if full_rank:
            with torch.no_grad():
                residuals = ((Ab @ X - Bb) ** 2).sum(-2)
    if vector:
        X = X.squeeze(-1)
        if residuals.numel():
            residuals = residuals.squeeze(-1)
    return _rt_lstsq(X, residuals, rank if rank is not None else torch.zeros((0,),
                                                                              dtype=torch.int64),
                     sv if sv is not None else empty)


def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None, rcond=None):
    _check_matrix(A, "linalg.pinv")
    if rcond is not None:
        rtol = rcond
    return _out(out, _core.pinv_core(A, atol, rtol, hermitian))


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    _check_matrix(A, "torch.linalg.matrix_rank")
    if tol is not None:
        atol, rtol = tol, 0.0
    atol_t, rtol_t = _core.tolerances(A, atol, rtol)
    with torch.no_grad():
        S = eigvalsh(A).abs() if hermitian else svdvals(A)
        if S.shape[-1] == 0:
            return _out(out, torch.zeros(tuple(A.shape[:-2]), dtype=torch.int64))
        maxv = S.amax(-1)
        tol_t = torch.maximum(atol_t, rtol_t * maxv)
        return _out(out, (S > tol_t.unsqueeze(-1)).sum(-1))


# ---- powers and the exponential ----

class _Constant(torch.autograd.Function):
    """[value], with a zero gradient for [A] (matrix_power(A, 0))."""

    @staticmethod
    def forward(ctx, A, value):
        ctx.shape = A.shape
        ctx.dtype = A.dtype
        return value

    @staticmethod
    def backward(ctx, g):
        return torch.zeros(ctx.shape, dtype=ctx.dtype), None


_core._named(_Constant, "LinalgMatrixPowerBackward0")


def matrix_power(A, n, *, out=None):
    api = "linalg.matrix_power"
    _check_tensor(A, api)
    if A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{api}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if not isinstance(n, int):
        raise TypeError(f"matrix_power(): argument 'n' must be int, not {type(n).__name__}")
    if n == 0:
        return _out(out, _core.fast_apply(_Constant, A, torch.eye(A.shape[-1], dtype=A.dtype)
                                         .expand(A.shape).clone()))
    a = A
    if n < 0:
        a = inv(A)
        n = -n
    if n == 1:
        return _out(out, a.clone())
    if n == 2:
        return _out(out, a @ a)
    if n == 3:
        return _out(out, (a @ a) @ a)
    z = result = None
    while n > 0:
        bit = n % 2
        n //= 2
        z = a if z is None else z @ z
        if bit == 1:
            result = z if result is None else result @ z
    return _out(out, result)


# matrix_exp: scaling and squaring over the degree-18 Taylor polynomial.
# The norm bound below keeps the truncation error (theta^19 / 19!) under
# the dtype's rounding: about 5e-18 at 1.09 for float64, 1e-8 at 3.0 for
# float32. PyTorch uses the same scheme with optimized polynomials (Bader,
# Blanes, Casas 2019); results agree to rounding.
_MEXP_THETA = {torch.float32: 3.0, torch.float64: 1.09}


def _taylor(A, deg):
    """The Taylor polynomial of exp of degree [deg], in Horner form."""
    eye = torch.eye(A.shape[-1], dtype=A.dtype)
    if deg == 1:
        return eye + A
    out = eye + A / float(deg)
    for k in range(deg - 1, 0, -1):
        out = eye + (A @ out) / float(k)
    return out


def matrix_exp(A):
    api = "linalg.matrix_exp"
    _check_tensor(A, api)
    if A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{api}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    _check_float(A, api)
    n = A.shape[-1]
    if n == 0:
        return A.clone()
    if n == 1:
        return A.exp()
    if A.dtype == torch.float32:
        # PyTorch's float32 result is within a few ulps; Taylor in float32
        # loses more under squaring, so nndb computes it in float64
        return matrix_exp(A.double()).float()
    theta = _MEXP_THETA[A.dtype]
    with torch.no_grad():
        norm1 = A.abs().sum(-2).amax(-1).max().item() if A.numel() else 0.0
    s = max(0, int(_math.ceil(_math.log2(norm1 / theta)))) if norm1 > theta else 0
    E = _taylor(A / (2.0 ** s) if s else A, 18)
    for _ in range(s):
        E = E @ E
    return E


# ---- norms ----

class _VectorNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, ord, dim, keepdim):
        a = x.abs()
        if ord == _math.inf:
            r = a.amax(dim=dim, keepdim=keepdim) if a.numel() else a.sum(dim=dim, keepdim=keepdim)
        elif ord == -_math.inf:
            r = a.amin(dim=dim, keepdim=keepdim)
        elif ord == 0:
            r = (a != 0).to(x.dtype).sum(dim=dim, keepdim=keepdim)
        elif ord == 1:
            r = a.sum(dim=dim, keepdim=keepdim)
        elif ord == 2:
            r = (a * a).sum(dim=dim, keepdim=keepdim).sqrt()
        else:
            r = (a ** ord).sum(dim=dim, keepdim=keepdim) ** (1.0 / ord)
        if ctx is not None:
            ctx.opts = (ord, dim, keepdim)
            ctx.save_for_backward(x, r)
        return r

    @staticmethod
    def backward(ctx, g):
        x, norm = ctx.saved_tensors
        p, dim, keepdim = ctx.opts
        if not keepdim and x.dim() != 0:
            dims = sorted(d % x.dim() for d in dim)
            for d in dims:
                g = g.unsqueeze(d)
                norm = norm.unsqueeze(d)
        zero = torch.zeros((), dtype=x.dtype)
        if p == 0:
            return torch.zeros_like(x), None, None, None
        if p == 1:
            return x.sgn() * g, None, None, None
        if p == 2:
            return g * torch.where(norm == 0, zero, x / norm), None, None, None
        if _math.isinf(p):
            is_max = ((x.abs() == norm) | (x.isnan() & norm.isnan())).to(x.dtype)
            nb = is_max.sum(dim=dim, keepdim=True) if x.dim() else is_max
            return x.sign() * is_max * (g / nb), None, None, None
        if p < 1:
            scaled = x.sgn() * torch.where(x == 0, zero, x.abs() ** (p - 1))
            return scaled * g * norm ** (1 - p), None, None, None
        if p < 2:
            scaled = x.sgn() * x.abs() ** (p - 1)
        else:
            scaled = x * x.abs() ** (p - 2)
        scale = torch.where(norm == 0, zero, g / norm ** (p - 1))
        return scaled * scale, None, None, None


_core._named(_VectorNorm, "LinalgVectorNormBackward0")


def _dims(dim, ndim):
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        return (dim,)
    return tuple(dim)


def _check_norm_dtype(dtype, api):
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{api}: dtype should be floating point or complex, but got "
                           f"{_sname(dtype)}")


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    api = "linalg.vector_norm"
    _check_tensor(x, api, "input")
    if x.is_complex():
        if x.requires_grad and torch.is_grad_enabled():
            raise RuntimeError(f"{api}: nndb has no gradient through the norm of a complex "
                               "tensor yet; take x.abs() first, or detach()")
        x = x.abs()  # the norm of the magnitudes, real, as PyTorch gives
    if not x.is_floating_point():
        raise RuntimeError(f"{api}: Expected a floating point or complex tensor as input. Got "
                           f"{_sname(x.dtype)}")
    _check_norm_dtype(dtype, api)
    if dtype is not None:
        x = x.to(dtype)
    ord = float(ord)
    dims = _dims(dim, x.dim())
    if x.dim() == 0:
        dims = ()
    if x.numel() == 0 and (ord < 0 or ord == _math.inf):
        raise RuntimeError(f"{api} cannot compute the {ord:g} norm on an empty tensor because "
                           "the operation does not have an identity")
    if dim is None and x.dim() > 0:
        xx = x.reshape(-1)
        if not (x.requires_grad and torch.is_grad_enabled()):
            r = _VectorNorm.forward(None, xx, ord, (0,), False)
            return _out(out, r.reshape((1,) * x.dim()) if keepdim else r)
        r = _core.fast_apply(_VectorNorm, xx, ord, (0,), keepdim)
        if keepdim:
            r = r.reshape((1,) * x.dim())
        elif r.dim():
            r = r.reshape(())
        return _out(out, r)
    if x.dim() == 0:
        return _out(out, _core.fast_apply(_VectorNorm, x.reshape(1), ord, (0,), False).reshape(()))
    return _out(out, _core.fast_apply(_VectorNorm, x, ord, dims, keepdim))


class _Extreme(torch.autograd.Function):
    """amax/amin over one dim with PyTorch's gradient: split evenly among
    the elements equal to the result."""

    @staticmethod
    def forward(ctx, x, dim, keepdim, is_max):
        r = x.amax(dim, keepdim=True) if is_max else x.amin(dim, keepdim=True)
        ctx.dim = dim
        ctx.save_for_backward(x, r)
        return r if keepdim else r.squeeze(dim)

    @staticmethod
    def backward(ctx, g):
        x, r = ctx.saved_tensors
        if g.dim() < x.dim():
            g = g.unsqueeze(ctx.dim)
        mask = (x == r).to(x.dtype)
        return mask * (g / mask.sum(ctx.dim, keepdim=True)), None, None, None


_core._named(_Extreme, "AmaxBackward0")


def _extreme(x, dim, keepdim, is_max):
    return _core.fast_apply(_Extreme, x, dim, keepdim, is_max)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    api = "linalg.matrix_norm"
    _check_tensor(A, api)
    if A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor A must have at least 2 dimensions.")
    _check_float(A, api)
    _check_norm_dtype(dtype, api)
    if dtype is not None:
        A = A.to(dtype)
    dim = tuple(dim)
    if len(dim) != 2:
        raise RuntimeError(f"{api}: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    d0, d1 = dim[0] % A.dim(), dim[1] % A.dim()
    if d0 == d1:
        raise RuntimeError(f"{api}: dims must be different. Got ({dim[0]}, {dim[1]})")
    if isinstance(ord, str):
        if ord == "fro":
            return _out(out, vector_norm(A, 2, dim, keepdim))
        if ord == "nuc":
            r = svdvals(A.movedim((d0, d1), (-2, -1))).sum(-1)
            if keepdim:
                r = r.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
            return _out(out, r)
        raise RuntimeError(f"{api}: Order {ord} not supported.")
    ord = float(ord)
    if ord in (2.0, -2.0):
        S = svdvals(A.movedim((d0, d1), (-2, -1)))
        r = _extreme(S, -1, False, ord > 0)
        if keepdim:
            r = r.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
        return _out(out, r)
    if ord in (1.0, -1.0, _math.inf, -_math.inf):
        if ord in (_math.inf, -_math.inf):
            d0, d1 = d1, d0
        s = A.abs().sum(d0, keepdim=True)
        r = _extreme(s, d1, True, ord > 0)
        if not keepdim:
            r = r.squeeze(max(d0, d1)).squeeze(min(d0, d1))
        return _out(out, r)
    raise RuntimeError(f"{api}: Order {ord:g} not supported.")


def norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    _check_tensor(A, "linalg.norm")
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) == 2:
            return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype,
                               out=out)
        if ord is not None and isinstance(ord, str):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dims)}")
        return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype, out=out)
    if ord is not None:
        if A.dim() not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input "
                               f"must be 1D or 2D. Got {A.dim()}D.")
        if A.dim() == 2:
            return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype, out=out)
        return vector_norm(A, ord, None, keepdim, dtype=dtype, out=out)
    return vector_norm(A, 2, None, keepdim, dtype=dtype, out=out)


def cond(A, p=None, *, out=None):
    api = "linalg.cond"
    _check_matrix(A, api)
    if p is None or p in (2, -2):
        S = svdvals(A)
        r = S[..., 0] / S[..., -1] if p in (None, 2) else S[..., -1] / S[..., 0]
        return _out(out, r)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{api}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    Ainv, info = inv_ex(A)
    r = matrix_norm(A, p) * matrix_norm(Ainv, p)
    if bool((info != 0).any()):
        r = torch.where(info != 0, torch.full((), _math.inf, dtype=r.dtype), r)
    return _out(out, r)


# ---- products and others ----

def cross(input, other, *, dim=-1, out=None):
    if input.dim() != other.dim():
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions.")
    shape = _batch(input.shape, other.shape)
    if shape[dim] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[dim]} and {other.shape[dim]}")
    a, b = input.expand(shape), other.expand(shape)
    a0, a1, a2 = a.unbind(dim)
    b0, b1, b2 = b.unbind(dim)
    return _out(out, torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0],
                                 dim))


def vecdot(x, y, *, dim=-1, out=None):
    return _out(out, (x * y).sum(dim))


def matmul(input, other, *, out=None):
    return _out(out, torch.matmul(input, other))


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return torch.diagonal(A, offset, dim1, dim2)


def multi_dot(tensors, *, out=None):
    api = "multi_dot()"
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"{api}: expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    if first.dim() not in (1, 2):
        raise RuntimeError(f"{api}: the first tensor must be 1D or 2D but got {first.dim()}D")
    if last.dim() not in (1, 2):
        raise RuntimeError(f"{api}: the last tensor must be 1D or 2D but got {last.dim()}D")
    for i, t in enumerate(tensors[1:-1], 1):
        if t.dim() != 2:
            raise RuntimeError(f"{api}: tensor {i} must be 2D but got {t.dim()}D")
    mats = list(tensors)
    if first.dim() == 1:
        mats[0] = first.unsqueeze(0)
    if last.dim() == 1:
        mats[-1] = last.unsqueeze(-1)
    for i in range(n - 1):
        if mats[i].shape[-1] != mats[i + 1].shape[0]:
            raise RuntimeError(f"{api}: tensors {i} and {i + 1} with shapes "
                               f"{list(mats[i].shape)} and {list(mats[i + 1].shape)} cannot be "
                               "multiplied")
    if n == 2:
        r = mats[0] @ mats[1]
    else:
        r = _chain(mats)
    if first.dim() == 1 and last.dim() == 1:
        r = r.reshape(())
    elif first.dim() == 1:
        r = r.squeeze(0)
    elif last.dim() == 1:
        r = r.squeeze(-1)
    return _out(out, r)


def _chain(mats):
    """The product in the order of fewest multiplications (the textbook
    dynamic programme, as PyTorch's multi_dot)."""
    n = len(mats)
    p = [mats[0].shape[0]] + [m.shape[1] for m in mats]
    if n == 3:
        a, b, c, d = p
        cost1 = a * c * (b + d)
        cost2 = b * d * (a + c)
        return (mats[0] @ mats[1]) @ mats[2] if cost1 < cost2 else mats[0] @ (mats[1] @ mats[2])
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k

    def build(i, j):
        if i == j:
            return mats[i]
        k = split[i][j]
        return build(i, k) @ build(k + 1, j)

    return build(0, n - 1)


def vander(x, N=None):
    if x.dim() == 0:
        x = x.reshape(1)
    if N is None:
        N = x.shape[-1] if x.dim() else 1
    if N < 1:
        raise RuntimeError("N must be greater than 1.")
    shape = tuple(x.shape) + (N,)
    if N == 1:
        return torch.ones(shape, dtype=x.dtype)
    ones = torch.ones(tuple(x.shape) + (1,), dtype=x.dtype)
    rest = x.unsqueeze(-1).expand(tuple(x.shape) + (N - 1,))
    return torch.cat([ones, rest], -1).cumprod(-1)


def tensorinv(A, ind=2, *, out=None):
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    out_shape = tuple(A.shape[ind:]) + tuple(A.shape[:ind])
    prod_ind_end = 1
    for s in A.shape[ind:]:
        prod_ind_end *= s
    prod_ind_begin = 1
    for s in A.shape[:ind]:
        prod_ind_begin *= s
    if prod_ind_end != prod_ind_begin:
        raise RuntimeError("Expected self to satisfy the requirement "
                           "prod(self.shape[ind:]) == prod(self.shape[:ind]), but got "
                           f"{prod_ind_end} != {prod_ind_begin}")
    r = inv(A.reshape(prod_ind_begin, prod_ind_end))
    return _out(out, r.reshape(out_shape))


def tensorsolve(A, B, dims=None, *, out=None):
    nd = A.dim()
    if dims is not None:
        dims = [d % nd for d in dims]
        keep = [d for d in range(nd) if d not in dims]
        A = A.permute(keep + dims)
    rest = tuple(A.shape[B.dim():])
    n = 1
    for s in rest:
        n *= s
    m = B.numel()
    if m != n:
        raise RuntimeError("Expected self to satisfy the requirement "
                           "prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but "
                           f"got {n} != {m}")
    X = solve(A.reshape(m, n), B.reshape(m))
    return _out(out, X.reshape(rest))


# ---- LDL^T ----

class _NotDifferentiable(torch.autograd.Function):
    """Outputs that require grad but whose backward PyTorch does not have
    (ldl_factor, ldl_solve): backward raises PyTorch's error."""

    @staticmethod
    def forward(ctx, name, value, *inputs):
        ctx.name = name
        return value

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError(f"derivative for aten::{ctx.name} is not implemented")


def _no_grad_result(name, value, *inputs):
    if torch.is_grad_enabled() and any(isinstance(t, torch.Tensor) and t.requires_grad
                                       for t in inputs):
        return _core.fast_apply(_NotDifferentiable, name, value, *inputs)
    return value


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    api = "torch.linalg.ldl_factor_ex"
    _check_matrix(A, api, square=True)
    LD, piv, info = _C._linalg_ldl_factor(A.detach())
    if check_errors:
        _core.check_info(info, "torch.linalg.ldl_factor", "ldl")
    LD = _no_grad_result("linalg_ldl_factor_ex", LD, A)
    return _out(out, _rt_ldl_factor_ex(LD, piv, info))


def ldl_factor(A, *, hermitian=False, out=None):
    api = "torch.linalg.ldl_factor"
    _check_matrix(A, api, square=True)
    LD, piv, info = _C._linalg_ldl_factor(A.detach())
    _core.check_info(info, api, "ldl")
    LD = _no_grad_result("linalg_ldl_factor_ex", LD, A)
    return _out(out, _rt_ldl_factor(LD, piv))


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    api = "torch.linalg.ldl_solve"
    _check_matrix(LD, api, square=True, what="LD")
    _check_same_dtype(LD, B, api, "LD", "B")
    if B.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor B must have at least 2 dimensions.")
    n = LD.shape[-1]
    batch = _batch(LD.shape[:-2], B.shape[:-2], pivots.shape[:-1])
    X = _C._linalg_ldl_solve(LD.detach().expand(batch + (n, n)),
                             pivots.expand(batch + (n,)),
                             B.detach().expand(batch + tuple(B.shape[-2:])))
    return _out(out, _no_grad_result("linalg_ldl_solve", X, LD, B))

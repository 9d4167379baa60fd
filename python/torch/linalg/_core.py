"""The differentiable cores of torch.linalg: LAPACK forward, PyTorch's backward.

Each forward calls one of torch._C's LAPACK kernels (binding/py_linalg.c
over engine/ops/ops_linalg.c: getrf/getrs, potrf/potrs/potri, trsm,
geqrf/orgqr/ormqr, gesdd, syevd, geev, gels*), which record nothing; the
autograd.Function around it records one node whose backward is PyTorch
1.13's formula (torch/csrc/autograd/FunctionsManual.cpp), written with
torch's differentiable ops so that gradients of gradients work too.

Inputs reaching these cores are already checked (dtype, shapes) and their
batch dims broadcast by torch/linalg/__init__.py.
"""

import torch
from torch import _C
from torch.autograd import Function


class _LinAlgError(RuntimeError):
    """Raised when a matrix is singular, not positive-definite, or LAPACK
    does not converge (torch.linalg.LinAlgError)."""


_LinAlgError.__module__ = "torch._C"
_C._LinAlgError = _LinAlgError


class _NoCtx:
    """What forward gets when nothing needs a gradient: apply's bookkeeping
    is skipped (it costs tens of microseconds, more than a small solve)."""

    needs_input_grad = ()

    def save_for_backward(self, *tensors):
        pass

    def mark_non_differentiable(self, *tensors):
        pass


def fast_apply(cls, *args):
    """cls.apply(*args), or straight cls.forward when no argument requires
    grad (or grad mode is off): the same values, no graph."""
    if torch.is_grad_enabled() and any(isinstance(a, torch.Tensor) and a.requires_grad
                                       for a in args):
        return cls.apply(*args)
    with torch.no_grad():
        return cls.forward(_NoCtx(), *args)


def _named(cls, name):
    # grad_fn names as PyTorch prints them: LinalgSolveExBackward0
    bc = cls._backward_cls
    bc.__name__ = bc.__qualname__ = name
    return cls


def _batch_prefix(info, i):
    return f"(Batch element {i}): " if info.dim() > 0 else ""


def _first_bad(info):
    """(flat index, value) of the first nonzero info, or None."""
    flat = info.reshape(-1)
    if flat.numel() == 0:
        return None
    nz = (flat != 0).nonzero()
    if nz.numel() == 0:
        return None
    i = int(nz[0, 0])
    return i, int(flat[i])


def check_info(info, api, kind):
    """Raise PyTorch's error for the first matrix whose LAPACK info is not 0."""
    bad = _first_bad(info)
    if bad is None:
        return
    i, v = bad
    pre = _batch_prefix(info, i)
    if v < 0:
        raise RuntimeError(f"{api}: {pre}Argument {-v} has illegal value. Most certainly there "
                           "is a bug in the implementation calling the backend library.")
    if kind == "solve":
        raise _LinAlgError(f"{api}: {pre}The solver failed because the input matrix is singular.")
    if kind == "inv":
        raise _LinAlgError(f"{api}: {pre}The diagonal element {v} is zero, the inversion could "
                           "not be completed because the input matrix is singular.")
    if kind == "lu":
        raise RuntimeError(f"{api}: {pre}U[{v},{v}] is zero and using it on lu_solve would "
                           "result in a division by zero. If you still want to perform the "
                           "factorization, consider calling linalg.lu(A, pivot) or "
                           "linalg.lu_factor_ex(A, pivot)")
    if kind == "cholesky":
        raise _LinAlgError(f"{api}: {pre}The factorization could not be completed because the "
                           f"input is not positive-definite (the leading minor of order {v} is "
                           "not positive-definite).")
    if kind == "eigh":
        raise _LinAlgError(f"{api}: {pre}The algorithm failed to converge because the input "
                           f"matrix is ill-conditioned or has too many repeated eigenvalues "
                           f"(error code: {v}).")
    if kind == "svd":
        raise _LinAlgError(f"{api}: {pre}The algorithm failed to converge because the input "
                           f"matrix is ill-conditioned or has too many repeated singular values "
                           f"(error code: {v}).")
    if kind == "lstsq":
        raise _LinAlgError(f"{api}: {pre}The least squares solution could not be computed "
                           "because the input matrix does not have full rank "
                           f"(error code: {v}).")
    if kind == "ldl":
        raise _LinAlgError(f"{api}: {pre}The factorization could not be completed because "
                           f"the block diagonal matrix D is singular (D[{v},{v}] is zero).")
    raise _LinAlgError(f"{api}: {pre}LAPACK error code {v}")


def _eye_like(a):
    n = a.shape[-1]
    return torch.eye(n, dtype=a.dtype).expand(a.shape).clone()


# ---- solve, inverse ----

class LinalgSolveEx(Function):
    """X = A^-1 B for A (..., n, n) and B (..., n, k) of the same batch dims.
    [use_t]: factor A^T and solve with its transpose, as PyTorch does for a
    contiguous A (same LU, same rounding)."""

    @staticmethod
    def forward(ctx, A, B, api, check, use_t):
        X, LU, piv, info = _C._linalg_solve(A, B, use_t)
        if check:
            check_info(info, api, "solve")
        ctx.use_t = use_t
        ctx.save_for_backward(A, X, LU, piv)
        ctx.mark_non_differentiable(info)
        return X, info

    @staticmethod
    def backward(ctx, gX, ginfo):
        A, X, LU, piv = ctx.saved_tensors
        if torch.is_grad_enabled():
            gB = solve_core(A.mT, gX)
        else:
            gB = _C._linalg_lu_solve(LU, piv, gX.contiguous(), "N" if ctx.use_t else "T")
        gA = -gB @ X.mT if ctx.needs_input_grad[0] else None
        return gA, gB, None, None, None


_named(LinalgSolveEx, "LinalgSolveExBackward0")


def solve_core(A, B, api="torch.linalg.solve", check=True):
    return fast_apply(LinalgSolveEx, A, B, api, check, A.is_contiguous())[0]


class LinalgInvEx(Function):
    @staticmethod
    def forward(ctx, A, api, check):
        X, LU, piv, info = _C._linalg_solve(A, _eye_like(A), A.is_contiguous())
        if check:
            check_info(info, api, "inv")
        bad = info != 0
        if bool(bad.any()):
            X = torch.where(bad.unsqueeze(-1).unsqueeze(-1), torch.full((), float("nan"),
                                                                         dtype=X.dtype), X)
        ctx.save_for_backward(X)
        ctx.mark_non_differentiable(info)
        return X, info

    @staticmethod
    def backward(ctx, gX, ginfo):
        (X,) = ctx.saved_tensors
        return -(X.mT @ gX @ X.mT), None, None


_named(LinalgInvEx, "LinalgInvExBackward0")


def inv_core(A, api="linalg.inv", check=True):
    return fast_apply(LinalgInvEx, A, api, check)


# ---- LU ----

def lu_unpack_core(LU, pivots, unpack_data=True, unpack_pivots=True):
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    L = U = P = None
    if unpack_data:
        L = LU[..., :, :k].tril(-1) + torch.eye(m, k, dtype=LU.dtype)
        U = LU[..., :k, :].triu()
    if unpack_pivots:
        P = _perm_matrix(pivots, m, LU.dtype)
    return P, L, U


def _perm_matrix(pivots, m, dtype):
    batch = tuple(pivots.shape[:-1])
    piv = pivots.reshape(-1, pivots.shape[-1]).tolist() if pivots.numel() else \
        [[]] * (int(torch.tensor(batch).prod()) if batch else 1)
    perms = []
    for row in piv:
        perm = list(range(m))
        for i, p in enumerate(row):
            p = int(p) - 1
            perm[i], perm[p] = perm[p], perm[i]
        perms.append(perm)
    idx = torch.tensor(perms, dtype=torch.int64).reshape(batch + (m,))
    # A = P L U with (L U)[i] = A[perm[i]]: P[perm[i], i] = 1
    eye = torch.eye(m, dtype=dtype)
    return eye[idx].mT if idx.numel() else torch.zeros(batch + (m, m), dtype=dtype)


def lu_backward(gL, gU, P, L, U):
    """gA for A = P L U (PyTorch's linalg_lu_backward, real)."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    st = solve_triangular_core
    # only the free entries of L (strictly lower) and U (upper) carry gradient
    gL = gL.tril(-1)
    gU = gU.triu()
    if m == n:
        gA = (L.mT @ gL).tril(-1) + (gU @ U.mT).triu()
        gA = st(U.mT, gA, upper=False, left=False)
        gA = st(L.mT, gA, upper=True, left=True, unitriangular=True)
        return P @ gA
    if m < n:
        U1, U2 = U[..., :k], U[..., k:]
        gA = L.mT @ gL - gU.triu() @ U.mT
        gA = st(U1.mT, gA.tril(-1), upper=False, left=False)
        gA = torch.cat([gA + gU[..., :k].triu(), gU[..., k:]], -1)
        gA = st(L.mT, gA, upper=True, left=True, unitriangular=True)
        return P @ gA
    L1 = L[..., :k, :]
    gA = gU @ U.mT - L.mT @ gL
    gA = st(L1.mT, gA.triu(), upper=True, left=True, unitriangular=True)
    gA = torch.cat([gA + gL[..., :k, :].tril(-1), gL[..., k:, :]], -2)
    gA = st(U.mT, gA, upper=False, left=False)
    return P @ gA


class LinalgLuFactorEx(Function):
    @staticmethod
    def forward(ctx, A, api, check):
        LU, piv, info = _C._linalg_lu_factor(A)
        if check:
            check_info(info, api, "lu")
        ctx.save_for_backward(LU, piv)
        ctx.mark_non_differentiable(piv, info)
        return LU, piv, info

    @staticmethod
    def backward(ctx, gLU, gpiv, ginfo):
        LU, piv = ctx.saved_tensors
        P, L, U = lu_unpack_core(LU, piv)
        m, n = LU.shape[-2], LU.shape[-1]
        k = min(m, n)
        gL = gLU[..., :, :k].tril(-1)
        gU = gLU[..., :k, :].triu()
        return lu_backward(gL, gU, P, L, U), None, None


_named(LinalgLuFactorEx, "LinalgLuFactorExBackward0")


class LinalgLu(Function):
    @staticmethod
    def forward(ctx, A):
        LU, piv, info = _C._linalg_lu_factor(A)
        P, L, U = lu_unpack_core(LU, piv)
        ctx.save_for_backward(P, L, U)
        ctx.mark_non_differentiable(P)
        return P, L, U

    @staticmethod
    def backward(ctx, gP, gL, gU):
        P, L, U = ctx.saved_tensors
        return lu_backward(gL, gU, P, L, U)


_named(LinalgLu, "LinalgLuBackward0")


# ---- Cholesky ----

class LinalgCholeskyEx(Function):
    @staticmethod
    def forward(ctx, A, upper, api, check):
        L, info = _C._linalg_cholesky(A, upper)
        if check:
            check_info(info, api, "cholesky")
        ctx.upper = upper
        ctx.save_for_backward(L)
        ctx.mark_non_differentiable(info)
        return L, info

    @staticmethod
    def backward(ctx, gL, ginfo):
        (L,) = ctx.saved_tensors
        if ctx.upper:
            L, gL = L.mT, gL.mT
        phi = (L.mT @ gL).tril()
        phi = phi - 0.5 * torch.diag_embed(phi.diagonal(0, -2, -1))
        gA = solve_triangular_core(L, phi, upper=False, left=False)
        gA = solve_triangular_core(L.mT, gA, upper=True, left=True)
        return 0.5 * (gA + gA.mT), None, None, None


_named(LinalgCholeskyEx, "LinalgCholeskyExBackward0")


class CholeskySolve(Function):
    @staticmethod
    def forward(ctx, B, L, upper):
        X = _C._linalg_cholesky_solve(L, B, upper)
        ctx.upper = upper
        ctx.save_for_backward(L, X)
        return X

    @staticmethod
    def backward(ctx, gX):
        L, X = ctx.saved_tensors
        gB = fast_apply(CholeskySolve, gX, L, ctx.upper)
        gL = None
        if ctx.needs_input_grad[1]:
            common = -(gB @ X.mT)
            common = common + common.mT
            gL = L @ common if ctx.upper else common @ L
        return gB, gL, None


_named(CholeskySolve, "CholeskySolveBackward0")


class CholeskyInverse(Function):
    @staticmethod
    def forward(ctx, L, upper):
        X, info = _C._linalg_cholesky_inverse(L, upper)
        ctx.upper = upper
        ctx.save_for_backward(L, X)
        return X

    @staticmethod
    def backward(ctx, g):
        L, X = ctx.saved_tensors
        common = X @ (g + g.mT) @ X
        return (-(L @ common) if ctx.upper else -(common @ L)), None


_named(CholeskyInverse, "CholeskyInverseBackward0")


# ---- triangular solve ----

class LinalgSolveTriangular(Function):
    @staticmethod
    def forward(ctx, A, B, upper, left, unitriangular):
        X = _C._linalg_triangular_solve(A, B, upper, left, False, unitriangular)
        ctx.opts = (upper, left, unitriangular)
        ctx.save_for_backward(A, X)
        return X

    @staticmethod
    def backward(ctx, gX):
        A, X = ctx.saved_tensors
        upper, left, unit = ctx.opts
        gB = solve_triangular_core(A.mT, gX, upper=not upper, left=left, unitriangular=unit)
        gA = None
        if ctx.needs_input_grad[0]:
            gA = -(gB @ X.mT) if left else -(X.mT @ gB)
            gA = gA.triu(int(unit)) if upper else gA.tril(-int(unit))
        return gA, gB, None, None, None


_named(LinalgSolveTriangular, "LinalgSolveTriangularBackward0")


def solve_triangular_core(A, B, upper, left=True, unitriangular=False):
    return fast_apply(LinalgSolveTriangular, A, B, upper, left, unitriangular)


# ---- QR ----

def _copyltu(M):
    low = M.tril(-1)
    return low + low.mT + torch.diag_embed(M.diagonal(0, -2, -1))


def _qr_square_backward(gQ, gR, Q, R):
    M = R @ gR.mT - gQ.mT @ Q
    b = gQ + Q @ _copyltu(M)
    return solve_triangular_core(R.mT, b, upper=False, left=False)


class LinalgQr(Function):
    @staticmethod
    def forward(ctx, A, mode):
        m, n = A.shape[-2], A.shape[-1]
        k = min(m, n)
        QR, tau = _C._linalg_geqrf(A)
        R = QR.triu()
        if mode == "complete":
            if m > n:
                pad = torch.zeros(tuple(A.shape[:-1]) + (m - n,), dtype=A.dtype)
                Q = _C._linalg_orgqr(torch.cat([QR, pad], -1), tau)
            else:
                Q = _C._linalg_orgqr(QR[..., :, :m], tau)
        else:
            R = R[..., :k, :]
            Q = _C._linalg_orgqr(QR[..., :, :k], tau) if mode == "reduced" else \
                torch.zeros((0,), dtype=A.dtype)
        ctx.mode = mode
        ctx.save_for_backward(A, Q, R)
        return Q, R

    @staticmethod
    def backward(ctx, gQ, gR):
        A, Q, R = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                               "when mode='r'. Please use linalg.qr(A, mode='reduced') if you are "
                               "going to differentiate through linalg.qr.")
        m, n = A.shape[-2], A.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                               "and nrows > ncols.")
        if m >= n:
            return _qr_square_backward(gQ, gR, Q, R), None
        Y = A[..., m:]
        U, gU, gV = R[..., :m], gR[..., :m], gR[..., m:]
        gY = Q @ gV
        gX = _qr_square_backward(gQ + Y @ gV.mT, gU, Q, U)
        return torch.cat([gX, gY], -1), None


_named(LinalgQr, "LinalgQrBackward0")


class LinalgHouseholderProduct(Function):
    """orgqr forward; the backward goes through the product of the
    reflectors H_i = I - tau_i v_i v_i^T (v_i: ones at i, A's column i
    below it): with prefix P_i and suffix S_i of the product, the gradient
    of H_i is P_i^T G S_i^T, and of tau_i and v_i follow."""

    @staticmethod
    def forward(ctx, A, tau):
        Q = _C._linalg_orgqr(A, tau)
        ctx.save_for_backward(A, tau)
        return Q

    @staticmethod
    def backward(ctx, gQ):
        A, tau = ctx.saved_tensors
        m, n = A.shape[-2], A.shape[-1]
        k = tau.shape[-1]
        batch = tuple(A.shape[:-2])
        eye = torch.eye(m, dtype=A.dtype)
        G = torch.cat([gQ, torch.zeros(batch + (m, m - n), dtype=A.dtype)], -1) if m > n else gQ
        vs, Hs = [], []
        for i in range(k):
            mask = torch.zeros(m, dtype=A.dtype)
            mask[i + 1:] = 1
            unit = torch.zeros(m, dtype=A.dtype)
            unit[i] = 1
            v = A[..., :, i] * mask + unit
            vs.append(v)
            Hs.append(eye - tau[..., i, None, None] * (v.unsqueeze(-1) * v.unsqueeze(-2)))
        prefix = [eye.expand(batch + (m, m))]
        for i in range(k - 1):
            prefix.append(prefix[-1] @ Hs[i])
        suffix = [None] * k
        acc = eye.expand(batch + (m, m))
        for i in range(k - 1, -1, -1):
            suffix[i] = acc
            acc = Hs[i] @ acc
        cols, gtau = [], []
        for i in range(k):
            gH = prefix[i].mT @ G @ suffix[i].mT
            v = vs[i]
            gHv = (gH @ v.unsqueeze(-1)).squeeze(-1)
            gHtv = (gH.mT @ v.unsqueeze(-1)).squeeze(-1)
            gtau.append(-(v * gHv).sum(-1))
            gv = -tau[..., i, None] * (gHv + gHtv)
            mask = torch.zeros(m, dtype=A.dtype)
            mask[i + 1:] = 1
            cols.append(gv * mask)
        for i in range(k, n):
            cols.append(torch.zeros(batch + (m,), dtype=A.dtype))
        gA = torch.stack(cols, -1) if cols else torch.zeros_like(A)
        gt = torch.stack(gtau, -1) if gtau else torch.zeros_like(tau)
        return gA, gt


_named(LinalgHouseholderProduct, "LinalgHouseholderProductBackward0")


# ---- SVD ----

def svd_backward(gU, gS, gVh, U, S, Vh):
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        if gS is None:
            return None
        return U @ (gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)) @ Vh

    def skew(X):
        return X - X.mT

    UhgU = skew(U.mT @ gU) if gU is not None else None
    VhgV = skew(Vh @ gVh.mT) if gVh is not None else None
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    E = E + torch.diag_embed(torch.ones_like(S))
    if gU is not None and gVh is not None:
        gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif gVh is None:
        gA = (UhgU / E) * S.unsqueeze(-2)
    else:
        gA = S.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        gA = gA + torch.diag_embed(gS)
    if m > n and gU is not None:
        gA = U @ gA
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - U @ (U.mT @ gUSinv)
        gA = gA @ Vh
    elif m < n and gVh is not None:
        gA = gA @ Vh
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = gA + SinvgVh - (SinvgVh @ Vh.mT) @ Vh
        gA = U @ gA
    else:
        gA = U @ (gA @ Vh) if m >= n else (U @ gA) @ Vh
    return gA


class LinalgSvd(Function):
    @staticmethod
    def forward(ctx, A, full_matrices, api):
        U, S, Vh, info = _C._linalg_svd(A, full_matrices, True)
        check_info(info, api, "svd")
        ctx.full = full_matrices
        ctx.save_for_backward(U, S, Vh)
        return U, S, Vh

    @staticmethod
    def backward(ctx, gU, gS, gVh):
        U, S, Vh = ctx.saved_tensors
        if ctx.full:
            k = S.shape[-1]
            U, Vh = U[..., :k], Vh[..., :k, :]
            gU, gVh = gU[..., :k], gVh[..., :k, :]
        return svd_backward(gU, gS, gVh, U, S, Vh), None, None


_named(LinalgSvd, "LinalgSvdBackward0")


class LinalgSvdvals(Function):
    @staticmethod
    def forward(ctx, A, api):
        U, S, Vh, info = _C._linalg_svd(A, False, bool(A.requires_grad))
        check_info(info, api, "svd")
        ctx.save_for_backward(U, S, Vh)
        return S

    @staticmethod
    def backward(ctx, gS):
        U, S, Vh = ctx.saved_tensors
        return svd_backward(None, gS, None, U, S, Vh), None


_named(LinalgSvdvals, "LinalgSvdBackward0")


# ---- symmetric eigenproblem ----

class LinalgEigh(Function):
    @staticmethod
    def forward(ctx, A, upper, api):
        L, V, info = _C._linalg_eigh(A, upper, True)
        check_info(info, api, "eigh")
        ctx.save_for_backward(L, V)
        return L, V

    @staticmethod
    def backward(ctx, gL, gV):
        L, V = ctx.saved_tensors
        VhgV = V.mT @ gV
        E = L.unsqueeze(-2) - L.unsqueeze(-1)
        E = E + torch.diag_embed(torch.ones_like(L))
        inner = 0.5 * (VhgV - VhgV.mT) / E
        inner = inner - torch.diag_embed(inner.diagonal(0, -2, -1)) + torch.diag_embed(gL)
        return V @ inner @ V.mT, None, None


_named(LinalgEigh, "LinalgEighBackward0")


class LinalgEigvalsh(Function):
    @staticmethod
    def forward(ctx, A, upper, api):
        L, V, info = _C._linalg_eigh(A, upper, True)
        check_info(info, api, "eigh")
        ctx.save_for_backward(V)
        return L

    @staticmethod
    def backward(ctx, gL):
        (V,) = ctx.saved_tensors
        return (V * gL.unsqueeze(-2)) @ V.mT, None, None


_named(LinalgEigvalsh, "LinalgEighBackward0")


# ---- pseudo-inverse and least squares ----

def pinv_backward(g, pinvA, A):
    m, n = A.shape[-2], A.shape[-1]
    pinvAh = pinvA.mT
    gh = g.mT
    if m <= n:
        K = gh @ pinvA
        KpinvAh = K @ pinvAh
        return (-(pinvA @ K).mT + KpinvAh - (A @ pinvA) @ KpinvAh
                + (pinvAh @ pinvA) @ (gh - K @ A))
    K = pinvA @ gh
    pinvAhK = pinvAh @ K
    return (-(K @ pinvA).mT + (gh - A @ K) @ pinvA @ pinvAh + pinvAhK
            - pinvAhK @ pinvA @ A)


def pinv_values(A, atol, rtol, hermitian):
    if hermitian:
        L, V, info = _C._linalg_eigh(A, False, True)
        absL = L.abs()
        maxv = absL.amax(-1, keepdim=True) if L.shape[-1] else absL
        tol = torch.maximum(atol.unsqueeze(-1), rtol.unsqueeze(-1) * maxv)
        Linv = torch.where(absL > tol, 1 / L, torch.zeros((), dtype=A.dtype))
        return (V * Linv.unsqueeze(-2)) @ V.mT
    U, S, Vh, info = _C._linalg_svd(A, False, True)
    maxv = S[..., :1] if S.shape[-1] else S
    tol = torch.maximum(atol.unsqueeze(-1), rtol.unsqueeze(-1) * maxv)
    Sinv = torch.where(S > tol, 1 / S, torch.zeros((), dtype=A.dtype))
    return (Vh.mT * Sinv.unsqueeze(-2)) @ U.mT


class LinalgPinv(Function):
    @staticmethod
    def forward(ctx, A, atol, rtol, hermitian):
        P = pinv_values(A, atol, rtol, hermitian)
        ctx.save_for_backward(A, P)
        return P

    @staticmethod
    def backward(ctx, g):
        A, P = ctx.saved_tensors
        return pinv_backward(g, P, A), None, None, None


_named(LinalgPinv, "LinalgPinvBackward0")


class LinalgLstsq(Function):
    @staticmethod
    def forward(ctx, A, B, rcond, driver):
        n = A.shape[-1]
        X, rank, sv, info = _C._linalg_lstsq(A, B, rcond, driver)
        check_info(info, "torch.linalg.lstsq", "lstsq")
        ctx.full = X
        X = X[..., :n, :].clone()
        ctx.save_for_backward(A, B)
        nd = [t for t in (rank, sv) if t is not None]
        if nd:
            ctx.mark_non_differentiable(*nd)
        return X, rank, sv

    @staticmethod
    def backward(ctx, gX, grank, gsv):
        A, B = ctx.saved_tensors
        pinvA = pinv_core(A)
        gA = pinv_backward(gX @ B.mT, pinvA, A) if ctx.needs_input_grad[0] else None
        gB = pinvA.mT @ gX if ctx.needs_input_grad[1] else None
        return gA, gB, None, None


_named(LinalgLstsq, "LinalgLstsqBackward0")


def pinv_core(A, atol=None, rtol=None, hermitian=False):
    atol_t, rtol_t = tolerances(A, atol, rtol)
    return fast_apply(LinalgPinv, A, atol_t, rtol_t, hermitian)


def tolerances(A, atol, rtol):
    """atol and rtol as tensors of A's batch shape, with PyTorch's defaults:
    rtol = eps * max(m, n) unless atol > 0 is given alone."""
    m, n = A.shape[-2], A.shape[-1]
    batch = tuple(A.shape[:-2])
    default = torch.finfo(A.dtype).eps * max(m, n)

    def as_t(v):
        if isinstance(v, torch.Tensor):
            return v.to(A.dtype).expand(batch)
        return torch.full(batch, float(v), dtype=A.dtype)

    if atol is None:
        atol_t = as_t(0.0)
        rtol_t = as_t(default if rtol is None else rtol)
    else:
        atol_t = as_t(atol)
        rtol_t = as_t(rtol) if rtol is not None else torch.where(
            atol_t > 0, torch.zeros((), dtype=A.dtype), torch.full((), default, dtype=A.dtype))
    return atol_t, rtol_t

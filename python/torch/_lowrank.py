"""torch.svd_lowrank and torch.pca_lowrank: randomized SVD (Halko,
Martinsson, Tropp 2009, algorithms 4.4 and 5.1), in the steps PyTorch 1.13
takes, so the same seed draws the same Gaussian test matrix and gives the
same factors. Dense tensors only (nndb has no sparse tensors).
"""

import torch

__all__ = ["svd_lowrank", "pca_lowrank"]


def _floating(A):
    return A.dtype if A.dtype in (torch.float16, torch.float32, torch.float64) else torch.float32


def _basis(A, q, niter, M=None):
    """Q with q orthonormal columns such that Q Q^T (A - M) approximates A - M."""
    niter = 2 if niter is None else niter
    n = A.shape[-1]
    R = torch.randn(n, q, dtype=_floating(A))
    At = A.mT
    if M is None:
        Q = torch.linalg.qr(A @ R).Q
        for _ in range(niter):
            Q = torch.linalg.qr(At @ Q).Q
            Q = torch.linalg.qr(A @ Q).Q
        return Q
    Mt = M.mT
    Q = torch.linalg.qr(A @ R - M @ R).Q
    for _ in range(niter):
        Q = torch.linalg.qr(At @ Q - Mt @ Q).Q
        Q = torch.linalg.qr(A @ Q - M @ Q).Q
    return Q


def _svd_lowrank(A, q=6, niter=2, M=None):
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    Mt = None if M is None else M.mT
    At = A.mT
    if m < n or n > q:
        Q = _basis(At, q, niter, Mt)
        Bt = A @ Q if M is None else A @ Q - M @ Q
        U, S, Vh = torch.linalg.svd(Bt, full_matrices=False)
        V = Q @ Vh.mT
    else:
        Q = _basis(A, q, niter, M)
        B = At @ Q if M is None else At @ Q - Mt @ Q
        U, S, Vh = torch.linalg.svd(B.mT, full_matrices=False)
        V = Vh.mT
        U = Q @ U
    return U, S, V


def svd_lowrank(A, q=6, niter=2, M=None):
    return _svd_lowrank(A, q=q, niter=niter, M=M)


def pca_lowrank(A, q=None, center=True, niter=2):
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter=niter, M=None)
    C = A.mean(dim=(-2,), keepdim=True)
    return _svd_lowrank(A - C, q, niter=niter, M=None)

"""PyTorch 1.13's CPU autocast lists, for the ops nndb writes in Python.

matmul, mm, bmm and linear are cast in C (binding/py_autocast.c). The ops
below are wrapped once, when torch.amp is imported: while CPU autocast is
on, a wrapper casts the op's floating tensor arguments (not float64) and
runs the op with autocast off, as PyTorch runs an autocast kernel with the
autocast dispatch key excluded (so the float32 ops' inner products stay in
float32). While autocast is off a wrapper only checks the flag.

The lists are 1.13's aten/src/ATen/autocast_mode.cpp (CPU), checked op by op
against Debian's torch 1.13 (tests/py/amp_autocast.py). Ops not listed keep
their inputs' dtype. cat, stack and index_copy ("promote") already widen
mixed floating inputs through nndb's type promotion.
"""
import functools

import torch
from torch import _C

_on = _C.is_autocast_cpu_enabled
_cast = _C._autocast_cast
_set = _C.set_autocast_cpu_enabled

# lower_precision_fp: run in the autocast dtype (bfloat16)
LOWER = {
    "torch.nn.functional": ["conv1d", "conv2d", "conv3d"],
    # einsum is composite in PyTorch: its bmm runs in bfloat16
    "torch": ["addmm", "baddbmm", "addbmm", "einsum"],
    "torch.Tensor": ["addmm", "baddbmm", "addbmm"],
}

# fp32: run in float32
FP32 = {
    "torch.nn.functional": [
        "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
        "avg_pool3d", "max_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
        "max_unpool2d", "max_unpool3d", "grid_sample",
        "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss",
        "kl_div", "binary_cross_entropy", "binary_cross_entropy_with_logits",
        "cosine_embedding_loss", "hinge_embedding_loss", "poisson_nll_loss", "soft_margin_loss",
        "triplet_margin_loss", "multi_margin_loss", "margin_ranking_loss",
        "multilabel_margin_loss", "multilabel_soft_margin_loss", "gaussian_nll_loss", "ctc_loss",
    ],
    "torch": ["cdist", "prod", "trace", "inverse", "quantile", "nanquantile", "cholesky",
              "cholesky_inverse", "cholesky_solve", "pinverse", "qr", "svd", "geqrf", "orgqr",
              "ormqr", "lu_solve", "triangular_solve"],
    "torch.Tensor": ["prod", "trace", "inverse", "quantile", "nanquantile", "cholesky"],
    "torch.linalg": ["inv", "inv_ex", "svd", "svdvals", "cholesky", "cholesky_ex", "qr", "eig",
                     "eigvals", "eigh", "eigvalsh", "solve", "lstsq", "pinv", "matrix_rank",
                     "matrix_power", "matrix_exp", "lu_factor", "lu_factor_ex", "tensorinv",
                     "tensorsolve", "householder_product"],
}

# reflection and replication padding are in the fp32 list; constant is not
_FP32_PAD_MODES = ("reflect", "replicate")


def _flatten_cast(policy, args, kwargs):
    def one(v):
        if isinstance(v, torch.Tensor):
            return _cast(policy, v)[0]
        if isinstance(v, (list, tuple)) and v and isinstance(v[0], torch.Tensor):
            return type(v)(_cast(policy, *v))
        return v
    return tuple(one(a) for a in args), {k: one(v) for k, v in kwargs.items()}


def _wrap(fn, policy):
    if getattr(fn, "_autocast_policy", None) is not None:
        return fn

    @functools.wraps(fn)
    def autocast_op(*args, **kwargs):
        if not _on():
            return fn(*args, **kwargs)
        args, kwargs = _flatten_cast(policy, args, kwargs)
        _set(False)
        try:
            return fn(*args, **kwargs)
        finally:
            _set(True)
    autocast_op._autocast_policy = policy
    return autocast_op


def _pad_wrap(fn):
    @functools.wraps(fn)
    def pad(input, pad, mode="constant", value=None):
        if _on() and mode in _FP32_PAD_MODES:
            return _wrap(fn, 1)(input, pad, mode, value)
        return fn(input, pad, mode, value)
    pad._autocast_policy = 1
    return pad


def _install():
    import torch.linalg
    import torch.nn.functional as F
    owners = {"torch": torch, "torch.Tensor": torch.Tensor, "torch.nn.functional": F,
              "torch.linalg": torch.linalg}
    for policy, table in ((0, LOWER), (1, FP32)):
        for owner, names in table.items():
            obj = owners[owner]
            for name in names:
                fn = getattr(obj, name, None)
                if fn is None:
                    continue
                setattr(obj, name, _wrap(fn, policy))
    if getattr(F.pad, "_autocast_policy", None) is None:
        F.pad = _pad_wrap(F.pad)

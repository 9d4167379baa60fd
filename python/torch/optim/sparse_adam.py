"""torch.optim.SparseAdam, as PyTorch 1.13 computes it.

PyTorch's SparseAdam takes the sparse gradients of nn.Embedding(sparse=True)
and nn.EmbeddingBag(sparse=True), and updates the moments and the parameter
only at the rows the gradient holds (the rows the batch looked up). nndb has
no sparse tensors: those layers give a dense gradient and mark their weight
as having a sparse one; SparseAdam then updates the rows where that gradient
is not all zero (the looked-up rows but the padding_idx row, as PyTorch's
coalesced gradient has them; a looked-up row whose gradient is exactly zero
everywhere is the one case that differs). Any other gradient is dense, and
SparseAdam rejects it as PyTorch does.
"""

import math

import torch
from .optimizer import Optimizer, _closure_loss

__all__ = ["SparseAdam"]


def _has_sparse_grad(p):
    return getattr(p, "_nndb_sparse_grad", False)


class SparseAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if not 0.0 < lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 < eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
        defaults = dict(lr=lr, betas=betas, eps=eps, maximize=maximize)
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = _closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not _has_sparse_grad(p):
                        raise RuntimeError("SparseAdam does not support dense gradients, "
                                           "please consider Adam instead")
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = 0
                        state["exp_avg"] = torch.zeros_like(p)
                        state["exp_avg_sq"] = torch.zeros_like(p)
                    state["step"] += 1
                    _sparse_adam_one(p, p.grad, state["exp_avg"], state["exp_avg_sq"],
                                     state["step"], beta1, beta2, group["lr"], group["eps"],
                                     group.get("maximize", False))
        return loss


def _sparse_adam_one(param, grad, exp_avg, exp_avg_sq, step, beta1, beta2, lr, eps, maximize):
    grad = grad if not maximize else -grad
    flat = grad.reshape(grad.shape[0], -1) if grad.dim() > 1 else grad.reshape(-1, 1)
    rows = (flat != 0).any(1).nonzero().reshape(-1)
    if rows.numel() == 0:
        return
    values = grad[rows]
    old_exp_avg_values = exp_avg[rows]
    exp_avg_update_values = (values - old_exp_avg_values) * (1 - beta1)
    exp_avg[rows] = old_exp_avg_values + exp_avg_update_values
    old_exp_avg_sq_values = exp_avg_sq[rows]
    exp_avg_sq_update_values = (values.pow(2) - old_exp_avg_sq_values) * (1 - beta2)
    exp_avg_sq[rows] = old_exp_avg_sq_values + exp_avg_sq_update_values
    numer = exp_avg_update_values + old_exp_avg_values
    denom = (exp_avg_sq_update_values + old_exp_avg_sq_values).sqrt() + eps
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr * math.sqrt(bias_correction2) / bias_correction1
    param[rows] = param[rows] + (-step_size * (numer / denom))

"""nn.MultiheadAttention and the function behind it,
F.multi_head_attention_forward, as PyTorch 1.13 defines them: the same
parameters (in_proj_weight or q/k/v_proj_weight, in_proj_bias, out_proj,
bias_k/bias_v), initialised in the same order, and the same computation
(scaled dot products with additive float or boolean masks, softmax,
dropout, the output projection). PyTorch's fused inference path computes
the same values; here every call takes the composed one."""

import math
import warnings

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.modules.linear import Linear
from torch.nn.modules.module import Module, _check_device

__all__ = ["MultiheadAttention", "multi_head_attention_forward"]


class NonDynamicallyQuantizableLinear(Linear):
    """The out_proj of MultiheadAttention: a Linear under PyTorch's name."""


def _project(query, key, value, w, b):
    """The packed input projection: one linear for self-attention, two for
    a shared key and value, three otherwise (as PyTorch splits it)."""
    E = query.size(-1)
    if key is value:
        if query is key:
            return F.linear(query, w, b).chunk(3, dim=-1)
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        return (F.linear(query, w_q, b_q),) + tuple(F.linear(key, w_kv, b_kv).chunk(2, dim=-1))
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)


def _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be "
                                 f"3-D but found {key.dim()}-D and {value.dim()}-D tensors "
                                 "respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be "
                                 f"`None` or 2-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, "
                                 f"2-D or 3-D but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be "
                                 f"2-D but found {key.dim()}-D and {value.dim()}-D tensors "
                                 "respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to "
                                 f"be `None` or 1-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be "
                                     f"`None`, 2-D or 3-D but found {attn_mask.dim()}-D tensor "
                                     "instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if tuple(attn_mask.shape) != expected:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                         f"{attn_mask.shape}")
        return False
    raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                         f"{query.dim()}-D query tensor")


def _check_attn_mask(attn_mask, tgt_len, src_len, bsz, num_heads):
    """attn_mask as a bool or float [1 or bsz*num_heads, L, S] tensor, after
    PyTorch's checks (a uint8 mask is deprecated and becomes bool)."""
    if attn_mask is None:
        return None
    if attn_mask.dtype == torch.uint8:
        warnings.warn("Byte tensor for attn_mask in nn.MultiheadAttention is deprecated. "
                      "Use bool tensor instead.")
        attn_mask = attn_mask.to(torch.bool)
    elif not (attn_mask.is_floating_point() or attn_mask.dtype == torch.bool):
        raise AssertionError("Only float, byte, and bool types are supported for attn_mask, "
                             f"not {attn_mask.dtype}")
    if attn_mask.dim() == 2:
        if tuple(attn_mask.shape) != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                               f"should be {(tgt_len, src_len)}.")
        attn_mask = attn_mask.unsqueeze(0)
    elif attn_mask.dim() == 3:
        if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but "
                               f"should be {(bsz * num_heads, tgt_len, src_len)}.")
    else:
        raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    return attn_mask


def _merge_masks(attn_mask, key_padding_mask, bsz, num_heads, src_len, dtype):
    """The key padding mask folded into attn_mask, and a boolean result
    turned into an additive float one (0 or -inf), as PyTorch does."""
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but "
                                 f"got {key_padding_mask.shape}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(
            -1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == torch.bool:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask.masked_fill(key_padding_mask, float("-inf"))
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        additive = torch.zeros_like(attn_mask, dtype=dtype)
        additive.masked_fill_(attn_mask, float("-inf"))
        attn_mask = additive
    return attn_mask


def _fast_self_attention(query, key, value, num_heads, in_proj_weight, bias_k, bias_v,
                         add_zero_attn, key_padding_mask, need_weights, attn_mask,
                         use_separate_proj_weight, static_k, static_v):
    """Whether the packed self-attention node (torch._C._nn_mha_self) computes
    this call: one tensor as query, key and value, the packed projection, no
    bias_kv, zero attention, static keys or returned weights, and masks that
    PyTorch would accept (a float mask of another dtype, or a float key
    padding mask beside another mask, takes the composed path and its
    error)."""
    if (use_separate_proj_weight or not (query is key and key is value) or bias_k is not None
            or bias_v is not None or add_zero_attn or static_k is not None
            or static_v is not None or need_weights or in_proj_weight is None):
        return False
    dt = query.dtype
    if dt not in (torch.float32, torch.float64) or in_proj_weight.dtype != dt:
        return False
    if attn_mask is not None and not (attn_mask.dtype in (torch.bool, torch.uint8)
                                      or attn_mask.is_floating_point()):
        return False
    if key_padding_mask is not None and key_padding_mask.dtype != torch.bool:
        return key_padding_mask.dtype == dt and attn_mask is None
    return True


def _self_attention(x, seq_first, num_heads, in_proj_weight, in_proj_bias, dropout_p,
                    out_proj_weight, out_proj_bias, key_padding_mask, attn_mask):
    """Self-attention of x [L, N, E] (seq_first) or [N, L, E] through one
    packed node: the projection, then per head softmax(q k^T / sqrt(hd) +
    mask) with dropout, times v, written in x's layout, then out_proj. The
    values and the random draws are those of the composed path (the
    dropout multipliers come from F.dropout's stream, one per weight)."""
    A, B, E = x.shape
    L, N = (A, B) if seq_first else (B, A)
    if E % num_heads:
        raise AssertionError(f"embed_dim {E} not divisible by num_heads {num_heads}")
    qkv = F.linear(x, in_proj_weight, in_proj_bias)
    attn_mask = _check_attn_mask(attn_mask, L, L, N, num_heads)
    attn_mask = _merge_masks(attn_mask, key_padding_mask, N, num_heads, L, qkv.dtype)
    if attn_mask is not None and attn_mask.dtype != qkv.dtype:
        attn_mask = attn_mask.to(qkv.dtype)  # baddbmm computes in the scores' dtype
    drop = None
    if dropout_p > 0.0:
        drop = torch._C._nn_dropout(torch.ones(N * num_heads, L, L, dtype=qkv.dtype), dropout_p,
                                    True)
    out = torch._C._nn_mha_self(qkv, num_heads, seq_first, attn_mask, drop)
    out = F.linear(out.view(A * B, E), out_proj_weight, out_proj_bias)
    return out.view(A, B, out.size(1))


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True):
    is_batched = _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        # keep query/key/value identity: it chooses the packed projection
        same_qk, same_kv = query is key, key is value
        query = query.unsqueeze(1)
        key = query if same_qk else key.unsqueeze(1)
        value = key if same_kv else value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if key_padding_mask is not None and key_padding_mask.dtype != torch.bool \
            and not torch.is_floating_point(key_padding_mask):
        raise AssertionError("only bool and floating types of key_padding_mask are supported")
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if _fast_self_attention(query, key, value, num_heads, in_proj_weight, bias_k, bias_v,
                            add_zero_attn, key_padding_mask, need_weights, attn_mask,
                            use_separate_proj_weight, static_k, static_v):
        out = _self_attention(query, True, num_heads, in_proj_weight, in_proj_bias,
                              dropout_p if training else 0.0, out_proj_weight, out_proj_bias,
                              key_padding_mask, attn_mask)
        return (out if is_batched else out.squeeze(1)), None
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q = F.linear(query, q_proj_weight, b_q)
        k = F.linear(key, k_proj_weight, b_k)
        v = F.linear(value, v_proj_weight, b_v)
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape "
                                 f"{value.shape}")
        q, k, v = _project(query, key, value, in_proj_weight, in_proj_bias)

    attn_mask = _check_attn_mask(attn_mask, tgt_len, src_len, bsz, num_heads)

    if bias_k is not None and bias_v is not None:
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))

    # heads become part of the batch: (bsz * num_heads, len, head_dim)
    q = q.contiguous().view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.contiguous().view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        k = static_k
    if static_v is None:
        v = v.contiguous().view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        v = static_v

    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = torch.cat([k, torch.zeros(zeros, dtype=k.dtype)], dim=1)
        v = torch.cat([v, torch.zeros(zeros, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    src_len = k.size(1)

    attn_mask = _merge_masks(attn_mask, key_padding_mask, bsz, num_heads, src_len, q.dtype)
    if not training:
        dropout_p = 0.0

    q = q / math.sqrt(q.size(-1))
    if attn_mask is not None:
        if attn_mask.dtype != q.dtype:
            attn_mask = attn_mask.to(q.dtype)  # baddbmm computes in the scores' dtype
        weights = torch.baddbmm(attn_mask, q, k.transpose(-2, -1))
    else:
        weights = torch.bmm(q, k.transpose(-2, -1))
    weights = F.softmax(weights, dim=-1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, p=dropout_p)
    out = torch.bmm(weights, v)
    out = out.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
    out = F.linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not need_weights:
        return (out if is_batched else out.squeeze(1)), None
    weights = weights.view(bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.sum(dim=1) / num_heads
    if not is_batched:
        out = out.squeeze(1)
        weights = weights.squeeze(0)
    return out, weights


class MultiheadAttention(Module):
    """MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False, kdim=None, vdim=None, batch_first=False)

    Attention over num_heads heads of embed_dim // num_heads features each.
    forward(query, key, value, key_padding_mask=None, need_weights=True,
    attn_mask=None, average_attn_weights=True) returns (attn_output,
    attn_weights); the weights are None when need_weights is False."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        _check_device(device)
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), dtype=dtype))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), dtype=dtype))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        # out_proj draws its own initial weights first, as in PyTorch
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), dtype=dtype))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True):
        is_batched = query.dim() == 3
        if key_padding_mask is not None and key_padding_mask.dtype != torch.bool \
                and not torch.is_floating_point(key_padding_mask):
            raise AssertionError("only bool and floating types of key_padding_mask are "
                                 "supported")
        separate = not self._qkv_same_embed_dim
        if self.batch_first and is_batched and _fast_self_attention(
                query, key, value, self.num_heads, self.in_proj_weight, self.bias_k, self.bias_v,
                self.add_zero_attn, key_padding_mask, need_weights, attn_mask, separate, None,
                None) and query.size(-1) == self.embed_dim:
            # batch first all through: no transposes of x, q, k, v or the output
            _shape_check(query, key, value, key_padding_mask, attn_mask, self.num_heads)
            out = _self_attention(query, False, self.num_heads, self.in_proj_weight,
                                  self.in_proj_bias, self.dropout if self.training else 0.0,
                                  self.out_proj.weight, self.out_proj.bias, key_padding_mask,
                                  attn_mask)
            return out, None
        if self.batch_first and is_batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = query.transpose(1, 0), key.transpose(1, 0)
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        out, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights)
        if self.batch_first and is_batched:
            return out.transpose(1, 0), weights
        return out, weights

/* Shape and indexing ops: views (reshape, permute, expand, slice, select),
 * copies (contiguous, cat), gathers (advanced integer indexing, boolean
 * masks), and the in-place scatters index_put_ and masked_fill_.
 *
 * View ops return a new tensor header over their input's storage (made by
 * nn_tensor_view_raw): no data moves, and a write through one is seen by
 * the other. Their backward builds a gradient of the input's shape: a view
 * of a zero tensor with the forward's geometry receives dout.
 *
 * Integer and mask indexing share one geometry: the input's dims split into
 * leading dims kept as they are ("pre"), the indexed dims, whose selected
 * positions are a table of coordinates ("mid"), and trailing dims kept as
 * they are ("post"). The output is [pre..., mid..., post...], contiguous; one
 * transfer loop gathers (forward), scatters with accumulation (backward, so
 * repeated indices add up) or scatters by assignment (index_put_).
 *
 * Ownership follows nn_ops.h: every public function returns a new reference
 * or NULL with ctx->err set; inputs are borrowed. */
#include <stdio.h>
#include <string.h>

#include "nn_mem.h"
#include "nn_ops_impl.h"
#include "nn_thread.h"

/* p.flags of a RESHAPE node: fail instead of copying (torch.view). */
#define RESHAPE_VIEW_ONLY 1

/* ---- helpers ---- */

static nn_tensor *in0(nn_node *n) {
    return n->in[0].t;
}

static void contiguous_strides(int ndim, const int64_t *shape, int64_t *strides) {
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= shape[i] > 0 ? shape[i] : 1;
    }
}

static int64_t prod(const int64_t *shape, int from, int to) {
    int64_t n = 1;
    for (int i = from; i < to; i++) n *= shape[i];
    return n;
}

static bool missing(nn_ctx *ctx, const nn_tensor *a, const char *op) {
    if (a) return false;
    nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: the input tensor is missing", op);
    return true;
}

static nn_status too_many_dims(nn_ctx *ctx, const char *op, int ndim) {
    return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                        "%s: the result would have %d dims; tensors have at most %d", op, ndim,
                        NN_MAX_DIMS);
}

/* Copy [src] (broadcast, converting dtype) into [dst], a tensor or view that
 * only this op can see. Goes through nn_tensor_copy_, which bumps the
 * storage version; callers that made the storage reset it. */
static nn_status copy_into(nn_ctx *ctx, nn_tensor *dst, nn_tensor *src) {
    return nn_tensor_copy_(ctx, dst, src);
}

/* ---- reshape and view ---- */

/* Strides that let a tensor of [t]'s geometry be seen with shape [shape]
 * without moving data, as PyTorch's computeStride: walk [t]'s dims from the
 * innermost out in chunks whose elements are evenly spaced, and lay the new
 * dims over each chunk. False when some new dim would straddle two chunks. */
static bool view_strides(const nn_tensor *t, int nd, const int64_t *shape, int64_t *st) {
    int64_t numel = nn_tensor_numel(t);
    if (t->ndim == 0 || numel == 0) {
        /* Any strides address a single element or none at all. */
        contiguous_strides(nd, shape, st);
        return true;
    }
    int view_d = nd - 1;
    int64_t chunk_stride = t->strides[t->ndim - 1];
    int64_t tensor_numel = 1, view_numel = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        tensor_numel *= t->shape[d];
        if (d == 0 || (t->shape[d - 1] != 1 && t->strides[d - 1] != tensor_numel * chunk_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
                st[view_d] = view_numel * chunk_stride;
                view_numel *= shape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return false;
            if (d > 0) {
                chunk_stride = t->strides[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

/* p.dims[0..n_dims): the target shape, already resolved (no -1). */
nn_tensor *op_reshape_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = in0(node);
    int nd = node->p.n_dims;
    const int64_t *shape = node->p.dims;
    int64_t st[NN_MAX_DIMS];
    NN_ASSERT(nd >= 0 && nd <= NN_MAX_DIMS && prod(shape, 0, nd) == nn_tensor_numel(a));
    if (view_strides(a, nd, shape, st)) return nn_tensor_view_raw(ctx, a, nd, shape, st, a->offset);
    if (node->p.flags & RESHAPE_VIEW_ONLY) {
        /* PyTorch's words, which learners search for (the shapes are in
         * the traceback's line) */
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "view size is not compatible with input tensor's size and stride (at least "
                     "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                     "instead.");
        return NULL;
    }
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, a);
    if (!c) return NULL;
    contiguous_strides(nd, shape, st);
    nn_tensor *v = nn_tensor_view_raw(ctx, c, nd, shape, st, c->offset);
    nn_tensor_release(c);
    return v;
}

nn_status op_reshape_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *a = in0(node);
    if (node->in[0].needs_grad && !(din[0] = nn_reshape(ctx, dout, a->ndim, a->shape)))
        return ctx->err.code;
    return NN_OK;
}

/* ---- permute ---- */

/* p.dims[0..ndim): the permutation, validated and non-negative. */
nn_tensor *op_permute_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = in0(node);
    int64_t shape[NN_MAX_DIMS], st[NN_MAX_DIMS];
    NN_ASSERT(node->p.n_dims == a->ndim);
    for (int i = 0; i < a->ndim; i++) {
        shape[i] = a->shape[node->p.dims[i]];
        st[i] = a->strides[node->p.dims[i]];
    }
    return nn_tensor_view_raw(ctx, a, a->ndim, shape, st, a->offset);
}

nn_status op_permute_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    int64_t inv[NN_MAX_DIMS];
    for (int i = 0; i < node->p.n_dims; i++) inv[node->p.dims[i]] = i;
    if (node->in[0].needs_grad && !(din[0] = nn_permute(ctx, dout, inv))) return ctx->err.code;
    return NN_OK;
}

/* ---- expand ---- */

/* p.dims[0..n_dims): the target shape, resolved and validated. Broadcast dims
 * get stride 0, so every output position along them reads one element. */
nn_tensor *op_expand_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = in0(node);
    int nd = node->p.n_dims, lead = nd - a->ndim;
    int64_t st[NN_MAX_DIMS];
    NN_ASSERT(lead >= 0);
    for (int i = 0; i < nd; i++) {
        int j = i - lead;
        NN_ASSERT(j < 0 || a->shape[j] == node->p.dims[i] || a->shape[j] == 1);
        st[i] = (j < 0 || a->shape[j] != node->p.dims[i]) ? 0 : a->strides[j];
    }
    return nn_tensor_view_raw(ctx, a, nd, node->p.dims, st, a->offset);
}

/* Every output element that read input element e sends its gradient to e. */
nn_status op_expand_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *a = in0(node);
    if (node->in[0].needs_grad && !(din[0] = nn_sum_to_shape(ctx, dout, a->ndim, a->shape)))
        return ctx->err.code;
    return NN_OK;
}

/* ---- slice and select ---- */

static int64_t slice_len(int64_t start, int64_t stop, int64_t step) {
    return stop > start ? (stop - start + step - 1) / step : 0;
}

/* [t][..., start:stop:step, ...] along [dim] with normalised bounds. */
static nn_tensor *slice_view(nn_ctx *ctx, const nn_tensor *t, int dim, int64_t start, int64_t stop,
                             int64_t step) {
    int64_t shape[NN_MAX_DIMS], st[NN_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(st, t->strides, sizeof st);
    shape[dim] = slice_len(start, stop, step);
    st[dim] *= step;
    /* An empty slice may start one past the end: keep its offset in range. */
    int64_t off = t->offset + (shape[dim] ? start * t->strides[dim] : 0);
    return nn_tensor_view_raw(ctx, t, t->ndim, shape, st, off);
}

static nn_tensor *select_view(nn_ctx *ctx, const nn_tensor *t, int dim, int64_t index) {
    int64_t shape[NN_MAX_DIMS], st[NN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (i == dim) continue;
        shape[n] = t->shape[i];
        st[n++] = t->strides[i];
    }
    return nn_tensor_view_raw(ctx, t, n, shape, st, t->offset + index * t->strides[dim]);
}

/* A zero gradient of the input's shape with dout copied into the region
 * [view] picks out of it. */
static nn_tensor *embed_grad(nn_ctx *ctx, nn_node *node, nn_tensor *dout, bool is_slice) {
    nn_tensor *a = in0(node);
    nn_tensor *z = nn_zeros(ctx, dout->dtype, a->ndim, a->shape);
    if (!z) return NULL;
    const int64_t *p = node->p.i;
    nn_tensor *v = is_slice ? slice_view(ctx, z, (int)p[0], p[1], p[2], p[3])
                            : select_view(ctx, z, (int)p[0], p[1]);
    if (!v || copy_into(ctx, v, dout)) {
        nn_tensor_release(v);
        nn_tensor_release(z);
        return NULL;
    }
    nn_tensor_release(v);
    return z;
}

/* p.i = {dim, start, stop, step}, normalised: 0 <= start, stop <= size, step > 0. */
nn_tensor *op_slice_forward(nn_ctx *ctx, nn_node *node) {
    const int64_t *p = node->p.i;
    return slice_view(ctx, in0(node), (int)p[0], p[1], p[2], p[3]);
}

nn_status op_slice_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (node->in[0].needs_grad && !(din[0] = embed_grad(ctx, node, dout, true)))
        return ctx->err.code;
    return NN_OK;
}

/* p.i = {dim, index}, normalised. */
nn_tensor *op_select_forward(nn_ctx *ctx, nn_node *node) {
    return select_view(ctx, in0(node), (int)node->p.i[0], node->p.i[1]);
}

nn_status op_select_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (node->in[0].needs_grad && !(din[0] = embed_grad(ctx, node, dout, false)))
        return ctx->err.code;
    return NN_OK;
}

nn_status nn_view_grad_add(nn_ctx *ctx, const nn_node *node, nn_tensor *full, nn_tensor *dout) {
    const int64_t *p = node->p.i;
    nn_tensor *v = node->op == NN_OP_SLICE ? slice_view(ctx, full, (int)p[0], p[1], p[2], p[3])
                                           : select_view(ctx, full, (int)p[0], p[1]);
    if (!v) return ctx->err.code;
    nn_status st = nn_raw_add_into(ctx, v, dout, 1.0);
    nn_tensor_release(v);
    return st;
}

/* ---- contiguous ---- */

/* The output is always a new header: the executor marks it with the node,
 * so it must not be the input itself. */
/* contiguous() (p.i[0] NN_FORMAT_CONTIGUOUS, p.flags 0) and clone()
 * (p.flags 1: a copy even of a tensor already in the format). */
nn_tensor *op_contiguous_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = in0(node);
    int64_t st[NN_MAX_DIMS];
    if (nn_format_strides(a, (nn_memory_format)node->p.i[0], st))
        return nn_tensor_copy_strided_raw(ctx, a, a->dtype, st);
    if (!nn_tensor_is_contiguous(a)) return nn_tensor_contiguous_raw(ctx, a);
    if (!node->p.flags) return nn_tensor_detach(ctx, a);
    return nn_tensor_copy_strided_raw(ctx, a, a->dtype, a->strides);
}

nn_status op_contiguous_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (node->in[0].needs_grad) din[0] = nn_tensor_retain(dout);
    return NN_OK;
}

/* ---- cat ---- */

/* PyTorch still accepts 1-D empty tensors in a cat of any rank and skips
 * them (old code builds lists starting from torch.tensor([])). */
static bool cat_skipped(const nn_tensor *t) {
    return t->ndim == 1 && t->shape[0] == 0;
}

/* Validate the inputs of a cat along [dim_arg]; writes the wrapped dim, the
 * result shape and dtype, and the index of the input that sets the rank. */
static nn_status cat_geometry(nn_ctx *ctx, nn_tensor *const *ts, int n, int64_t dim_arg, int *dim,
                              int *nd, int64_t *shape, nn_dtype *dt) {
    if (n < 1) return nn_error_set(&ctx->err, NN_ERR_VALUE, "cat needs at least one tensor");
    int ref = -1;
    for (int i = 0; i < n; i++) {
        if (!ts[i])
            return nn_error_set(&ctx->err, NN_ERR_VALUE, "cat: tensor %d of %d is missing", i, n);
        if (ref < 0 && !cat_skipped(ts[i])) ref = i;
    }
    if (ref < 0) ref = 0;
    const nn_tensor *r = ts[ref];
    if (r->ndim == 0)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "zero-dimensional tensor (at position %d) cannot be concatenated", ref);
    if (nn_dim_wrap(ctx, dim_arg, r->ndim, dim)) return ctx->err.code;
    *nd = r->ndim;
    memcpy(shape, r->shape, sizeof(int64_t) * (size_t)r->ndim);
    shape[*dim] = 0;
    nn_tensor acc;
    memset(&acc, 0, sizeof acc);
    acc.dtype = r->dtype;
    acc.ndim = r->ndim; /* a tensor with dims, as every input */
    for (int i = 0; i < n; i++) {
        const nn_tensor *t = ts[i];
        acc.dtype = nn_dtype_promote(&acc, t);
        if (cat_skipped(t) && i != ref) continue;
        /* PyTorch's words (ATen's cat shape check) */
        if (t->ndim != r->ndim)
            return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                "Tensors must have same number of dimensions: got %d and %d",
                                r->ndim, t->ndim);
        for (int d = 0; d < t->ndim; d++)
            if (d != *dim && t->shape[d] != r->shape[d])
                return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                    "Sizes of tensors must match except in dimension %d. "
                                    "Expected size %lld but got size %lld for tensor number %d "
                                    "in the list.",
                                    *dim, (long long)r->shape[d], (long long)t->shape[d], i);
        shape[*dim] += t->shape[*dim];
    }
    *dt = acc.dtype;
    return NN_OK;
}

/* p.i[0]: the cat dim as given. Inputs are copied into consecutive slices
 * of the output, converting to the promoted dtype. */
nn_tensor *op_cat_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *ts_inline[NN_NODE_INLINE_INPUTS], **ts = ts_inline;
    if (node->n_in > NN_NODE_INLINE_INPUTS) {
        ts = nn_mem_alloc(sizeof *ts * (size_t)node->n_in, "cat inputs", &ctx->err);
        if (!ts) return NULL;
    }
    for (int i = 0; i < node->n_in; i++) ts[i] = node->in[i].t;
    int dim = 0, nd = 0;
    int64_t shape[NN_MAX_DIMS];
    nn_dtype dt = NN_FLOAT32;
    nn_tensor *out = NULL;
    if (cat_geometry(ctx, ts, node->n_in, node->p.i[0], &dim, &nd, shape, &dt)) goto done;
    out = nn_tensor_empty(ctx, dt, nd, shape);
    int64_t at = 0;
    for (int i = 0; out && i < node->n_in; i++) {
        nn_tensor *t = ts[i];
        if (cat_skipped(t) && nd != 1) continue;
        nn_tensor *v = slice_view(ctx, out, dim, at, at + t->shape[dim], 1);
        if (!v || copy_into(ctx, v, t)) {
            nn_tensor_release(out);
            out = NULL;
        }
        nn_tensor_release(v);
        at += t->shape[dim];
    }
    if (out) out->storage->version = 0;
done:
    if (ts != ts_inline) nn_mem_free(ts);
    return out;
}

/* Each input's gradient is its slice of dout (a view; the engine copies it
 * when it has to own it). */
nn_status op_cat_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    int dim;
    if (nn_dim_wrap(ctx, node->p.i[0], dout->ndim, &dim)) return ctx->err.code;
    int64_t at = 0;
    for (int i = 0; i < node->n_in; i++) {
        nn_tensor *t = node->in[i].t;
        if (cat_skipped(t) && dout->ndim != 1) continue;
        int64_t len = t->shape[dim];
        if (node->in[i].needs_grad && !(din[i] = slice_view(ctx, dout, dim, at, at + len, 1)))
            return ctx->err.code;
        at += len;
    }
    return NN_OK;
}

/* ---- gathers: integer and mask indexing ---- */

/* Dims [d0, d0 + nk) of the tensor are indexed; coords is an int64 [nk, n_mid]
 * table whose column r holds the coordinates of selected position r. */
typedef struct gather {
    int d0, nk;
    int64_t n_mid;
    nn_tensor *coords;
    int out_nd;
    int64_t out_shape[NN_MAX_DIMS];
} gather;

static void gather_free(gather *g) {
    nn_tensor_release(g->coords);
    g->coords = NULL;
}

/* Fill out_shape = t.shape[:d0] + mid + t.shape[d0+nk:]. */
static nn_status gather_shape(nn_ctx *ctx, gather *g, const nn_tensor *t, int mid_nd,
                              const int64_t *mid, const char *op) {
    int nd = g->d0 + mid_nd + (t->ndim - g->d0 - g->nk);
    if (nd > NN_MAX_DIMS) return too_many_dims(ctx, op, nd);
    int n = 0;
    for (int i = 0; i < g->d0; i++) g->out_shape[n++] = t->shape[i];
    for (int i = 0; i < mid_nd; i++) g->out_shape[n++] = mid[i];
    for (int i = g->d0 + g->nk; i < t->ndim; i++) g->out_shape[n++] = t->shape[i];
    g->out_nd = n;
    return NN_OK;
}

/* Advanced indexing geometry: [idx] (int64, broadcast together) index the
 * dims of [a] from [dim_arg] on. Wraps negative indices and reports the
 * first out-of-range one. */
static nn_status index_prepare(nn_ctx *ctx, const nn_tensor *a, int64_t dim_arg,
                               nn_tensor *const *idx, int n_idx, const char *op, gather *g) {
    char s1[128], s2[128];
    memset(g, 0, sizeof *g);
    if (n_idx < 1)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s needs at least one index tensor", op);
    if (a->ndim == 0)
        return nn_error_set(&ctx->err, NN_ERR_INDEX,
                            "%s: a 0-dim tensor has no dims to index; use item() for its value",
                            op);
    int dim;
    if (nn_dim_wrap(ctx, dim_arg, a->ndim, &dim)) return ctx->err.code;
    if (dim + n_idx > a->ndim)
        return nn_error_set(&ctx->err, NN_ERR_INDEX,
                            "%s: %d index tensors starting at dim %d need %d dims, but the "
                            "tensor has shape %s",
                            op, n_idx, dim, dim + n_idx, nn_tensor_shape_str(a, s1, sizeof s1));
    int bnd = 0;
    int64_t bshape[NN_MAX_DIMS];
    for (int k = 0; k < n_idx; k++) {
        const nn_tensor *t = idx[k];
        if (!t)
            return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: index tensor %d is missing", op, k);
        if (t->dtype != NN_INT64)
            return nn_error_set(&ctx->err, NN_ERR_TYPE,
                                "%s: index tensor %d is %s; indices must be int64%s", op, k,
                                nn_dtype_name(t->dtype),
                                t->dtype == NN_BOOL ? " (index with a bool mask through "
                                                      "masked_select or masked_fill_)"
                                                    : " (convert with .long())");
        if (k == 0) {
            bnd = t->ndim;
            memcpy(bshape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
        } else if (nn_broadcast_shapes(ctx, bnd, bshape, t->ndim, t->shape, &bnd, bshape)) {
            /* PyTorch's IndexError, naming every index tensor's shape */
            char msg[NN_ERROR_MSG_MAX];
            size_t len = 0;
            for (int j = 0; j < n_idx && idx[j] && len < sizeof msg; j++) {
                int w = snprintf(msg + len, sizeof msg - len, "%s%s", j ? ", " : "",
                                 nn_tensor_shape_str(idx[j], s1, sizeof s1));
                len += w > 0 ? (size_t)w : 0;
            }
            return nn_error_set(&ctx->err, NN_ERR_INDEX,
                                "shape mismatch: indexing tensors could not be broadcast together "
                                "with shapes %s",
                                msg);
        }
    }
    g->d0 = dim;
    g->nk = n_idx;
    g->n_mid = prod(bshape, 0, bnd);
    if (gather_shape(ctx, g, a, bnd, bshape, op)) return ctx->err.code;
    int64_t cshape[2] = {n_idx, g->n_mid}, st[NN_MAX_DIMS];
    g->coords = nn_tensor_empty(ctx, NN_INT64, 2, cshape);
    if (!g->coords) return ctx->err.code;
    contiguous_strides(bnd, bshape, st);
    int64_t *c = g->coords->storage->data;
    for (int k = 0; k < n_idx; k++) {
        /* Broadcast index k into row k of the table. */
        nn_tensor *row = nn_tensor_view_raw(ctx, g->coords, bnd, bshape, st, k * g->n_mid);
        nn_status s = row ? copy_into(ctx, row, idx[k]) : ctx->err.code;
        nn_tensor_release(row);
        if (s) return gather_free(g), s;
        int64_t size = a->shape[dim + k], *r = c + k * g->n_mid;
        for (int64_t j = 0; j < g->n_mid; j++) {
            int64_t v = r[j];
            if (v < -size || v >= size) {
                nn_error_set(&ctx->err, NN_ERR_INDEX,
                             "%s: index %lld is out of range for dim %d of size %lld (tensor "
                             "shape %s); valid indices are %lld to %lld",
                             op, (long long)v, dim + k, (long long)size,
                             nn_tensor_shape_str(a, s2, sizeof s2), (long long)-size,
                             (long long)(size - 1));
                return gather_free(g), NN_ERR_INDEX;
            }
            r[j] = v < 0 ? v + size : v;
        }
    }
    return NN_OK;
}

/* Mask geometry: a bool [mask] covering a's shape or its leading dims
 * selects the positions where it is true, in row-major order. */
static nn_status mask_prepare(nn_ctx *ctx, const nn_tensor *a, nn_tensor *mask, const char *op,
                              gather *g) {
    char s1[128], s2[128];
    memset(g, 0, sizeof *g);
    if (!mask) return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: the mask is missing", op);
    if (mask->dtype != NN_BOOL)
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s: the mask must be a bool tensor, not %s (make one with a "
                            "comparison such as x > 0%s)",
                            op, nn_dtype_name(mask->dtype),
                            mask->dtype == NN_INT64 ? ", or index with int64 tensors" : "");
    bool fits = mask->ndim <= a->ndim;
    for (int i = 0; fits && i < mask->ndim; i++) fits = mask->shape[i] == a->shape[i];
    if (!fits)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "%s: the mask has shape %s but the tensor has shape %s; the mask "
                            "must match the tensor's shape or its leading dims (to broadcast a "
                            "mask, expand() it to the tensor's shape first)",
                            op, nn_tensor_shape_str(mask, s1, sizeof s1),
                            nn_tensor_shape_str(a, s2, sizeof s2));
    nn_tensor *m = nn_tensor_contiguous_raw(ctx, mask);
    if (!m) return ctx->err.code;
    const uint8_t *mv = nn_tensor_data(m);
    int64_t n = nn_tensor_numel(m), k = 0;
    for (int64_t j = 0; j < n; j++) k += mv[j] != 0;
    g->d0 = 0;
    g->nk = mask->ndim;
    g->n_mid = k;
    int64_t cshape[2] = {mask->ndim, k};
    if (gather_shape(ctx, g, a, 1, &k, op) ||
        !(g->coords = nn_tensor_empty(ctx, NN_INT64, 2, cshape))) {
        nn_tensor_release(m);
        return ctx->err.code;
    }
    int64_t *c = g->coords->storage->data, r = 0;
    for (int64_t j = 0; j < n; j++) {
        if (!mv[j]) continue;
        int64_t rest = j;
        for (int d = mask->ndim - 1; d >= 0; d--) {
            c[d * k + r] = rest % mask->shape[d];
            rest /= mask->shape[d];
        }
        r++;
    }
    nn_tensor_release(m);
    return NN_OK;
}

/* Element offsets, in [t]'s storage, of every position of dims [d0, d1) in
 * row-major order: an int64 tensor of prod(shape[d0:d1]) entries. */
static nn_tensor *dim_offsets(nn_ctx *ctx, const nn_tensor *t, int d0, int d1) {
    int64_t n = prod(t->shape, d0, d1);
    nn_tensor *o = nn_tensor_empty(ctx, NN_INT64, 1, &n);
    if (!o || n == 0) return o;
    int64_t *v = o->storage->data, idx[NN_MAX_DIMS] = {0}, off = 0;
    for (int64_t j = 0; j < n; j++) {
        v[j] = off;
        for (int d = d1 - 1; d >= d0; d--) {
            off += t->strides[d];
            if (++idx[d] < t->shape[d]) break;
            off -= t->strides[d] * t->shape[d];
            idx[d] = 0;
        }
    }
    return o;
}

typedef enum xfer_mode { XFER_GATHER, XFER_SET, XFER_ADD } xfer_mode;

typedef struct xfer_geom {
    const int64_t *pre, *mid, *post;
    int64_t n_pre, n_mid, n_post;
    bool post_unit; /* post positions are consecutive elements */
} xfer_geom;

/* flat[(o*n_mid + r)*n_post + q] <-> t[pre[o] + mid[r] + post[q]] */
#define XFER_LOOP(NAME, T, STMT)                                                                   \
    static void NAME(T *t, T *flat, const xfer_geom *x) {                                          \
        for (int64_t o = 0; o < x->n_pre; o++)                                                     \
            for (int64_t r = 0; r < x->n_mid; r++) {                                               \
                T *row = t + x->pre[o] + x->mid[r];                                                \
                T *f = flat + (o * x->n_mid + r) * x->n_post;                                      \
                if (x->post_unit) {                                                                \
                    for (int64_t q = 0; q < x->n_post; q++) {                                      \
                        T *e = row + q;                                                            \
                        STMT;                                                                      \
                    }                                                                              \
                } else {                                                                           \
                    for (int64_t q = 0; q < x->n_post; q++) {                                      \
                        T *e = row + x->post[q];                                                   \
                        STMT;                                                                      \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
    }

XFER_LOOP(set_u8, uint8_t, *e = f[q])
XFER_LOOP(set_u16, uint16_t, *e = f[q])
XFER_LOOP(set_u32, uint32_t, *e = f[q])
XFER_LOOP(set_u64, uint64_t, *e = f[q])
XFER_LOOP(add_f32, float, *e += f[q])
XFER_LOOP(add_f64, double, *e += f[q])

/* A gather's rows [r0, r1) of the (o, r) space, each n_post elements:
 * one memcpy per row when the post positions are consecutive (x[idx] of
 * contiguous rows), a typed loop over mid when a row is one element
 * (x[:, idx]), else the general loop. */
#define GATHER_ROWS(T)                                                                             \
    do {                                                                                           \
        const T *tt = td;                                                                          \
        T *ff = fd;                                                                                \
        for (int64_t u = u0; u < u1; u++) {                                                        \
            int64_t o = u / x->n_mid, r = u % x->n_mid;                                            \
            const T *row = tt + x->pre[o] + x->mid[r];                                             \
            T *f = ff + u * x->n_post;                                                             \
            for (int64_t q = 0; q < x->n_post; q++) f[q] = row[x->post[q]];                        \
        }                                                                                          \
    } while (0)

static void gather_rows(const void *td, void *fd, size_t es, const xfer_geom *x, int64_t u0,
                        int64_t u1) {
    if (x->post_unit && x->n_post > 1) {
        size_t bytes = (size_t)x->n_post * es;
        for (int64_t u = u0; u < u1; u++) {
            int64_t o = u / x->n_mid, r = u % x->n_mid;
            memcpy((char *)fd + (size_t)u * bytes,
                   (const char *)td + (x->pre[o] + x->mid[r]) * (int64_t)es, bytes);
        }
        return;
    }
    if (x->n_post == 1 && x->post[0] == 0 && es == 4) { /* x[:, idx], float32 */
        const uint32_t *tt = td;
        uint32_t *ff = fd;
        for (int64_t u = u0; u < u1;) {
            int64_t o = u / x->n_mid, r = u % x->n_mid;
            int64_t end = u + (x->n_mid - r) < u1 ? u + (x->n_mid - r) : u1;
            const uint32_t *row = tt + x->pre[o];
            for (; u < end; u++, r++) ff[u] = row[x->mid[r]];
        }
        return;
    }
    switch (es) {
    case 1: GATHER_ROWS(uint8_t); break;
    case 2: GATHER_ROWS(uint16_t); break;
    case 4: GATHER_ROWS(uint32_t); break;
    default: GATHER_ROWS(uint64_t); break;
    }
}
#undef GATHER_ROWS

typedef struct gather_job {
    const void *td;
    void *fd;
    size_t es;
    const xfer_geom *x;
    int64_t units;
} gather_job;

static void gather_task(void *arg, int task, int n_tasks) {
    const gather_job *j = arg;
    int64_t b, e;
    nn_parallel_range(j->units, task, n_tasks, 1, &b, &e);
    if (b < e) gather_rows(j->td, j->fd, j->es, j->x, b, e);
}

/* A gather into a fresh output split across the engine's threads (each
 * output element is written once): index_select, x[idx], masked_select. */
static void gather_par(const void *td, void *fd, size_t es, const xfer_geom *x) {
    gather_job j = {td, fd, es, x, x->n_pre * x->n_mid};
    int n_tasks = nn_parallel_tasks(j.units * x->n_post, NN_PAR_MIN_ELEMWISE);
    if (n_tasks > j.units) n_tasks = (int)j.units;
    if (n_tasks > 1)
        nn_parallel_run(n_tasks, gather_task, &j);
    else if (j.units > 0)
        gather_rows(td, fd, es, x, 0, j.units);
}

/* Move data between [t] (any strides) at the positions [g] selects and
 * [flat] (contiguous, of g's output shape, same dtype). */
static nn_status xfer(nn_ctx *ctx, nn_tensor *t, nn_tensor *flat, const gather *g, xfer_mode mode) {
    NN_ASSERT(t->dtype == flat->dtype && nn_tensor_is_contiguous(flat));
    nn_tensor *pre = dim_offsets(ctx, t, 0, g->d0);
    nn_tensor *post = pre ? dim_offsets(ctx, t, g->d0 + g->nk, t->ndim) : NULL;
    nn_tensor *mid = post ? nn_tensor_empty(ctx, NN_INT64, 1, &g->n_mid) : NULL;
    if (!mid) {
        nn_tensor_release(pre);
        nn_tensor_release(post);
        return ctx->err.code;
    }
    int64_t *m = mid->storage->data;
    const int64_t *c = g->coords->storage->data;
    for (int64_t r = 0; r < g->n_mid; r++) {
        int64_t off = 0;
        for (int k = 0; k < g->nk; k++) off += c[k * g->n_mid + r] * t->strides[g->d0 + k];
        m[r] = off;
    }
    xfer_geom x = {pre->storage->data,    m,   post->storage->data, nn_tensor_numel(pre), g->n_mid,
                   nn_tensor_numel(post), true};
    for (int64_t q = 0; q < x.n_post && x.post_unit; q++) x.post_unit = x.post[q] == q;
    void *td = nn_tensor_data(t), *fd = nn_tensor_data(flat);
    size_t es = nn_dtype_size(t->dtype);
    if (mode == XFER_ADD) {
        NN_ASSERT(nn_dtype_is_float(t->dtype));
        if (t->dtype == NN_FLOAT32)
            add_f32(td, fd, &x);
        else
            add_f64(td, fd, &x);
    } else if (mode == XFER_GATHER) {
        gather_par(td, fd, es, &x);
    } else {
        if (es == 1)
            set_u8(td, fd, &x);
        else if (es == 2)
            set_u16(td, fd, &x);
        else if (es == 4)
            set_u32(td, fd, &x);
        else
            set_u64(td, fd, &x);
    }
    nn_tensor_release(pre);
    nn_tensor_release(post);
    nn_tensor_release(mid);
    return NN_OK;
}

static nn_tensor *gather_forward(nn_ctx *ctx, nn_tensor *a, gather *g) {
    nn_tensor *out = nn_tensor_empty(ctx, a->dtype, g->out_nd, g->out_shape);
    if (out && xfer(ctx, a, out, g, XFER_GATHER)) {
        nn_tensor_release(out);
        out = NULL;
    }
    gather_free(g);
    return out;
}

/* Scatter-add dout into zeros of a's shape: repeated positions add up. */
static nn_tensor *gather_backward(nn_ctx *ctx, nn_tensor *a, nn_tensor *dout, gather *g) {
    nn_tensor *z = nn_zeros(ctx, dout->dtype, a->ndim, a->shape);
    nn_tensor *d = z ? nn_tensor_contiguous_raw(ctx, dout) : NULL;
    if (d && xfer(ctx, z, d, g, XFER_ADD)) {
        nn_tensor_release(d);
        d = NULL;
    }
    if (!d) {
        nn_tensor_release(z);
        z = NULL;
    }
    nn_tensor_release(d);
    gather_free(g);
    return z;
}

/* The gather an INDEX node performs. Inputs: the tensor, then the index
 * tensors; p.i[0]: the first indexed dim. */
static nn_status index_node_geometry(nn_ctx *ctx, nn_node *node, gather *g) {
    nn_tensor *idx_inline[NN_NODE_INLINE_INPUTS] = {0}, **idx = idx_inline;
    int n_idx = node->n_in - 1;
    if (n_idx > NN_NODE_INLINE_INPUTS) {
        idx = nn_mem_alloc(sizeof *idx * (size_t)n_idx, "index tensors", &ctx->err);
        if (!idx) return ctx->err.code;
    }
    for (int k = 0; k < n_idx; k++) idx[k] = node->in[k + 1].t;
    nn_status st = index_prepare(ctx, in0(node), node->p.i[0], idx, n_idx, "index", g);
    if (idx != idx_inline) nn_mem_free(idx);
    return st;
}

/* A complex tensor is indexed as its real view (the pair dim last, never
 * indexed), then seen as complex again. */
static nn_tensor *index_complex(nn_ctx *ctx, nn_node *node, nn_tensor *dout) {
    nn_tensor *a = in0(node);
    nn_tensor *ra = nn_complex_as_real_raw(ctx, a);
    nn_tensor *rd = ra && dout ? nn_complex_as_real_raw(ctx, dout) : NULL;
    if (!ra || (dout && !rd)) {
        nn_tensor_release(ra);
        return NULL;
    }
    nn_node view = *node;
    nn_input in_inline[NN_NODE_INLINE_INPUTS];
    if (node->n_in <= NN_NODE_INLINE_INPUTS) { /* the same node, over the real view */
        memcpy(in_inline, node->in, sizeof(nn_input) * (size_t)node->n_in);
        view.in = in_inline;
    }
    nn_tensor *keep = view.in[0].t;
    view.in[0].t = ra;
    gather g;
    nn_tensor *r = NULL;
    if (!index_node_geometry(ctx, &view, &g))
        r = dout ? gather_backward(ctx, ra, rd, &g) : gather_forward(ctx, ra, &g);
    view.in[0].t = keep;
    nn_tensor_release(ra);
    nn_tensor_release(rd);
    nn_tensor *out = r ? nn_real_as_complex_raw(ctx, r) : NULL;
    nn_tensor_release(r);
    return out;
}

nn_tensor *op_index_forward(nn_ctx *ctx, nn_node *node) {
    gather g;
    if (nn_dtype_is_complex(in0(node)->dtype)) return index_complex(ctx, node, NULL);
    if (index_node_geometry(ctx, node, &g)) return NULL;
    return gather_forward(ctx, in0(node), &g);
}

nn_status op_index_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    gather g;
    if (!node->in[0].needs_grad) return NN_OK;
    if (nn_dtype_is_complex(in0(node)->dtype)) {
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, dout);
        din[0] = c ? index_complex(ctx, node, c) : NULL;
        nn_tensor_release(c);
        return din[0] ? NN_OK : ctx->err.code;
    }
    if (index_node_geometry(ctx, node, &g)) return ctx->err.code;
    din[0] = gather_backward(ctx, in0(node), dout, &g);
    return din[0] ? NN_OK : ctx->err.code;
}

/* Inputs: the tensor and its bool mask. */
nn_tensor *op_masked_select_forward(nn_ctx *ctx, nn_node *node) {
    gather g;
    if (mask_prepare(ctx, in0(node), node->in[1].t, "masked_select", &g)) return NULL;
    return gather_forward(ctx, in0(node), &g);
}

nn_status op_masked_select_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    gather g;
    if (mask_prepare(ctx, in0(node), node->in[1].t, "masked_select", &g)) return ctx->err.code;
    din[0] = gather_backward(ctx, in0(node), dout, &g);
    return din[0] ? NN_OK : ctx->err.code;
}

/* ---- in-place scatters ---- */

/* Write [value] (broadcast to the selected region, converted to a's dtype)
 * into the positions [g] selects. The value is first copied out in full,
 * so a value that reads a's own storage (x[i] = x[j]) sees the old data. */
static nn_status scatter_set(nn_ctx *ctx, nn_tensor *a, nn_tensor *value, gather *g,
                             const char *op) {
    char s1[128], s2[128];
    int nd;
    int64_t shape[NN_MAX_DIMS];
    nn_status st = NN_OK;
    if (!value) {
        st = nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: the value is missing", op);
    } else if (nn_broadcast_shapes(ctx, value->ndim, value->shape, g->out_nd, g->out_shape, &nd,
                                   shape) ||
               nd != g->out_nd || memcmp(shape, g->out_shape, sizeof(int64_t) * (size_t)nd) != 0) {
        st = nn_error_set(&ctx->err, NN_ERR_SHAPE,
                          "shape mismatch: value tensor of shape %s cannot be broadcast to "
                          "indexing result of shape %s",
                          nn_tensor_shape_str(value, s1, sizeof s1),
                          nn_shape_str(s2, sizeof s2, g->out_nd, g->out_shape));
    } else {
        nn_tensor *v = nn_tensor_empty(ctx, a->dtype, g->out_nd, g->out_shape);
        st = !v ? ctx->err.code : copy_into(ctx, v, value);
        if (!st) st = xfer(ctx, a, v, g, XFER_SET);
        nn_tensor_release(v);
        if (!st) a->storage->version++;
    }
    gather_free(g);
    return st;
}

nn_status nn_index_put_(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *const *idx, int n_idx,
                        nn_tensor *value) {
    gather g;
    if (missing(ctx, a, "index_put_")) return ctx->err.code;
    if (nn_tensor_check_inplace(ctx, a, "index_put_")) return ctx->err.code;
    if (index_prepare(ctx, a, dim, idx, n_idx, "index_put_", &g)) return ctx->err.code;
    return scatter_set(ctx, a, value, &g, "index_put_");
}

nn_status nn_masked_fill_(nn_ctx *ctx, nn_tensor *a, nn_tensor *mask, nn_tensor *value) {
    gather g;
    if (missing(ctx, a, "masked_fill_")) return ctx->err.code;
    if (nn_tensor_check_inplace(ctx, a, "masked_fill_")) return ctx->err.code;
    if (mask_prepare(ctx, a, mask, "masked_fill_", &g)) return ctx->err.code;
    return scatter_set(ctx, a, value, &g, "masked_fill_");
}

/* ---- public API ---- */

/* Resolve one -1 in [shape] against [a]'s element count. */
static nn_status resolve_shape(nn_ctx *ctx, const nn_tensor *a, int nd, const int64_t *shape,
                               int64_t *out, const char *op) {
    char s1[128];
    if (nd < 0 || nd > NN_MAX_DIMS)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "%s: shapes have at most %d dims, got %d", op,
                            NN_MAX_DIMS, nd);
    int infer = -1;
    int64_t known = 1, numel = nn_tensor_numel(a);
    for (int i = 0; i < nd; i++) {
        out[i] = shape[i];
        if (shape[i] == -1) {
            if (infer >= 0)
                return nn_error_set(&ctx->err, NN_ERR_SHAPE, "only one dimension can be inferred");
            infer = i;
        } else if (shape[i] < 0) {
            return nn_error_set(&ctx->err, NN_ERR_SHAPE, "invalid shape dimension %lld",
                                (long long)shape[i]);
        } else {
            known *= shape[i];
        }
    }
    /* ATen's infer_size, in its words (the shape as given, -1 and all) */
    if (known == numel || (infer >= 0 && known > 0 && numel % known == 0)) {
        if (infer >= 0) {
            if (known == 0)
                return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                    "cannot reshape tensor of 0 elements into shape %s because "
                                    "the unspecified dimension size -1 can be any value and is "
                                    "ambiguous",
                                    nn_shape_str(s1, sizeof s1, nd, shape));
            out[infer] = numel / known;
        }
        return NN_OK;
    }
    return nn_error_set(&ctx->err, NN_ERR_SHAPE, "shape '%s' is invalid for input of size %lld",
                        nn_shape_str(s1, sizeof s1, nd, shape), (long long)numel);
}

static nn_tensor *reshape_call(nn_ctx *ctx, nn_tensor *a, int ndim, const int64_t *shape, int flags,
                               const char *op) {
    nn_params p;
    memset(&p, 0, sizeof p);
    if (missing(ctx, a, op) || resolve_shape(ctx, a, ndim, shape, p.dims, op)) return NULL;
    p.n_dims = ndim;
    p.flags = flags;
    return nn_exec(ctx, NN_OP_RESHAPE, &a, 1, &p);
}

nn_tensor *nn_reshape(nn_ctx *ctx, nn_tensor *a, int ndim, const int64_t *shape) {
    return reshape_call(ctx, a, ndim, shape, 0, "reshape");
}

nn_tensor *nn_view(nn_ctx *ctx, nn_tensor *a, int ndim, const int64_t *shape) {
    return reshape_call(ctx, a, ndim, shape, RESHAPE_VIEW_ONLY, "view");
}

nn_tensor *nn_flatten(nn_ctx *ctx, nn_tensor *a, int64_t start_dim, int64_t end_dim) {
    int s, e;
    if (missing(ctx, a, "flatten")) return NULL;
    if (nn_dim_wrap(ctx, start_dim, a->ndim, &s) || nn_dim_wrap(ctx, end_dim, a->ndim, &e))
        return NULL;
    if (a->ndim == 0) return nn_reshape(ctx, a, 1, (const int64_t[]){1});
    if (s > e) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < s; i++) shape[n++] = a->shape[i];
    shape[n++] = prod(a->shape, s, e + 1);
    for (int i = e + 1; i < a->ndim; i++) shape[n++] = a->shape[i];
    return nn_reshape(ctx, a, n, shape);
}

nn_tensor *nn_permute(nn_ctx *ctx, nn_tensor *a, const int64_t *order) {
    nn_params p;
    memset(&p, 0, sizeof p);
    if (missing(ctx, a, "permute")) return NULL;
    if (a->ndim > 0 && !order) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "permute: the order of the %d dims is missing",
                     a->ndim);
        return NULL;
    }
    bool seen[NN_MAX_DIMS] = {false};
    for (int i = 0; i < a->ndim; i++) {
        int d;
        if (nn_dim_wrap(ctx, order[i], a->ndim, &d)) return NULL;
        if (seen[d]) {
            char s1[128];
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "permute: the order %s names dim %d twice; it must list each of the "
                         "%d dims once",
                         nn_shape_str(s1, sizeof s1, a->ndim, order), d, a->ndim);
            return NULL;
        }
        seen[d] = true;
        p.dims[i] = d;
    }
    p.n_dims = a->ndim;
    return nn_exec(ctx, NN_OP_PERMUTE, &a, 1, &p);
}

nn_tensor *nn_transpose(nn_ctx *ctx, nn_tensor *a, int64_t d0, int64_t d1) {
    int x, y;
    if (missing(ctx, a, "transpose")) return NULL;
    if (nn_dim_wrap(ctx, d0, a->ndim, &x) || nn_dim_wrap(ctx, d1, a->ndim, &y)) return NULL;
    int64_t order[NN_MAX_DIMS];
    for (int i = 0; i < a->ndim; i++) order[i] = i;
    if (a->ndim > 0) {
        order[x] = y;
        order[y] = x;
    }
    return nn_permute(ctx, a, order);
}

nn_tensor *nn_squeeze(nn_ctx *ctx, nn_tensor *a, int64_t dim) {
    int d = -1;
    if (missing(ctx, a, "squeeze")) return NULL;
    if (dim != NN_ALL_DIMS && nn_dim_wrap(ctx, dim, a->ndim, &d)) return NULL;
    int64_t shape[NN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < a->ndim; i++) {
        /* A dim of another size stays: PyTorch makes that a no-op. */
        bool drop = a->shape[i] == 1 && (dim == NN_ALL_DIMS || i == d);
        if (!drop) shape[n++] = a->shape[i];
    }
    return nn_reshape(ctx, a, n, shape);
}

nn_tensor *nn_unsqueeze(nn_ctx *ctx, nn_tensor *a, int64_t dim) {
    int d;
    if (missing(ctx, a, "unsqueeze")) return NULL;
    if (nn_dim_wrap(ctx, dim, a->ndim + 1, &d)) return NULL;
    if (a->ndim + 1 > NN_MAX_DIMS) return too_many_dims(ctx, "unsqueeze", a->ndim + 1), NULL;
    int64_t shape[NN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i <= a->ndim; i++) {
        if (i == d) shape[n++] = 1;
        if (i < a->ndim) shape[n++] = a->shape[i];
    }
    return nn_reshape(ctx, a, n, shape);
}

nn_tensor *nn_expand(nn_ctx *ctx, nn_tensor *a, int ndim, const int64_t *shape) {
    char s1[128], s2[128];
    nn_params p;
    memset(&p, 0, sizeof p);
    if (missing(ctx, a, "expand")) return NULL;
    if (ndim > NN_MAX_DIMS) return too_many_dims(ctx, "expand", ndim), NULL;
    if (ndim < a->ndim) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "expand: the target shape %s has fewer dims than the tensor's shape %s",
                     nn_shape_str(s1, sizeof s1, ndim, shape),
                     nn_tensor_shape_str(a, s2, sizeof s2));
        return NULL;
    }
    int lead = ndim - a->ndim;
    for (int i = 0; i < ndim; i++) {
        int j = i - lead;
        int64_t want = shape[i];
        if (j >= 0 && want == -1) want = a->shape[j];
        /* PyTorch's words (ATen's inferExpandGeometry) */
        if (j < 0 && want < 0) {
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "The expanded size of the tensor (%lld) isn't allowed in a leading, "
                         "non-existing dimension %d",
                         (long long)want, i);
            return NULL;
        }
        if (j >= 0 && a->shape[j] != want && a->shape[j] != 1) {
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "The expanded size of the tensor (%lld) must match the existing size "
                         "(%lld) at non-singleton dimension %d.  Target sizes: %s.  Tensor "
                         "sizes: %s",
                         (long long)want, (long long)a->shape[j], i,
                         nn_shape_str(s2, sizeof s2, ndim, shape),
                         nn_tensor_shape_str(a, s1, sizeof s1));
            return NULL;
        }
        if (want < 0) {
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "Trying to create tensor with negative dimension %lld: %s",
                         (long long)want, nn_shape_str(s2, sizeof s2, ndim, shape));
            return NULL;
        }
        p.dims[i] = want;
    }
    p.n_dims = ndim;
    return nn_exec(ctx, NN_OP_EXPAND, &a, 1, &p);
}

nn_tensor *nn_contiguous(nn_ctx *ctx, nn_tensor *a) {
    if (missing(ctx, a, "contiguous")) return NULL;
    /* As in PyTorch, a contiguous tensor is its own contiguous(). */
    if (nn_tensor_is_contiguous(a)) return nn_tensor_retain(a);
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = NN_FORMAT_CONTIGUOUS;
    return nn_exec(ctx, NN_OP_CONTIGUOUS, &a, 1, &p);
}

nn_tensor *nn_clone(nn_ctx *ctx, nn_tensor *a, nn_memory_format fmt) {
    if (missing(ctx, a, "clone")) return NULL;
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = fmt;
    p.flags = 1;
    return nn_exec(ctx, NN_OP_CONTIGUOUS, &a, 1, &p);
}

static int64_t clamp_bound(int64_t v, int64_t n) {
    if (v < 0) v = v < -n ? 0 : v + n;
    return v > n ? n : v;
}

nn_tensor *nn_slice(nn_ctx *ctx, nn_tensor *a, int64_t dim, int64_t start, int64_t stop,
                    int64_t step) {
    int d;
    if (missing(ctx, a, "slice")) return NULL;
    if (a->ndim == 0) {
        nn_error_set(&ctx->err, NN_ERR_INDEX, "slice: a 0-dim tensor has no dims to slice");
        return NULL;
    }
    if (nn_dim_wrap(ctx, dim, a->ndim, &d)) return NULL;
    if (step <= 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "slice: step must be positive, got %lld (to reverse, use flip() or an "
                     "index tensor such as arange(n - 1, -1, -1))",
                     (long long)step);
        return NULL;
    }
    nn_params p;
    memset(&p, 0, sizeof p);
    int64_t n = a->shape[d];
    p.i[0] = d;
    p.i[1] = clamp_bound(start, n);
    p.i[2] = clamp_bound(stop, n);
    p.i[3] = step;
    return nn_exec(ctx, NN_OP_SLICE, &a, 1, &p);
}

nn_tensor *nn_select(nn_ctx *ctx, nn_tensor *a, int64_t dim, int64_t index) {
    int d;
    char s1[128];
    if (missing(ctx, a, "select")) return NULL;
    if (a->ndim == 0) {
        nn_error_set(&ctx->err, NN_ERR_INDEX,
                     "select: a 0-dim tensor has no dims to index; use item() for its value");
        return NULL;
    }
    if (nn_dim_wrap(ctx, dim, a->ndim, &d)) return NULL;
    int64_t n = a->shape[d];
    if (index < -n || index >= n) {
        nn_error_set(
            &ctx->err, NN_ERR_INDEX,
            "select: index %lld is out of range for dim %d of size %lld (tensor shape %s); "
            "valid indices are %lld to %lld",
            (long long)index, d, (long long)n, nn_tensor_shape_str(a, s1, sizeof s1), (long long)-n,
            (long long)(n - 1));
        return NULL;
    }
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = d;
    p.i[1] = index < 0 ? index + n : index;
    return nn_exec(ctx, NN_OP_SELECT, &a, 1, &p);
}

nn_tensor *nn_cat(nn_ctx *ctx, nn_tensor *const *ts, int n, int64_t dim) {
    /* Check here too, so a bad call fails before the hooks see a node. */
    int d, nd;
    int64_t shape[NN_MAX_DIMS];
    nn_dtype dt;
    if (n >= 1 && !ts) return nn_error_set(&ctx->err, NN_ERR_VALUE, "cat: no tensors"), NULL;
    if (cat_geometry(ctx, ts, n, dim, &d, &nd, shape, &dt)) return NULL;
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = dim;
    return nn_exec(ctx, NN_OP_CAT, ts, n, &p);
}

nn_tensor *nn_stack(nn_ctx *ctx, nn_tensor *const *ts, int n, int64_t dim) {
    char s1[128], s2[128];
    if (n < 1 || !ts) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "stack needs at least one tensor");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!ts[i]) {
            nn_error_set(&ctx->err, NN_ERR_VALUE, "stack: tensor %d of %d is missing", i, n);
            return NULL;
        }
        if (!nn_tensor_same_shape(ts[i], ts[0])) {
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "stack expects each tensor to be equal size, but got %s at entry 0 and "
                         "%s at entry %d",
                         nn_tensor_shape_str(ts[0], s2, sizeof s2),
                         nn_tensor_shape_str(ts[i], s1, sizeof s1), i);
            return NULL;
        }
    }
    int d;
    if (nn_dim_wrap(ctx, dim, ts[0]->ndim + 1, &d)) return NULL;
    nn_tensor **u = nn_mem_calloc(sizeof *u * (size_t)n, "stack inputs", &ctx->err);
    if (!u) return NULL;
    nn_tensor *out = NULL;
    int k = 0;
    for (; k < n; k++)
        if (!(u[k] = nn_unsqueeze(ctx, ts[k], d))) break;
    if (k == n) out = nn_cat(ctx, u, n, d);
    for (int i = 0; i < k; i++) nn_tensor_release(u[i]);
    nn_mem_free(u);
    return out;
}

/* Slices of [sizes] along [dim]; all or nothing. */
static nn_status split_sizes(nn_ctx *ctx, nn_tensor *a, int d, int64_t size, int count,
                             nn_tensor **out, int cap, int *out_n, const char *op) {
    if (count > cap)
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s makes %d pieces but there is room for only %d", op, count, cap);
    int64_t n = a->shape[d];
    for (int i = 0; i < count; i++) {
        int64_t start = (int64_t)i * size, stop = start + size;
        out[i] = nn_slice(ctx, a, d, start < n ? start : n, stop < n ? stop : n, 1);
        if (!out[i]) {
            for (int j = 0; j < i; j++) {
                nn_tensor_release(out[j]);
                out[j] = NULL;
            }
            return ctx->err.code;
        }
    }
    *out_n = count;
    return NN_OK;
}

nn_status nn_split(nn_ctx *ctx, nn_tensor *a, int64_t size, int64_t dim, nn_tensor **out, int cap,
                   int *out_n) {
    int d;
    if (missing(ctx, a, "split")) return ctx->err.code;
    *out_n = 0;
    if (a->ndim == 0)
        return nn_error_set(&ctx->err, NN_ERR_INDEX, "split: a 0-dim tensor has no dims");
    if (nn_dim_wrap(ctx, dim, a->ndim, &d)) return ctx->err.code;
    int64_t n = a->shape[d];
    if (size < 0 || (size == 0 && n > 0))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "split: the piece size must be positive, got %lld", (long long)size);
    int64_t count = n == 0 ? 1 : (n + size - 1) / size;
    if (count > cap)
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "split makes %lld pieces but there is room for only %d",
                            (long long)count, cap);
    return split_sizes(ctx, a, d, size, (int)count, out, cap, out_n, "split");
}

nn_status nn_chunk(nn_ctx *ctx, nn_tensor *a, int64_t chunks, int64_t dim, nn_tensor **out, int cap,
                   int *out_n) {
    int d;
    if (missing(ctx, a, "chunk")) return ctx->err.code;
    *out_n = 0;
    if (chunks <= 0)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "chunk: chunks must be positive, got %lld",
                            (long long)chunks);
    if (a->ndim == 0)
        return nn_error_set(&ctx->err, NN_ERR_INDEX, "chunk: a 0-dim tensor has no dims");
    if (nn_dim_wrap(ctx, dim, a->ndim, &d)) return ctx->err.code;
    int64_t n = a->shape[d];
    /* torch.chunk: pieces of ceil(n / chunks), so there may be fewer than
     * [chunks] of them; an empty dim still gives [chunks] empty pieces. */
    if (n == 0) {
        if (chunks > cap)
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "chunk makes %lld pieces but there is room for only %d",
                                (long long)chunks, cap);
        return split_sizes(ctx, a, d, 0, (int)chunks, out, cap, out_n, "chunk");
    }
    int64_t size = (n + chunks - 1) / chunks;
    int64_t count = (n + size - 1) / size;
    if (count > cap)
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "chunk makes %lld pieces but there is room for only %d",
                            (long long)count, cap);
    return split_sizes(ctx, a, d, size, (int)count, out, cap, out_n, "chunk");
}

nn_tensor *nn_index(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *const *idx, int n_idx) {
    if (missing(ctx, a, "index")) return NULL;
    if (n_idx < 1 || !idx) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "index needs at least one index tensor");
        return NULL;
    }
    nn_tensor *in_inline[NN_NODE_INLINE_INPUTS + 1], **in = in_inline;
    if (n_idx + 1 > NN_NODE_INLINE_INPUTS + 1) {
        in = nn_mem_alloc(sizeof *in * (size_t)(n_idx + 1), "index inputs", &ctx->err);
        if (!in) return NULL;
    }
    in[0] = a;
    for (int k = 0; k < n_idx; k++) in[k + 1] = idx[k];
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = dim;
    nn_tensor *out = nn_exec(ctx, NN_OP_INDEX, in, n_idx + 1, &p);
    if (in != in_inline) nn_mem_free(in);
    return out;
}

nn_tensor *nn_masked_select(nn_ctx *ctx, nn_tensor *a, nn_tensor *mask) {
    nn_tensor *in[2] = {a, mask};
    if (missing(ctx, a, "masked_select")) return NULL;
    if (!mask) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "masked_select: the mask is missing");
        return NULL;
    }
    return nn_exec(ctx, NN_OP_MASKED_SELECT, in, 2, NULL);
}

/* ---- put: out = a, then out.flat[idx[k]] = value[k] with [value]
 * broadcast to idx's shape and converted to a's dtype. The recorded form of
 * an assignment into a tensor with autograd history (x[:, 0] = 0,
 * x[mask] += b): the language computes [idx], the row-major positions its
 * key selects, and moves x onto the result (nn_tensor_assign_). Where idx
 * repeats a position the last write wins. Backward: a's gradient is dout
 * with the written positions zeroed; value's is dout at idx (summed to
 * value's shape by the executor). ---- */

/* The flat position in [v] (broadcast to [ndim, shape]) of element [k]. */
static int64_t broadcast_pos(const nn_tensor *v, int ndim, const int64_t *shape, int64_t k) {
    int64_t pos = 0, mul = 1;
    for (int d = ndim - 1, dv = v->ndim - 1; d >= 0; d--, dv--) {
        int64_t i = k % shape[d];
        k /= shape[d];
        if (dv >= 0) {
            if (v->shape[dv] != 1) pos += i * mul;
            mul *= v->shape[dv];
        }
    }
    return pos;
}

static nn_status put_check(nn_ctx *ctx, const nn_tensor *a, const nn_tensor *v,
                           const nn_tensor *idx) {
    char s1[128], s2[128];
    if (idx->dtype != NN_INT64)
        return nn_error_set(&ctx->err, NN_ERR_TYPE, "index_put: positions must be int64, got %s",
                            nn_dtype_name(idx->dtype));
    int n;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(ctx, idx->ndim, idx->shape, v->ndim, v->shape, &n, shape))
        return ctx->err.code;
    if (n != idx->ndim || memcmp(shape, idx->shape, sizeof(int64_t) * (size_t)n) != 0)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "shape mismatch: value tensor of shape %s cannot be broadcast to "
                            "indexing result of shape %s",
                            nn_tensor_shape_str(v, s1, sizeof s1),
                            nn_tensor_shape_str(idx, s2, sizeof s2));
    int64_t numel = nn_tensor_numel(a), m = nn_tensor_numel(idx);
    for (int64_t k = 0; k < m; k++) {
        double p = nn_tensor_get_flat(idx, k);
        if (p < 0 || p >= (double)numel)
            return nn_error_set(&ctx->err, NN_ERR_INDEX,
                                "index_put: position %.0f is out of range for a tensor of %lld "
                                "elements",
                                p, (long long)numel);
    }
    return NN_OK;
}

nn_tensor *op_put_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = in0(node), *v = node->in[1].t, *idx = node->in[2].t;
    if (put_check(ctx, a, v, idx)) return NULL;
    nn_tensor *out = nn_tensor_empty(ctx, a->dtype, a->ndim, a->shape);
    if (!out) return NULL;
    int64_t numel = nn_tensor_numel(a), m = nn_tensor_numel(idx);
    for (int64_t i = 0; i < numel; i++) nn_tensor_set_flat(out, i, nn_tensor_get_flat(a, i));
    for (int64_t k = 0; k < m; k++)
        nn_tensor_set_flat(out, (int64_t)nn_tensor_get_flat(idx, k),
                           nn_tensor_get_flat(v, broadcast_pos(v, idx->ndim, idx->shape, k)));
    return out;
}

nn_status op_put_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *idx = node->in[2].t;
    int64_t m = nn_tensor_numel(idx);
    if (node->in[0].needs_grad) {
        nn_tensor *g = nn_tensor_empty(ctx, dout->dtype, dout->ndim, dout->shape);
        if (!g) return ctx->err.code;
        int64_t numel = nn_tensor_numel(dout);
        for (int64_t i = 0; i < numel; i++) nn_tensor_set_flat(g, i, nn_tensor_get_flat(dout, i));
        for (int64_t k = 0; k < m; k++)
            nn_tensor_set_flat(g, (int64_t)nn_tensor_get_flat(idx, k), 0);
        din[0] = g;
    }
    if (node->in[1].needs_grad) {
        /* Only the last write to a position reached the output. */
        int64_t numel = nn_tensor_numel(dout);
        unsigned char *seen =
            nn_mem_calloc((size_t)(numel > 0 ? numel : 1), "index_put marks", &ctx->err);
        nn_tensor *g = seen ? nn_tensor_empty(ctx, dout->dtype, idx->ndim, idx->shape) : NULL;
        if (!g) {
            nn_mem_free(seen);
            return ctx->err.code;
        }
        for (int64_t k = m; k-- > 0;) {
            int64_t p = (int64_t)nn_tensor_get_flat(idx, k);
            nn_tensor_set_flat(g, k, seen[p] ? 0 : nn_tensor_get_flat(dout, p));
            seen[p] = 1;
        }
        nn_mem_free(seen);
        din[1] = g;
    }
    return NN_OK;
}

nn_tensor *nn_put(nn_ctx *ctx, nn_tensor *a, nn_tensor *value, nn_tensor *idx) {
    nn_tensor *in[3] = {a, value, idx};
    if (missing(ctx, a, "index_put") || missing(ctx, value, "index_put") ||
        missing(ctx, idx, "index_put"))
        return NULL;
    return nn_exec(ctx, NN_OP_PUT, in, 3, NULL);
}

/* ---- as_strided at positions: out.flat[k] = a.flat[idx[k]] ----
 * The history of a view after its base was written in place
 * (nn_view_refresh, nn_inplace.c): the view's elements are a's at [idx],
 * their row-major positions in a, which nn_view_positions computes from
 * the two geometries, so any chain of views (slices, transposes, reshapes)
 * is one node, as PyTorch's AsStridedBackward0 is. Backward adds the
 * gradient back at those positions (an expanded view repeats a position:
 * the sum). Float dtypes only (what a history has). ---- */

static nn_status as_strided_check(nn_ctx *ctx, const nn_tensor *a, const nn_tensor *idx) {
    if (idx->dtype != NN_INT64 || !nn_dtype_is_float(a->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "as_strided: a float tensor and int64 positions, got %s and %s",
                            nn_dtype_name(a->dtype), nn_dtype_name(idx->dtype));
    int64_t numel = nn_tensor_numel(a), m = nn_tensor_numel(idx);
    for (int64_t k = 0; k < m; k++) {
        int64_t p = nn_tensor_get_flat_int(idx, k);
        if (p < 0 || p >= numel)
            return nn_error_set(&ctx->err, NN_ERR_INDEX,
                                "as_strided: position %lld is out of range for a tensor of %lld "
                                "elements",
                                (long long)p, (long long)numel);
    }
    return NN_OK;
}

nn_tensor *op_as_strided_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = in0(node), *idx = node->in[1].t;
    if (as_strided_check(ctx, a, idx)) return NULL;
    nn_tensor *out = nn_tensor_empty(ctx, a->dtype, idx->ndim, idx->shape);
    if (!out) return NULL;
    int64_t m = nn_tensor_numel(idx);
    for (int64_t k = 0; k < m; k++)
        nn_tensor_set_flat(out, k, nn_tensor_get_flat(a, nn_tensor_get_flat_int(idx, k)));
    return out;
}

nn_status op_as_strided_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    const nn_tensor *a = node->in[0].t, *idx = node->in[1].t;
    nn_tensor *g = nn_zeros(ctx, dout->dtype, a->ndim, a->shape);
    if (!g) return ctx->err.code;
    int64_t m = nn_tensor_numel(idx);
    for (int64_t k = 0; k < m; k++) {
        int64_t p = nn_tensor_get_flat_int(idx, k);
        nn_tensor_set_flat(g, p, nn_tensor_get_flat(g, p) + nn_tensor_get_flat(dout, k));
    }
    din[0] = g;
    return NN_OK;
}

nn_tensor *nn_as_strided_at(nn_ctx *ctx, nn_tensor *a, nn_tensor *idx) {
    nn_tensor *in[2] = {a, idx};
    if (missing(ctx, a, "as_strided") || missing(ctx, idx, "as_strided")) return NULL;
    return nn_exec(ctx, NN_OP_AS_STRIDED, in, 2, NULL);
}

/* ---- costs: no FLOPs; a view moves no bytes, a copy reads and writes its
 * elements, an index reads the gathered elements and the indices ---- */
bool nn_cost_shape(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    switch (n->op) {
    case NN_OP_RESHAPE:
    case NN_OP_PERMUTE:
    case NN_OP_EXPAND:
    case NN_OP_SLICE:
    case NN_OP_SELECT:
    case NN_OP_CONTIGUOUS:
        if (out && out->storage == n->in[0].t->storage)
            c->bytes_read = c->bytes_written = 0;
        else
            c->bytes_read = nn_cost_bytes(out);
        return true;
    case NN_OP_INDEX:
    case NN_OP_AS_STRIDED:
        c->bytes_read = nn_cost_bytes(out);
        for (int i = 1; i < n->n_in; i++) c->bytes_read += nn_cost_bytes(n->in[i].t);
        return true;
    case NN_OP_CAT:
    case NN_OP_PUT:
    case NN_OP_MASKED_SELECT: return true;
    default: return false;
    }
}

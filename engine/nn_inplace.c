/* nn_inplace: in-place writes that autograd records, and views.
 *
 * `h += b` on a tensor with history (or with an operand that requires
 * grad) is recorded the way PyTorch records it: the language computes the
 * new value out of place, as an ordinary recorded op, and the tensor then
 * takes that value and that op as its history (PyTorch "rebases" the
 * tensor's grad_fn). Everything that used the tensor before keeps the
 * producer it saw, because nodes capture their inputs' producers when they
 * are recorded; backward reports a change only to values a backward reads
 * (nn_graph.c).
 *
 * Views. A view op at top level (a reshape that did not copy, permute,
 * expand, slice, select: every view the language makes, t(), narrow,
 * unsqueeze, x[1:, 0] ...) gives its output a base: the root tensor whose
 * storage it shares (a view of a view has the root, as PyTorch's _base).
 * A recorded write through a view [v] of base [b] does what PyTorch does:
 *   1. the new value r = op(v, ...) is computed out of place and recorded
 *      (its history runs through v's own: b's old history, then the views);
 *   2. b takes the history CopySlices = put(b, r, pos) (nn_put: out = b with
 *      the positions pos of v's elements replaced by r; its backward sends
 *      the gradient of v's region to r, the rest to b's old history) and
 *      the values (the copy writes r into v's region);
 *   3. v's history becomes a view of b's new one: as_strided(b, pos)
 *      (nn_as_strided_at, AsStridedBackward0), since v's own view nodes hang
 *      from b's old history.
 * pos (nn_view_positions) are v's elements' row-major positions in b,
 * from the two geometries, so every chain of views is one put and one
 * as_strided node. Assigning into a tensor (x[i] = v, copy_, fill_, zero_)
 * is the same put with v's positions in x (nn_tensor_write_).
 *
 * Other views of b taken before the write still have histories that hang
 * from b's old one, and their values may have changed: each view keeps
 * the storage version at which its history last matched its base's
 * (view_version), and a view used where its history counts (an op that
 * records, its grad_fn read, a backward from it) whose storage version
 * moved is made a view of b's current history first (nn_view_refresh), as
 * PyTorch regenerates a view's grad_fn. A view of a leaf keeps its view
 * nodes (a leaf's history never changes).
 *
 * PyTorch's refusals stay: a write through a view of a leaf that requires
 * grad; through a view made in no_grad mode, or an output of
 * unbind/split/chunk (multi-output views) or a view of one, while
 * gradients are recorded; and such views are refused when their base was
 * written (they cannot be regenerated). */
#include "nn_ctx.h"
#include "nn_format.h"
#include "nn_graph.h"
#include "nn_mem.h"
#include "nn_ops.h"
#include "nn_ops_impl.h"
#include "nn_tensor.h"

bool nn_inplace_records(const nn_ctx *ctx, const nn_tensor *t, const nn_tensor *other) {
    if (!ctx->grad_enabled || ctx->depth > 0) return false;
    /* A view made in no_grad mode of a tensor that requires grad requires
     * grad in PyTorch (nndb's does not): its write is PyTorch's refusal. */
    return t->requires_grad || (other && other->requires_grad) ||
           (t->view_kind == NN_VIEW_NO_GRAD && nn_tensor_is_view(t) && t->base->requires_grad);
}

/* PyTorch's has_internal_overlap: a dim of stride 0 that repeats elements
 * (an expanded view); other overlaps it does not look for either. */
static bool overlaps_itself(const nn_tensor *t) {
    for (int d = 0; d < t->ndim; d++)
        if (t->strides[d] == 0 && t->shape[d] > 1) return true;
    return false;
}

/* ---- views and their bases ---- */

void nn_view_mark_multi(nn_tensor *t, const char *fn, int i) {
    if (!nn_tensor_is_view(t)) return;
    t->view_kind = NN_VIEW_MULTI;
    t->view_fn = fn;
    t->view_output = i;
}

/* Run [body] for each of [t]'s elements in row-major order, with [s] the
 * element's storage offset. */
#define FOR_EACH_OFFSET(t, s, body)                                                                \
    do {                                                                                           \
        int64_t idx_[NN_MAX_DIMS] = {0}, n_ = nn_tensor_numel(t), s = (t)->offset;                 \
        for (int64_t k_ = 0; k_ < n_; k_++) {                                                      \
            body;                                                                                  \
            for (int d_ = (t)->ndim - 1; d_ >= 0; d_--) {                                          \
                s += (t)->strides[d_];                                                             \
                if (++idx_[d_] < (t)->shape[d_]) break;                                            \
                s -= (t)->strides[d_] * (t)->shape[d_];                                            \
                idx_[d_] = 0;                                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

nn_tensor *nn_view_positions(nn_ctx *ctx, const nn_tensor *v) {
    if (!nn_tensor_is_view(v)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "internal: positions of a tensor that is no view");
        return NULL;
    }
    const nn_tensor *b = v->base;
    nn_tensor *pos = nn_tensor_empty(ctx, NN_INT64, v->ndim, v->shape);
    if (!pos) return NULL;
    int64_t *p = nn_tensor_data(pos), numel = nn_tensor_numel(b), k = 0;
    bool inside = true;
    if (nn_tensor_is_contiguous(b)) {
        /* a storage offset s is b's element s - b.offset */
        FOR_EACH_OFFSET(v, s, {
            int64_t at = s - b->offset;
            inside &= at >= 0 && at < numel;
            p[k++] = at;
        });
    } else {
        /* A base laid out otherwise (a tensor made over strided memory):
         * a table from storage offsets in b's span to b's positions. */
        int64_t lo = b->offset, hi = b->offset;
        for (int d = 0; d < b->ndim; d++) {
            int64_t reach = (b->shape[d] - 1) * b->strides[d];
            if (reach < 0)
                lo += reach;
            else
                hi += reach;
        }
        int64_t *table = nn_mem_alloc(sizeof(int64_t) * (size_t)(numel ? hi - lo + 1 : 1),
                                      "a view's positions", &ctx->err);
        if (!table) {
            nn_tensor_release(pos);
            return NULL;
        }
        for (int64_t i = 0; numel && i <= hi - lo; i++) table[i] = -1;
        int64_t j = 0;
        FOR_EACH_OFFSET(b, s, table[s - lo] = j++);
        FOR_EACH_OFFSET(v, s, {
            int64_t at = s >= lo && s <= hi ? table[s - lo] : -1;
            inside &= at >= 0;
            p[k++] = at;
        });
        nn_mem_free(table);
    }
    if (!inside) {
        nn_tensor_release(pos);
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "this view reaches elements of its storage outside its base; write to a "
                     "clone() instead");
        return NULL;
    }
    return pos;
}

static nn_status multi_error(nn_ctx *ctx, const nn_tensor *t, const char *what) {
    const char *fn = t->view_fn ? t->view_fn : nn_format_node_name(t->grad_fn);
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "Output %d of %s is a view and %s. This view is the output of a function "
                        "that returns multiple views. Such functions do not allow the output "
                        "views to be modified inplace. You should replace the inplace operation "
                        "by an out-of-place one.",
                        t->view_fn ? (int)t->view_output : 0, fn ? fn : "a view function", what);
}

static nn_status no_grad_error(nn_ctx *ctx, const char *what) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "A view was created in no_grad mode and %s with grad mode enabled. Given "
                        "that this use case is ambiguous and error-prone, it is forbidden. You "
                        "can clarify your code by moving both the view and the inplace either "
                        "both inside the no_grad block (if you don't want the inplace to be "
                        "tracked) or both outside (if you want the inplace to be tracked).",
                        what);
}

/* [v]'s history becomes as_strided(base, pos): a view of the base's
 * current history. */
static nn_status view_rebase(nn_ctx *ctx, nn_tensor *v, nn_tensor *pos) {
    bool prev = nn_ctx_set_grad(ctx, true);
    nn_tensor *g = nn_as_strided_at(ctx, v->base, pos);
    nn_ctx_set_grad(ctx, prev);
    if (!g) return ctx->err.code;
    if (g->grad_fn) {
        nn_node_retain(g->grad_fn);
        if (v->grad_fn) nn_node_release(v->grad_fn);
        v->grad_fn = g->grad_fn;
        v->requires_grad = true;
    }
    nn_tensor_release(g);
    v->view_version = v->storage->version;
    return NN_OK;
}

nn_status nn_view_refresh(nn_ctx *ctx, nn_tensor *t) {
    if (!nn_view_stale(t) || ctx->depth > 0) return NN_OK;
    const nn_tensor *b = t->base;
    /* Nothing to regenerate: no longer a view (t.data = ...), a base
     * without history, a view of a leaf (its history never changes), a
     * view made a leaf of its own (requires_grad_()). */
    if (!nn_tensor_is_view(t) || !b->requires_grad || !nn_dtype_is_float(t->dtype) ||
        (!b->grad_fn && t->grad_fn) || (t->requires_grad && !t->grad_fn)) {
        t->view_version = t->storage->version;
        return NN_OK;
    }
    const char *what = "its base or another view of its base has been modified inplace";
    if (t->view_kind == NN_VIEW_MULTI) return multi_error(ctx, t, what);
    if (t->view_kind == NN_VIEW_NO_GRAD) return no_grad_error(ctx, what);
    nn_tensor *pos = nn_view_positions(ctx, t);
    if (!pos) return ctx->err.code;
    nn_status st = view_rebase(ctx, t, pos);
    nn_tensor_release(pos);
    return st;
}

/* ---- checks ---- */

nn_status nn_inplace_check_leaf_view(nn_ctx *ctx, const nn_tensor *t) {
    if (!nn_tensor_is_view(t) || !t->base->requires_grad || t->base->grad_fn) return NN_OK;
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "a view of a leaf Variable that requires grad is being used in an "
                        "in-place operation.");
}

nn_status nn_inplace_check(nn_ctx *ctx, const nn_tensor *t, const char *opname) {
    (void)opname;
    if (nn_tensor_check_storage(ctx, t)) return ctx->err.code;
    if (overlaps_itself(t))
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "unsupported operation: more than one element of the written-to "
                            "tensor refers to a single memory location. Please clone() the tensor "
                            "before performing the operation.");
    if (nn_tensor_is_view(t)) {
        /* PyTorch's order: how the view was made, then its base */
        if (t->view_kind == NN_VIEW_MULTI) return multi_error(ctx, t, "is being modified inplace");
        if (t->view_kind == NN_VIEW_NO_GRAD) return no_grad_error(ctx, "is being modified inplace");
        if (nn_inplace_check_leaf_view(ctx, t)) return ctx->err.code;
    }
    if (t->requires_grad && !t->grad_fn)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "a leaf Variable that requires grad is being used in an in-place "
                            "operation.");
    return NN_OK;
}

/* ---- writes ---- */

/* [t] (a view or not) takes [value] (broadcast to t's shape, converted to
 * its dtype) as t[...] = value does with gradients on: its base, or t
 * itself, becomes put(base, value, positions) (CopySlices), and a view's
 * history a view of that. */
static nn_status write_region(nn_ctx *ctx, nn_tensor *t, nn_tensor *value) {
    bool view = nn_tensor_is_view(t);
    nn_tensor *pos;
    if (view) {
        pos = nn_view_positions(ctx, t);
    } else {
        bool prev = nn_ctx_set_grad(ctx, false);
        nn_tensor *flat = nn_arange(ctx, 0, (double)nn_tensor_numel(t), 1, NN_INT64);
        pos = flat ? nn_view(ctx, flat, t->ndim, t->shape) : NULL;
        nn_tensor_release(flat);
        nn_ctx_set_grad(ctx, prev);
    }
    if (!pos) return ctx->err.code;
    nn_tensor *b = view ? t->base : t;
    nn_tensor *r = nn_put(ctx, b, value, pos);
    nn_status st = r ? NN_OK : ctx->err.code;
    if (r && r->grad_fn && view) r->grad_fn->p.flags |= NN_PUT_VIEW_WRITE;
    /* b is no view: the plain assignment below */
    if (!st) st = nn_tensor_assign_(ctx, b, r);
    nn_tensor_release(r);
    if (!st && view) st = view_rebase(ctx, t, pos);
    nn_tensor_release(pos);
    return st;
}

nn_status nn_tensor_write_(nn_ctx *ctx, nn_tensor *t, nn_tensor *value) {
    if (nn_tensor_check_storage(ctx, value)) return ctx->err.code;
    if (!nn_dtype_is_float(t->dtype) || !nn_inplace_records(ctx, t, value)) {
        bool prev = nn_ctx_set_grad(ctx, false);
        nn_status st = nn_tensor_copy_(ctx, t, value);
        nn_ctx_set_grad(ctx, prev);
        return st;
    }
    if (nn_inplace_check(ctx, t, "copy_")) return ctx->err.code;
    return write_region(ctx, t, value);
}

nn_status nn_tensor_assign_(nn_ctx *ctx, nn_tensor *t, nn_tensor *r) {
    if (!nn_tensor_same_shape(t, r)) {
        char a[128], b[128];
        return nn_error_set(
            &ctx->err, NN_ERR_SHAPE, "output with shape %s doesn't match the broadcast shape %s",
            nn_tensor_shape_str(t, a, sizeof a), nn_tensor_shape_str(r, b, sizeof b));
    }
    if (t->dtype != r->dtype && !nn_dtype_is_float(t->dtype) && nn_dtype_is_float(r->dtype))
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "result type %s can't be cast to the desired output type %s",
                            nn_dtype_name(r->dtype), nn_dtype_name(t->dtype));
    if (r->requires_grad && nn_dtype_is_float(t->dtype) && nn_tensor_is_view(t) && ctx->depth == 0)
        return write_region(ctx, t, r);
    /* The values go through copy_ (strides, dtype, overlap, the version
     * bump); with gradients off it does not refuse t's history. */
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_status st = nn_tensor_copy_(ctx, t, r);
    nn_ctx_set_grad(ctx, prev);
    if (st) return st;
    if (r->grad_fn && nn_dtype_is_float(t->dtype)) {
        if (!t->grad_fn) nn_graph_unhold(ctx, r->grad_fn, t);
        nn_node_retain(r->grad_fn);
        if (t->grad_fn) nn_node_release(t->grad_fn);
        t->grad_fn = r->grad_fn;
        t->requires_grad = true;
    }
    return NN_OK;
}

/* nn_inplace: in-place writes that autograd records.
 *
 * `h += b` on a tensor with history (or with an operand that requires
 * grad) is recorded the way PyTorch records it: the language computes the
 * new value out of place, as an ordinary recorded op, and the tensor then
 * takes that value and that op as its history (PyTorch "rebases" the
 * tensor's grad_fn). Everything that used the tensor before keeps the
 * producer it saw, because nodes capture their inputs' producers when they
 * are recorded; backward reports a change only to values a backward reads
 * (nn_graph.c). Views are the limit: a write through a view of a tensor
 * with history would have to rewrite the base's history too (PyTorch's
 * CopySlices), so it is refused with a message, except for indexed
 * assignment (x[i] = v, x[i] += v), which the language records on the base
 * with nn_put. */
#include "nn_ctx.h"
#include "nn_graph.h"
#include "nn_ops_impl.h"
#include "nn_tensor.h"

bool nn_inplace_records(const nn_ctx *ctx, const nn_tensor *t, const nn_tensor *other) {
    if (!ctx->grad_enabled || ctx->depth > 0) return false;
    return t->requires_grad || (other && other->requires_grad);
}

static bool is_view_op(nn_op op) {
    return op == NN_OP_RESHAPE || op == NN_OP_PERMUTE || op == NN_OP_EXPAND || op == NN_OP_SLICE ||
           op == NN_OP_SELECT;
}

nn_status nn_inplace_check_leaf_view(nn_ctx *ctx, const nn_tensor *t) {
    const nn_node *n = t->grad_fn;
    if (!n || !is_view_op(n->op)) return NN_OK;
    while (n->in[0].fn && is_view_op(n->in[0].fn->op)) n = n->in[0].fn;
    /* the leaf's own storage: a reshape that had to copy is no view */
    const nn_tensor *leaf = n->in[0].fn ? NULL : n->in[0].t;
    if (!leaf || !leaf->requires_grad || leaf->storage != t->storage) return NN_OK;
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "a view of a leaf Variable that requires grad is being used in an "
                        "in-place operation.");
}

nn_status nn_inplace_check(nn_ctx *ctx, const nn_tensor *t, const char *opname) {
    if (nn_tensor_check_storage(ctx, t)) return ctx->err.code;
    if (t->requires_grad && !t->grad_fn)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "a leaf Variable that requires grad is being used in an in-place "
                            "operation.");
    if (t->grad_fn && is_view_op(t->grad_fn->op) && t->grad_fn->out && t->grad_fn->in[0].t &&
        (t->storage == t->grad_fn->in[0].t->storage ||
         (t->grad_fn->in[0].dropped && (const void *)t->storage == t->grad_fn->view_of))) {
        if (nn_inplace_check_leaf_view(ctx, t)) return ctx->err.code;
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "%s: this tensor is a view (%s) of a tensor with autograd history; "
                            "nndb records in-place writes through a view only as indexed "
                            "assignment on the base (x[i] += y). Write the view's value out of "
                            "place (v = v + y), or clone() it first.",
                            opname, nn_op_name(t->grad_fn->op));
    }
    return NN_OK;
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
    /* The values go through copy_ (strides, dtype, overlap, the version
     * bump); with gradients off it does not refuse t's history. */
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_status st = nn_tensor_copy_(ctx, t, r);
    nn_ctx_set_grad(ctx, prev);
    if (st) return st;
    if (r->grad_fn && nn_dtype_is_float(t->dtype)) {
        nn_node_retain(r->grad_fn);
        if (t->grad_fn) nn_node_release(t->grad_fn);
        t->grad_fn = r->grad_fn;
        t->requires_grad = true;
    }
    return NN_OK;
}

/* ops_reduce: STUB — to be replaced by the real kernels. */
#include "nn_ops_impl.h"

static nn_tensor *todo(nn_ctx *ctx, const char *name) {
    nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s is not implemented yet", name);
    return NULL;
}

nn_tensor *op_sum_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "sum");
}
nn_status op_sum_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "sum backward is not implemented yet");
}
nn_tensor *op_mean_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "mean");
}
nn_status op_mean_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "mean backward is not implemented yet");
}
nn_tensor *op_max_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "max");
}
nn_status op_max_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "max backward is not implemented yet");
}
nn_tensor *op_min_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "min");
}
nn_status op_min_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "min backward is not implemented yet");
}
nn_tensor *op_var_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "var");
}
nn_status op_var_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "var backward is not implemented yet");
}
nn_tensor *op_std_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "std");
}
nn_status op_std_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "std backward is not implemented yet");
}
nn_tensor *op_logsumexp_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "logsumexp");
}
nn_status op_logsumexp_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "logsumexp backward is not implemented yet");
}
nn_tensor *op_norm_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "norm");
}
nn_status op_norm_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "norm backward is not implemented yet");
}
nn_tensor *op_argmax_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "argmax");
}
nn_tensor *op_argmin_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "argmin");
}

/* ops_shape: STUB — to be replaced by the real kernels. */
#include "nn_ops_impl.h"

static nn_tensor *todo(nn_ctx *ctx, const char *name) {
    nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s is not implemented yet", name);
    return NULL;
}

nn_tensor *op_reshape_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "reshape");
}
nn_status op_reshape_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "reshape backward is not implemented yet");
}
nn_tensor *op_permute_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "permute");
}
nn_status op_permute_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "permute backward is not implemented yet");
}
nn_tensor *op_expand_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "expand");
}
nn_status op_expand_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "expand backward is not implemented yet");
}
nn_tensor *op_slice_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "slice");
}
nn_status op_slice_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "slice backward is not implemented yet");
}
nn_tensor *op_select_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "select");
}
nn_status op_select_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "select backward is not implemented yet");
}
nn_tensor *op_contiguous_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "contiguous");
}
nn_status op_contiguous_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "contiguous backward is not implemented yet");
}
nn_tensor *op_cat_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "cat");
}
nn_status op_cat_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "cat backward is not implemented yet");
}
nn_tensor *op_index_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "index");
}
nn_status op_index_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "index backward is not implemented yet");
}
nn_tensor *op_masked_select_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "masked_select");
}
nn_status op_masked_select_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "masked_select backward is not implemented yet");
}

/* ops_nn: STUB — to be replaced by the real kernels. */
#include "nn_ops_impl.h"

static nn_tensor *todo(nn_ctx *ctx, const char *name) {
    nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s is not implemented yet", name);
    return NULL;
}

nn_tensor *op_softmax_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "softmax");
}
nn_status op_softmax_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "softmax backward is not implemented yet");
}
nn_tensor *op_log_softmax_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "log_softmax");
}
nn_status op_log_softmax_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "log_softmax backward is not implemented yet");
}
nn_tensor *op_cross_entropy_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "cross_entropy");
}
nn_status op_cross_entropy_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "cross_entropy backward is not implemented yet");
}
nn_tensor *op_nll_loss_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "nll_loss");
}
nn_status op_nll_loss_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "nll_loss backward is not implemented yet");
}
nn_tensor *op_mse_loss_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "mse_loss");
}
nn_status op_mse_loss_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "mse_loss backward is not implemented yet");
}
nn_tensor *op_bce_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "binary_cross_entropy");
}
nn_status op_bce_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "binary_cross_entropy backward is not implemented yet");
}
nn_tensor *op_bce_with_logits_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "binary_cross_entropy_with_logits");
}
nn_status op_bce_with_logits_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "binary_cross_entropy_with_logits backward is not implemented yet");
}
nn_tensor *op_embedding_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "embedding");
}
nn_status op_embedding_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "embedding backward is not implemented yet");
}
nn_tensor *op_layer_norm_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "layer_norm");
}
nn_status op_layer_norm_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "layer_norm backward is not implemented yet");
}
nn_tensor *op_dropout_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "dropout");
}
nn_status op_dropout_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "dropout backward is not implemented yet");
}
nn_tensor *op_sdpa_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "scaled_dot_product_attention");
}
nn_status op_sdpa_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "scaled_dot_product_attention backward is not implemented yet");
}

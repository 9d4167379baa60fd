/* ops_matmul: STUB — to be replaced by the real kernels. */
#include "nn_ops_impl.h"

static nn_tensor *todo(nn_ctx *ctx, const char *name) {
    nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s is not implemented yet", name);
    return NULL;
}

nn_tensor *op_matmul_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "matmul");
}
nn_status op_matmul_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "matmul backward is not implemented yet");
}
nn_tensor *op_linear_forward(nn_ctx *ctx, nn_node *node) {
    return todo(ctx, "linear");
}
nn_status op_linear_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "linear backward is not implemented yet");
}

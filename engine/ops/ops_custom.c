/* ops_custom: the op whose backward a front end supplies (nn_custom in
 * nn_ops.h), for torch.autograd.Function: the forward hands back the
 * output the caller computed; the backward calls the caller's function.
 * The nn_custom lives in the node's integer parameters (its address). */
#include <stdint.h>

#include "nn_graph.h"
#include "nn_ops_impl.h"

static nn_custom *custom_of(const nn_node *node) {
    return (nn_custom *)(intptr_t)node->p.i[0];
}

nn_tensor *op_custom_forward(nn_ctx *ctx, nn_node *node) {
    return nn_tensor_detach(ctx, custom_of(node)->output);
}

nn_status op_custom_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_custom *c = custom_of(node);
    bool needs[64];
    int n = node->n_in < 64 ? node->n_in : 64;
    for (int i = 0; i < n; i++) needs[i] = node->in[i].needs_grad;
    return c->backward(ctx, c, dout, n, needs, din);
}

nn_tensor *nn_custom_apply(nn_ctx *ctx, nn_tensor *const *inputs, int n, nn_custom *c) {
    nn_params p = {0};
    p.i[0] = (int64_t)(intptr_t)c;
    return nn_exec(ctx, NN_OP_CUSTOM, inputs, n, &p);
}

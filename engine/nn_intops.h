/* nn_intops: elementwise ops that autograd does not differentiate, in
 * torch either: floor division, the remainder with the divisor's sign, and
 * the bitwise family on integer and bool tensors. Operands broadcast; the
 * result dtype follows PyTorch's promotion. Each returns a new tensor, or
 * NULL with ctx->err filled.
 */
#ifndef NN_INTOPS_H
#define NN_INTOPS_H

#include "nn_ctx.h"
#include "nn_tensor.h"

nn_tensor *nn_floor_divide(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_remainder(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_and(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_or(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_xor(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_not(nn_ctx *ctx, nn_tensor *a);

#endif

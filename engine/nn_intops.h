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
/* Shifts of integers: a << b and a >> b (arithmetic), the count taken
 * modulo the width as PyTorch 1.13 on x86-64 does; floats are refused. */
nn_tensor *nn_bitwise_left_shift(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_bitwise_right_shift(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
/* Greatest common divisor (non-negative) and least common multiple
 * (|a / gcd * b|) of integer tensors. */
/* Integer division rounded toward zero (div(rounding_mode='trunc')). */
nn_tensor *nn_trunc_divide(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_gcd(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_lcm(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);

#endif

/* nn_init: parameter initialisation as torch.nn.init does it: the same
 * distributions, bounds, fan computation and gains. The numbers differ from
 * PyTorch's because the generator differs; every draw comes from ctx->rng, so
 * the same seed gives the same numbers.
 *
 * Ownership: every function fills the tensor it is given in place (under
 * no_grad, as torch.nn.init does) and keeps no reference to it. Errors (a
 * non-float tensor, fewer than 2 dims where fans are needed, an unknown
 * nonlinearity, a bad bound) are values: a status with ctx->err filled, and
 * the tensor unchanged.
 */
#ifndef NN_INIT_H
#define NN_INIT_H

#include "nn_ctx.h"

typedef enum nn_init_mode { NN_INIT_FAN_IN, NN_INIT_FAN_OUT } nn_init_mode;

/* torch.nn.init._calculate_fan_in_and_fan_out: for a weight [out, in, k...]
 * fan_in = in * prod(k), fan_out = out * prod(k). Fewer than 2 dims is an
 * error. */
nn_status nn_init_fans(nn_ctx *ctx, const nn_tensor *t, int64_t *fan_in, int64_t *fan_out);

/* torch.nn.init.calculate_gain: "linear", "conv1d", "conv2d", "conv3d",
 * "conv_transpose1d/2d/3d" and "sigmoid" give 1; "tanh" 5/3; "relu" sqrt(2);
 * "leaky_relu" sqrt(2 / (1 + param^2)) with param NAN meaning 0.01; "selu"
 * 3/4. Any other name is an error naming the accepted ones. */
nn_status nn_init_calculate_gain(nn_ctx *ctx, const char *nonlinearity, double param, double *gain);

nn_status nn_init_uniform_(nn_ctx *ctx, nn_tensor *t, double a, double b);
nn_status nn_init_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std);
nn_status nn_init_constant_(nn_ctx *ctx, nn_tensor *t, double value);
nn_status nn_init_zeros_(nn_ctx *ctx, nn_tensor *t);
nn_status nn_init_ones_(nn_ctx *ctx, nn_tensor *t);
/* U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)). */
nn_status nn_init_xavier_uniform_(nn_ctx *ctx, nn_tensor *t, double gain);
/* N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out)). */
nn_status nn_init_xavier_normal_(nn_ctx *ctx, nn_tensor *t, double gain);
/* std = calculate_gain(nonlinearity, a) / sqrt(fan); uniform uses
 * U(-sqrt(3) std, sqrt(3) std). PyTorch's defaults: a = 0, fan_in,
 * "leaky_relu". */
nn_status nn_init_kaiming_uniform_(nn_ctx *ctx, nn_tensor *t, double a, nn_init_mode mode,
                                   const char *nonlinearity);
nn_status nn_init_kaiming_normal_(nn_ctx *ctx, nn_tensor *t, double a, nn_init_mode mode,
                                  const char *nonlinearity);
/* N(mean, std^2) conditioned on [a, b], by the inverse CDF as PyTorch does
 * (uniform_, erfinv_, scale, shift, clamp in the tensor's dtype; PyTorch's
 * defaults: 0, 1, -2, 2). Needs std > 0 and a < b. */
nn_status nn_init_trunc_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std, double a,
                                double b);
/* A (semi-)orthogonal matrix scaled by [gain]: the tensor viewed as
 * [rows, numel / rows] gets the Q of a QR factorisation of a standard normal
 * matrix (transposed first when rows < cols), with R's diagonal made
 * positive, as torch.nn.init.orthogonal_. Needs 2 or more dims. */
nn_status nn_init_orthogonal_(nn_ctx *ctx, nn_tensor *t, double gain);

#endif

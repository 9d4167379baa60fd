/* ops_conv_direct: convolution without im2col, for few channels and stride 1.
 *
 * The im2col + GEMM path (ops_conv.c) writes a column matrix of
 * (Cin/G * kernel) rows by (batch * output positions) columns: 5 MB for
 * LeNet's first layer at batch 64, more than all its activations. For a
 * small channel count the direct kernels below are as fast and need only
 * a few kilobytes per thread.
 *
 * The trick (stride 1 in every dim): lay each plane out with the pitch of
 * the zero-padded image, P = isz + 2 * padding per dim. Output position o
 * then sits at the same flat index as its window's first tap, and tap t
 * reads o + off(t), off(t) = sum_i k_i * dilation_i * pitch_i. So one tap
 * of one channel is a single contiguous multiply-add over the whole plane
 * ("wide" layout, width P2 instead of the output width; the extra columns
 * are computed and dropped, or held at zero on the gradient side):
 *   cols  C[n, o]  = sum_c,t W[o, c, t] * Ipad[n, c](. + off(t))
 *   image I[n, c]  = crop(sum_o,t W[o, c, t] * shift_t(Cwide[n, o]))
 *   wgrad dW[o,c,t] = sum_n dot(Cwide[n, o], Ipad[n, c](. + off(t)))
 * with the geometry of ops_conv.c: the image side is the convolution's
 * input (the transpose's output), the column side its output. Samples are
 * split over the engine's threads. Internal to engine/ops. */
#ifndef NN_OPS_CONV_DIRECT_H
#define NN_OPS_CONV_DIRECT_H

#include <stdbool.h>
#include <stdint.h>

#include "nn_ctx.h"

typedef struct nn_conv_direct {
    int64_t N, Ci, Cc, G;                     /* samples, image/column channels, groups */
    int64_t isz[3], csz[3], k[3], p[3], d[3]; /* right-aligned spatial dims (1 / 0 unused) */
    bool f64;
} nn_conv_direct;

/* Whether the direct kernels serve [c] (stride 1 everywhere; few channels;
 * planes small enough for the per-thread buffers) and are expected to beat
 * im2col + GEMM. The caller has already checked that the stride is 1. */
bool nn_conv_direct_applies(const nn_conv_direct *c);

/* cols = conv(img, w) for every sample and group (cols written). */
nn_status nn_conv_direct_cols(nn_ctx *ctx, const nn_conv_direct *c, const void *img, const void *w,
                              void *cols);
/* img = the convolution's adjoint applied to cols (img written, not added to). */
nn_status nn_conv_direct_image(nn_ctx *ctx, const nn_conv_direct *c, const void *cols,
                               const void *w, void *img);
/* dw = the weight's gradient from cols (column side) and img (dw written). */
nn_status nn_conv_direct_wgrad(nn_ctx *ctx, const nn_conv_direct *c, const void *cols,
                               const void *img, void *dw);

#endif
